import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Publishing: every app gets a slug (its public address, unique on the server), a visibility, a
 * publish state and the deployment it publishes. Existing apps get a slug from their name. A
 * renamed slug keeps redirecting for 30 days (slug_redirects).
 */
export class Publishing1763880000000 implements MigrationInterface {
  name = 'Publishing1763880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE apps
        ADD COLUMN slug varchar(40),
        ADD COLUMN visibility varchar(16) NOT NULL DEFAULT 'unlisted',
        ADD COLUMN publish_state varchar(16) NOT NULL DEFAULT 'draft',
        ADD COLUMN published_deployment_id varchar(40) REFERENCES deployments(id) ON DELETE SET NULL,
        ADD COLUMN published_at timestamptz(3)`);
    // Made before the backfill, which looks every candidate up in it.
    await q.query(`CREATE UNIQUE INDEX apps_slug_key ON apps (slug)`);
    // Existing apps get a slug from their name by the rule of src/apps/slug.ts (slugCandidate) as it
    // was when this migration was written, frozen here in SQL (a migration never runs live code, which
    // may change): accents dropped, lowercase, anything else a hyphen, at most 40 characters, `app`
    // padding when the name gives too little; a slug an earlier app (created_at, id order) took gets
    // the first free `-2`, `-3`…, cut shorter to leave the suffix room. test/integration/publishing-
    // migration.int-spec.ts holds it to the live rule. (normalize() uses the server's Unicode tables,
    // as String.normalize used Node's: they differ on a few letters of Unicode 16 and later.)
    await q.query(`
      DO $$
      DECLARE
        app record;
        plain text;
        n integer;
        candidate text;
      BEGIN
        FOR app IN SELECT id, name FROM apps ORDER BY created_at, id LOOP
          -- lower() under "C" lowers A-Z only, whatever the database's locale: after NFKD and the marks'
          -- stripping no other letter is left that lowers to a-z, and the rest become hyphens anyway.
          plain := btrim(regexp_replace(lower(regexp_replace(normalize(app.name, NFKD), '[\\u0300-\\u036f]', '', 'g') COLLATE "C"), '[^a-z0-9]+', '-', 'g'), '-');
          n := 1;
          LOOP
            candidate := rtrim(left(plain, 40 - CASE WHEN n = 1 THEN 0 ELSE length(n::text) + 1 END), '-');
            IF length(candidate) < 3 THEN
              candidate := CASE WHEN candidate = '' THEN 'app' ELSE candidate || '-app' END;
            END IF;
            IF n > 1 THEN
              candidate := candidate || '-' || n;
            END IF;
            EXIT WHEN NOT EXISTS (SELECT FROM apps WHERE slug = candidate);
            n := n + 1;
          END LOOP;
          UPDATE apps SET slug = candidate WHERE id = app.id;
        END LOOP;
      END
      $$`);
    await q.query(`ALTER TABLE apps ALTER COLUMN slug SET NOT NULL`);
    // The catalogue: published public apps, newest publication first.
    await q.query(`CREATE INDEX apps_catalog_idx ON apps (published_at DESC, id DESC) WHERE publish_state = 'published' AND visibility = 'public'`);
    await q.query(`
      CREATE TABLE slug_redirects (
        slug        varchar(40)    PRIMARY KEY,
        app_id      varchar(40)    NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
        expires_at  timestamptz(3) NOT NULL
      )`);
    await q.query(`CREATE INDEX slug_redirects_app_idx ON slug_redirects (app_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE slug_redirects`);
    await q.query(`DROP INDEX apps_catalog_idx`);
    await q.query(`DROP INDEX apps_slug_key`);
    await q.query(
      `ALTER TABLE apps DROP COLUMN published_at, DROP COLUMN published_deployment_id, DROP COLUMN publish_state, DROP COLUMN visibility, DROP COLUMN slug`,
    );
  }
}

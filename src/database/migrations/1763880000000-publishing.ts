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
    const apps: Array<{ id: string; name: string }> = await q.query(`SELECT id, name FROM apps ORDER BY created_at, id`);
    const taken = new Set<string>();
    for (const app of apps) {
      let n = 1;
      while (taken.has(slugCandidate(app.name, n))) n++;
      taken.add(slugCandidate(app.name, n));
      await q.query(`UPDATE apps SET slug = $2 WHERE id = $1`, [app.id, slugCandidate(app.name, n)]);
    }
    await q.query(`ALTER TABLE apps ALTER COLUMN slug SET NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX apps_slug_key ON apps (slug)`);
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

// Frozen copies of src/apps/slug.ts as it was when this migration was written: a migration must do
// the same thing forever, so it never imports live code, which may change (a lint rule holds it).

const SLUG_MIN = 3;
const SLUG_MAX = 40;

function slugFrom(name: string, room = 0): string {
  let slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX - room)
    .replace(/-+$/g, '');
  if (slug.length < SLUG_MIN) slug = slug ? `${slug}-app` : 'app';
  return slug;
}

function slugCandidate(name: string, n: number): string {
  return n <= 1 ? slugFrom(name) : `${slugFrom(name, String(n).length + 1)}-${n}`;
}

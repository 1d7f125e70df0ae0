import { MigrationInterface, QueryRunner } from 'typeorm';

/** One landing page per app (a JSON document, see src/landing-pages/landing-page.ts); deploys snapshot it. */
export class CreateLandingPages1763845000000 implements MigrationInterface {
  name = 'CreateLandingPages1763845000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE landing_pages (
        app_id      varchar(40)    PRIMARY KEY REFERENCES apps(id) ON DELETE CASCADE,
        account_id  varchar(40)    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        source      varchar(16)    NOT NULL,
        page        jsonb          NOT NULL,
        updated_at  timestamptz(3) NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE landing_pages`);
  }
}

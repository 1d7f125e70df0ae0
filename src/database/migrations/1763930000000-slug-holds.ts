import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Slugs of deleted apps stay reserved for their account for 30 days, like renamed ones: a slug
 * given up is held for an account (`account_id`), and for an app while that app exists (`app_id`,
 * set to null when the app is deleted: the hold stays, the redirect goes). No foreign key on the
 * account: a hold protects an app's visitors from a look-alike even if its account goes.
 */
export class SlugHolds1763930000000 implements MigrationInterface {
  name = 'SlugHolds1763930000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE slug_redirects ADD COLUMN account_id varchar(40)`);
    await q.query(`UPDATE slug_redirects r SET account_id = a.account_id FROM apps a WHERE a.id = r.app_id`);
    await q.query(`ALTER TABLE slug_redirects ALTER COLUMN account_id SET NOT NULL, ALTER COLUMN app_id DROP NOT NULL`);
    await q.query(`ALTER TABLE slug_redirects DROP CONSTRAINT slug_redirects_app_id_fkey`);
    await q.query(`ALTER TABLE slug_redirects ADD CONSTRAINT slug_redirects_app_id_fkey FOREIGN KEY (app_id) REFERENCES apps(id) ON DELETE SET NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Holds of deleted apps have nothing to point at in the older shape.
    await q.query(`DELETE FROM slug_redirects WHERE app_id IS NULL`);
    await q.query(`ALTER TABLE slug_redirects DROP CONSTRAINT slug_redirects_app_id_fkey`);
    await q.query(`ALTER TABLE slug_redirects ADD CONSTRAINT slug_redirects_app_id_fkey FOREIGN KEY (app_id) REFERENCES apps(id) ON DELETE CASCADE`);
    await q.query(`ALTER TABLE slug_redirects ALTER COLUMN app_id SET NOT NULL, DROP COLUMN account_id`);
  }
}

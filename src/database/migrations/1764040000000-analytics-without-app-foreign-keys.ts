import { MigrationInterface, QueryRunner } from 'typeorm';

/** The analytics tables that referenced apps(id) ON DELETE CASCADE. */
const TABLES = ['analytics_events', 'analytics_visits', 'analytics_visitor_days', 'analytics_daily'] as const;

/**
 * The analytics tables drop their foreign key to apps: each row inserted paid a check of its app
 * (a lookup and a row lock, about 3 µs of PostgreSQL a row, three rows per new visitor's pageview),
 * though the stitcher already holds each app's analytics lock and has read the app before it writes.
 * An app's analytics rows now go with it through AnalyticsErasure, in the transaction that deletes
 * the app, under the same lock; the inbox's rows of a deleted app are dropped when stitched, as before.
 */
export class AnalyticsWithoutAppForeignKeys1764040000000 implements MigrationInterface {
  name = 'AnalyticsWithoutAppForeignKeys1764040000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of TABLES) await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_app_id_fkey`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      // Rows of apps deleted meanwhile would fail the constraint: they are what the cascade would have deleted.
      await q.query(`DELETE FROM ${table} t WHERE NOT EXISTS (SELECT 1 FROM apps a WHERE a.id = t.app_id)`);
      await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_app_id_fkey FOREIGN KEY (app_id) REFERENCES apps(id) ON DELETE CASCADE`);
    }
  }
}

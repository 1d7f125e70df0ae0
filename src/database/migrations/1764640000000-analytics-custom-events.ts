import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Custom events counted (issue 47): a custom event's props kept on its raw row (analytics_events and
 * analytics_inbox, as JSON of at most 10 string pairs, e-mail-looking values already redacted), the
 * rollups' `events` sum (custom events, neither pageviews nor sign-ups), and rollup dimensions long
 * enough for `props.<key>` (keys are up to 40 characters). Widening a varchar rewrites nothing.
 */
export class AnalyticsCustomEvents1764640000000 implements MigrationInterface {
  name = 'AnalyticsCustomEvents1764640000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE analytics_events ADD COLUMN props jsonb`);
    await q.query(`ALTER TABLE analytics_inbox ADD COLUMN props jsonb`);
    await q.query(`ALTER TABLE analytics_daily ADD COLUMN events integer NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE analytics_daily ALTER COLUMN dimension TYPE varchar(50)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM analytics_daily WHERE length(dimension) > 20`);
    await q.query(`ALTER TABLE analytics_daily ALTER COLUMN dimension TYPE varchar(20)`);
    await q.query(`ALTER TABLE analytics_daily DROP COLUMN events`);
    await q.query(`ALTER TABLE analytics_inbox DROP COLUMN props`);
    await q.query(`ALTER TABLE analytics_events DROP COLUMN props`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * E-mail reports (issue 47). `analytics_report_subscriptions`: a member's weekly or monthly report of
 * one app, switched on (a row) or off (none); its id is what an unsubscribe link signs, so a link dies
 * with the switch it turned off. Removing the member or deleting the app removes them.
 * `analytics_report_sends`: one row per member, app, kind and period — the unique key that makes a
 * report go once across workers and restarts. A worker claims the row (`claimed`, with a lease), sends,
 * then marks it `sent`; a claim whose lease ran out (the worker died) may be claimed again, up to a few
 * attempts (docs/decisions/2026-11-29-report-once-per-period.md).
 */
export class AnalyticsReports1764740000000 implements MigrationInterface {
  name = 'AnalyticsReports1764740000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE analytics_report_subscriptions (
        id          varchar(40) PRIMARY KEY,
        member_id   varchar(40) NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        app_id      varchar(40) NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
        kind        varchar(8)  NOT NULL CHECK (kind IN ('weekly', 'monthly')),
        created_at  timestamptz(3) NOT NULL DEFAULT now(),
        UNIQUE (member_id, app_id, kind)
      )`);
    await q.query(`CREATE INDEX analytics_report_subscriptions_app ON analytics_report_subscriptions (app_id)`);
    await q.query(`
      CREATE TABLE analytics_report_sends (
        member_id     varchar(40) NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        app_id        varchar(40) NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
        kind          varchar(8)  NOT NULL,
        period_start  date        NOT NULL,
        status        varchar(8)  NOT NULL DEFAULT 'claimed' CHECK (status IN ('claimed', 'sent')),
        lease_until   timestamptz(3) NOT NULL,
        attempts      int         NOT NULL DEFAULT 1,
        sent_at       timestamptz(3),
        PRIMARY KEY (member_id, app_id, kind, period_start)
      )`);
    await q.query(`CREATE INDEX analytics_report_sends_app ON analytics_report_sends (app_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE analytics_report_sends`);
    await q.query(`DROP TABLE analytics_report_subscriptions`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Analytics storage (docs/guide.md, "Analytics", says what is and is not stored):
 * - analytics_events: every counted pageview, sign-up and custom event, partitioned by month
 *   (partitions are made ahead and dropped at ANALYTICS_RETENTION_DAYS by AnalyticsPartitions);
 * - analytics_visits: one row per visit (a visitor's pageviews without a 30-minute gap), partitioned alike;
 * - analytics_daily: the rollups the stats API reads, one row per app, day, dimension and value, kept for good;
 * - analytics_daily_visitors: which visitor ids were already counted per rollup row today (so
 *   `visitors` stays exact under upserts); purged after two days, like the salts.
 * Everything cascades with its app. No column holds an IP address or a User-Agent.
 */
export class CreateAnalytics1763890000000 implements MigrationInterface {
  name = 'CreateAnalytics1763890000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE analytics_events (
        app_id         varchar(40)  NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
        ${ANALYTICS_EVENT_COLUMNS}
      ) PARTITION BY RANGE (occurred_at)`);
    await q.query(`CREATE INDEX analytics_events_app_time_idx ON analytics_events (app_id, occurred_at)`);
    await q.query(`
      CREATE TABLE analytics_visits (
        app_id         varchar(40)  NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
        visitor_id     bigint       NOT NULL,
        started_at     timestamptz(3) NOT NULL,
        last_seen_at   timestamptz(3) NOT NULL,
        pageviews      integer      NOT NULL,
        entry_page     varchar(300) NOT NULL,
        deployment_id  varchar(40),
        ${SOURCE_COLUMNS},
        PRIMARY KEY (app_id, visitor_id, started_at)
      ) PARTITION BY RANGE (started_at)`);
    await q.query(`CREATE INDEX analytics_visits_app_time_idx ON analytics_visits (app_id, started_at)`);
    await q.query(`
      CREATE TABLE analytics_daily (
        app_id         varchar(40)  NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
        day            date         NOT NULL,
        dimension      varchar(20)  NOT NULL,
        value          varchar(300) NOT NULL,
        visitors       integer      NOT NULL DEFAULT 0,
        pageviews      integer      NOT NULL DEFAULT 0,
        visits         integer      NOT NULL DEFAULT 0,
        bounces        integer      NOT NULL DEFAULT 0,
        visit_ms       bigint       NOT NULL DEFAULT 0,
        signups        integer      NOT NULL DEFAULT 0,
        PRIMARY KEY (app_id, dimension, day, value)
      )`);
    for (const statement of CREATE_ANALYTICS_DAILY_VISITORS) await q.query(statement);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE analytics_daily_visitors, analytics_daily, analytics_visits, analytics_events`);
  }
}

// Where a visit came from and on what, alike in analytics_events and analytics_visits: a visit takes its first event's.
const SOURCE_COLUMNS = `referrer_host  varchar(255),
        utm_source     varchar(100),
        utm_medium     varchar(100),
        utm_campaign   varchar(100),
        browser        varchar(40),
        os             varchar(40),
        device         varchar(10)  NOT NULL`;

// analytics_events' columns after app_id: 1764020000000-analytics-inbox.ts gives analytics_inbox the same (frozen, shared).
export const ANALYTICS_EVENT_COLUMNS = `deployment_id  varchar(40),
        occurred_at    timestamptz(3) NOT NULL,
        visitor_id     bigint       NOT NULL,
        name           varchar(40)  NOT NULL,
        pathname       varchar(300) NOT NULL,
        ${SOURCE_COLUMNS}`;

// analytics_daily_visitors as made here: 1764030000000-analytics-visitor-days.ts drops it, and its down re-creates it with these (frozen, shared).
export const CREATE_ANALYTICS_DAILY_VISITORS = [
  `
      CREATE TABLE analytics_daily_visitors (
        app_id         varchar(40)  NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
        day            date         NOT NULL,
        dimension      varchar(20)  NOT NULL,
        value          varchar(300) NOT NULL,
        visitor_id     bigint       NOT NULL,
        PRIMARY KEY (app_id, day, dimension, value, visitor_id)
      )`,
  `CREATE INDEX analytics_daily_visitors_day_idx ON analytics_daily_visitors (day)`,
];

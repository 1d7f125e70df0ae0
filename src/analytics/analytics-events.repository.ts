import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';
import type { AnalyticsEvent, Visit } from './analytics-event.js';
import { eventColumns, insertEventsSql } from './event-columns.js';
import type { RollupDelta } from './rollup-deltas.js';

/** One value of one breakdown property on one app's day: a row of the rollups, or a candidate for one. */
export interface RollupValue {
  appId: string;
  day: string;
  dimension: string;
  value: string;
}

/** A visitor's day on an app, with the breakdown values (as `dimension:value`) the batch counts them under. */
export interface VisitorDay {
  appId: string;
  day: string;
  visitorId: string;
  seen: string[];
}

interface VisitRow {
  app_id: string;
  visitor_id: string;
  started_at: Date;
  last_seen_at: Date;
  pageviews: number;
  entry_page: string;
  deployment_id: string | null;
  referrer_host: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  browser: string | null;
  os: string | null;
  device: Visit['device'];
}

/** The write side of analytics: raw events, visits, visitor days and rollups, each written set-wise, once per batch. */
@Injectable()
export class AnalyticsEventsRepository {
  constructor(private readonly db: Transactions) {}

  /**
   * Takes each app's analytics lock for this transaction (in id order: no deadlock between
   * writers), which serialises the writers of one app so visits are stitched exactly; answers
   * each app that still exists with its account (a deleted app's buffered events are dropped).
   */
  async lockApps(appIds: string[]): Promise<Map<string, string>> {
    const live = new Map<string, string>();
    for (const appId of [...appIds].sort()) {
      const rows = await this.db.query<{ account_id: string | null }>(
        `SELECT (SELECT account_id FROM apps WHERE id = $1) AS account_id FROM (SELECT pg_advisory_xact_lock(hashtextextended('analytics:' || $1, 0))) AS locked`,
        [appId],
      );
      if (rows[0].account_id) live.set(appId, rows[0].account_id);
    }
    return live;
  }

  /** The latest visit of each (app, visitor) that began since `since`. */
  async latestVisits(pairs: Array<{ appId: string; visitorId: string }>, since: Date): Promise<Visit[]> {
    if (pairs.length === 0) return [];
    const rows = await this.db.query<VisitRow>(
      `SELECT DISTINCT ON (v.app_id, v.visitor_id) v.*
         FROM analytics_visits v
         JOIN json_to_recordset($1::json) AS p("appId" varchar, "visitorId" bigint) ON p."appId" = v.app_id AND p."visitorId" = v.visitor_id
        WHERE v.started_at >= $2
        ORDER BY v.app_id, v.visitor_id, v.started_at DESC`,
      [rowsAsJson(pairs), since],
    );
    return rows.map(toVisit);
  }

  /** Column arrays through unnest, as the inbox is written (bench load 4, the same table: 7.6 µs of PostgreSQL a row, json_to_recordset 11.3). */
  async insertEvents(events: AnalyticsEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.query(insertEventsSql('analytics_events'), eventColumns(events));
  }

  /** New visits are inserted; continued ones get their new last-seen time and pageview count. */
  async saveVisits(visits: Visit[]): Promise<void> {
    if (visits.length === 0) return;
    await this.db.query(
      `INSERT INTO analytics_visits (app_id, visitor_id, started_at, last_seen_at, pageviews, entry_page, deployment_id, referrer_host,
                                     utm_source, utm_medium, utm_campaign, browser, os, device)
       SELECT "appId", "visitorId", "startedAt", "lastSeenAt", pageviews, "entryPage", "deploymentId", "referrerHost", "utmSource", "utmMedium", "utmCampaign", browser, os, device
         FROM json_to_recordset($1::json) AS v("appId" varchar, "visitorId" bigint, "startedAt" timestamptz, "lastSeenAt" timestamptz, pageviews int,
              "entryPage" varchar, "deploymentId" varchar, "referrerHost" varchar, "utmSource" varchar, "utmMedium" varchar, "utmCampaign" varchar,
              browser varchar, os varchar, device varchar)
       ON CONFLICT (app_id, visitor_id, started_at) DO UPDATE SET last_seen_at = EXCLUDED.last_seen_at, pageviews = EXCLUDED.pageviews`,
      [rowsAsJson(visits)],
    );
  }

  /** The rows these visitors' days already have: the values each was counted under. */
  async visitorDaysOf(days: Array<Omit<VisitorDay, 'seen'>>): Promise<VisitorDay[]> {
    if (days.length === 0) return [];
    // Named as VisitorDay's fields: the driver's rows are the answer (bigint comes back as text).
    return this.db.query<VisitorDay>(
      `SELECT d.app_id AS "appId", to_char(d.day, 'YYYY-MM-DD') AS day, d.visitor_id::text AS "visitorId", d.seen
         FROM analytics_visitor_days d
         JOIN json_to_recordset($1::json) AS k("appId" varchar, day date, "visitorId" bigint)
           ON d.app_id = k."appId" AND d.day = k.day AND d.visitor_id = k."visitorId"`,
      [rowsAsJson(days)],
    );
  }

  /**
   * Writes visitor days whole (one row per app, day and visitor, holding every value it was counted under). The
   * caller read them first (`visitorDaysOf`) under the app's lock: one writer at a time writes an app's rows.
   */
  async saveVisitorDays(days: VisitorDay[]): Promise<void> {
    if (days.length === 0) return;
    await this.db.query(
      `INSERT INTO analytics_visitor_days AS d (app_id, day, visitor_id, seen)
       SELECT "appId", day, "visitorId", seen FROM json_to_recordset($1::json) AS v("appId" varchar, day date, "visitorId" bigint, seen text[])
       ON CONFLICT (app_id, day, visitor_id) DO UPDATE SET seen = EXCLUDED.seen`,
      [rowsAsJson(days)],
    );
  }

  /** Which of these values already have their own rollup row (answered as indexes into `values`). */
  async existingRollupValues(values: RollupValue[]): Promise<Set<number>> {
    if (values.length === 0) return new Set();
    const rows = await this.db.query<{ i: number }>(
      `SELECT c.i::int AS i FROM unnest($1::varchar[], $2::date[], $3::varchar[], $4::varchar[]) WITH ORDINALITY AS c(app_id, day, dimension, value, i)
        WHERE EXISTS (SELECT 1 FROM analytics_daily d WHERE d.app_id = c.app_id AND d.dimension = c.dimension AND d.day = c.day AND d.value = c.value)`,
      [values.map((v) => v.appId), values.map((v) => v.day), values.map((v) => v.dimension), values.map((v) => v.value)],
    );
    return new Set(rows.map((r) => r.i - 1));
  }

  /**
   * How many values of each (app, day, dimension) have their own rollup row, not counting `other`
   * (the row the rest fold into) — counted up to `upTo` (that many is as good as more). In the same
   * order as `groups`.
   */
  async rollupValueCounts(groups: Array<Omit<RollupValue, 'value'>>, other: string, upTo: number): Promise<number[]> {
    if (groups.length === 0) return [];
    const rows = await this.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM (SELECT 1 FROM analytics_daily d
                 WHERE d.app_id = g.app_id AND d.dimension = g.dimension AND d.day = g.day AND d.value <> $4 LIMIT $5) AS capped)::int AS n
         FROM unnest($1::varchar[], $2::date[], $3::varchar[]) WITH ORDINALITY AS g(app_id, day, dimension, i)
        ORDER BY g.i`,
      [groups.map((g) => g.appId), groups.map((g) => g.day), groups.map((g) => g.dimension), other, upTo],
    );
    return rows.map((r) => r.n);
  }

  async addToRollups(deltas: RollupDelta[]): Promise<void> {
    if (deltas.length === 0) return;
    await this.db.query(
      `INSERT INTO analytics_daily AS d (app_id, day, dimension, value, visitors, pageviews, visits, bounces, visit_ms, signups)
       SELECT "appId", day, dimension, value, visitors, pageviews, visits, bounces, "visitMs", signups
         FROM json_to_recordset($1::json) AS r("appId" varchar, day date, dimension varchar, value varchar, visitors int, pageviews int, visits int,
              bounces int, "visitMs" bigint, signups int)
       ON CONFLICT (app_id, dimension, day, value) DO UPDATE SET
         visitors = d.visitors + EXCLUDED.visitors, pageviews = d.pageviews + EXCLUDED.pageviews, visits = d.visits + EXCLUDED.visits,
         bounces = d.bounces + EXCLUDED.bounces, visit_ms = d.visit_ms + EXCLUDED.visit_ms, signups = d.signups + EXCLUDED.signups`,
      [rowsAsJson(deltas)],
    );
  }
}

/**
 * Rows of a set-wise write as one JSON array (read by `json_to_recordset`, columns named as the objects'
 * fields): one native JSON.stringify instead of the driver's array literals, a column at a time, which made
 * a third of what a beacon allocated. A NUL or a lone surrogate still fails the statement (SQLSTATE class 22),
 * so the batch writer sets the row aside as before.
 */
function rowsAsJson(rows: readonly object[]): string {
  return JSON.stringify(rows);
}

function toVisit(row: VisitRow): Visit {
  return {
    appId: row.app_id,
    visitorId: String(row.visitor_id),
    startedAt: new Date(row.started_at),
    lastSeenAt: new Date(row.last_seen_at),
    pageviews: row.pageviews,
    entryPage: row.entry_page,
    deploymentId: row.deployment_id,
    referrerHost: row.referrer_host,
    utmSource: row.utm_source,
    utmMedium: row.utm_medium,
    utmCampaign: row.utm_campaign,
    browser: row.browser,
    os: row.os,
    device: row.device,
  };
}

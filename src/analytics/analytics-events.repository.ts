import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';
import type { AnalyticsEvent, Visit } from './analytics-event.js';
import { unnestColumns } from '../database/unnest-columns.js';
import { eventColumns, insertEventsSql, SOURCE_FIELDS } from './event-columns.js';
import type { RollupDelta } from './rollup-deltas.js';

/** The key of an app's analytics lock (a transaction-scoped advisory lock), for the SQL expression of its id. */
const appLock = (id: string) => `hashtextextended('analytics:' || ${id}, 0)`;

/** A visit's fields in analytics_visits' column order. */
const VISIT_FIELDS = [
  'appId',
  'visitorId',
  'startedAt',
  'lastSeenAt',
  'pageviews',
  'entryPage',
  'deploymentId',
  ...SOURCE_FIELDS,
] as const satisfies ReadonlyArray<keyof Visit>;
const SEEN_SEPARATOR = '\u001f';

/** Visitor days as unnest's parameters, `seen` as one text per row, its values joined by U+001F: a control character, which no stored value holds (storableText). */
function visitorDayColumns(days: VisitorDay[]): string[] {
  return unnestColumns(
    days.map((day) => ({ ...day, seen: day.seen.join(SEEN_SEPARATOR) })),
    ['appId', 'day', 'visitorId', 'seen'],
  );
}

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
  country: string | null;
}

/** The write side of analytics: raw events, visits, visitor days and rollups, each written set-wise, once per batch. */
@Injectable()
export class AnalyticsEventsRepository {
  constructor(private readonly db: Transactions) {}

  /**
   * Takes each app's analytics lock for this transaction (in id order: no deadlock between
   * writers), which serialises the writers of one app so visits are stitched exactly, and an app's
   * writers with its erasure (`eraseApp`); answers each app that still exists with its account (a
   * deleted app's events are dropped). The apps are read in a statement of their own, after the
   * locks: its snapshot sees an erasure that committed while this one waited.
   */
  async lockApps(appIds: string[]): Promise<Map<string, string>> {
    const ids = [...appIds].sort();
    await this.db.query(`SELECT pg_advisory_xact_lock(${appLock('l.id')}) FROM unnest($1::varchar[]) WITH ORDINALITY AS l(id, n) ORDER BY n`, [ids]);
    const rows = await this.db.query<{ id: string; account_id: string }>(`SELECT id, account_id FROM apps WHERE id = ANY($1::varchar[])`, [ids]);
    return new Map(rows.map((row) => [row.id, row.account_id]));
  }

  /**
   * Deletes the app's analytics rows (events, visits, visitor days, rollups), in the caller's
   * transaction, under the app's analytics lock: a stitcher writing the app commits first and its
   * rows go too, a later one finds the app gone. (The tables hold no foreign key to apps: its check
   * cost every row written.)
   */
  async eraseApp(appId: string): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(${appLock('$1::varchar')})`, [appId]);
    for (const table of ['analytics_events', 'analytics_visits', 'analytics_visitor_days', 'analytics_daily'])
      await this.db.query(`DELETE FROM ${table} WHERE app_id = $1`, [appId]);
  }

  /** The latest visit of each (app, visitor) that began since `since`. */
  async latestVisits(pairs: Array<{ appId: string; visitorId: string }>, since: Date): Promise<Visit[]> {
    if (pairs.length === 0) return [];
    const rows = await this.db.query<VisitRow>(
      `SELECT DISTINCT ON (v.app_id, v.visitor_id) v.*
         FROM analytics_visits v
         JOIN unnest($1::varchar[], $2::bigint[]) AS p(app_id, visitor_id) ON p.app_id = v.app_id AND p.visitor_id = v.visitor_id
        WHERE v.started_at >= $3
        ORDER BY v.app_id, v.visitor_id, v.started_at DESC`,
      [...unnestColumns(pairs, ['appId', 'visitorId']), since.toISOString()],
    );
    return rows.map(toVisit);
  }

  /** Column arrays through unnest, as the inbox is written. */
  async insertEvents(events: AnalyticsEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.query(insertEventsSql('analytics_events'), eventColumns(events));
  }

  /**
   * Visits begun in the batch. A plain INSERT, not an upsert: the writer knows a new visit from a
   * continued one (it read the app's visits under the app's lock), and an upsert's speculative
   * insertion cost a row about half again.
   */
  async insertVisits(visits: Visit[]): Promise<void> {
    if (visits.length === 0) return;
    await this.db.query(
      `INSERT INTO analytics_visits (app_id, visitor_id, started_at, last_seen_at, pageviews, entry_page, deployment_id, referrer_host,
                                     utm_source, utm_medium, utm_campaign, browser, os, device, country)
       SELECT * FROM unnest($1::varchar[], $2::bigint[], $3::timestamptz[], $4::timestamptz[], $5::int[], $6::varchar[], $7::varchar[], $8::varchar[],
                            $9::varchar[], $10::varchar[], $11::varchar[], $12::varchar[], $13::varchar[], $14::varchar[], $15::varchar[])`,
      unnestColumns(visits, VISIT_FIELDS),
    );
  }

  /** Visits the batch continued: their new last-seen time and pageview count. */
  async updateVisits(visits: Visit[]): Promise<void> {
    if (visits.length === 0) return;
    await this.db.query(
      `UPDATE analytics_visits v SET last_seen_at = u.last_seen_at, pageviews = u.pageviews
         FROM unnest($1::varchar[], $2::bigint[], $3::timestamptz[], $4::timestamptz[], $5::int[]) AS u(app_id, visitor_id, started_at, last_seen_at, pageviews)
        WHERE v.app_id = u.app_id AND v.visitor_id = u.visitor_id AND v.started_at = u.started_at`,
      unnestColumns(visits, ['appId', 'visitorId', 'startedAt', 'lastSeenAt', 'pageviews']),
    );
  }

  /** The rows these visitors' days already have: the values each was counted under. */
  async visitorDaysOf(days: Array<Omit<VisitorDay, 'seen'>>): Promise<VisitorDay[]> {
    if (days.length === 0) return [];
    // Named as VisitorDay's fields: the driver's rows are the answer (bigint comes back as text).
    return this.db.query<VisitorDay>(
      `SELECT d.app_id AS "appId", to_char(d.day, 'YYYY-MM-DD') AS day, d.visitor_id::text AS "visitorId", d.seen
         FROM analytics_visitor_days d
         JOIN unnest($1::varchar[], $2::date[], $3::bigint[]) AS k(app_id, day, visitor_id)
           ON d.app_id = k.app_id AND d.day = k.day AND d.visitor_id = k.visitor_id`,
      unnestColumns(days, ['appId', 'day', 'visitorId']),
    );
  }

  /**
   * Visitor days new today: one row per app, day and visitor, holding every value it was counted
   * under. The caller read the app's days first (`visitorDaysOf`) under the app's lock: one writer at a
   * time writes an app's rows, so a plain INSERT (an upsert's speculative insertion cost more).
   */
  async insertVisitorDays(days: VisitorDay[]): Promise<void> {
    if (days.length === 0) return;
    await this.db.query(
      `INSERT INTO analytics_visitor_days (app_id, day, visitor_id, seen)
       SELECT app_id, day, visitor_id, string_to_array(seen, E'\\x1f') FROM unnest($1::varchar[], $2::date[], $3::bigint[], $4::text[]) AS v(app_id, day, visitor_id, seen)`,
      visitorDayColumns(days),
    );
  }

  /** Visitor days already written, counted under more values now: their whole `seen`. */
  async updateVisitorDays(days: VisitorDay[]): Promise<void> {
    if (days.length === 0) return;
    await this.db.query(
      `UPDATE analytics_visitor_days d SET seen = string_to_array(u.seen, E'\\x1f')
         FROM unnest($1::varchar[], $2::date[], $3::bigint[], $4::text[]) AS u(app_id, day, visitor_id, seen)
        WHERE d.app_id = u.app_id AND d.day = u.day AND d.visitor_id = u.visitor_id`,
      visitorDayColumns(days),
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

  /** How many distinct dimensions starting with `prefix` (the props keys) each (app, day) has rollup rows of, counted up to `upTo`; in the order of `groups`. */
  async rollupDimensionCounts(groups: Array<{ appId: string; day: string }>, prefix: string, upTo: number): Promise<number[]> {
    if (groups.length === 0) return [];
    const rows = await this.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM (SELECT DISTINCT d.dimension FROM analytics_daily d
                 WHERE d.app_id = g.app_id AND d.day = g.day AND left(d.dimension, length($3)) = $3 LIMIT $4) AS capped)::int AS n
         FROM unnest($1::varchar[], $2::date[]) WITH ORDINALITY AS g(app_id, day, i)
        ORDER BY g.i`,
      [groups.map((g) => g.appId), groups.map((g) => g.day), prefix, upTo],
    );
    return rows.map((r) => r.n);
  }

  async addToRollups(deltas: RollupDelta[]): Promise<void> {
    if (deltas.length === 0) return;
    await this.db.query(
      `INSERT INTO analytics_daily AS d (app_id, day, dimension, value, visitors, pageviews, visits, bounces, visit_ms, signups, events)
       SELECT "appId", day, dimension, value, visitors, pageviews, visits, bounces, "visitMs", signups, events
         FROM json_to_recordset($1::json) AS r("appId" varchar, day date, dimension varchar, value varchar, visitors int, pageviews int, visits int,
              bounces int, "visitMs" bigint, signups int, events int)
       ON CONFLICT (app_id, dimension, day, value) DO UPDATE SET
         visitors = d.visitors + EXCLUDED.visitors, pageviews = d.pageviews + EXCLUDED.pageviews, visits = d.visits + EXCLUDED.visits,
         bounces = d.bounces + EXCLUDED.bounces, visit_ms = d.visit_ms + EXCLUDED.visit_ms, signups = d.signups + EXCLUDED.signups,
         events = d.events + EXCLUDED.events`,
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
    country: row.country,
  };
}

import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';
import { Property, propertySql, PROPS_PREFIX } from './dimensions.js';
import type { DateRange, Filter, Interval } from './stats-query.js';
import { SIGNUP_GOAL, type GoalMatcher } from './goals.service.js';
import { unnestColumns } from '../database/unnest-columns.js';
import { goalSource, type RollupRead } from './goal-sources.js';
import { MAX_PROPS_KEYS_PER_DAY, OTHER } from './rollup-cardinality.js';

/** The sums every metric is computed from. */
export interface Totals {
  visitors: number;
  pageviews: number;
  visits: number;
  bounces: number;
  visitMs: number;
  signups: number;
  /** Custom events: neither pageviews nor sign-ups. */
  events: number;
}

export const NO_TOTALS: Totals = { visitors: 0, pageviews: 0, visits: 0, bounces: 0, visitMs: 0, signups: 0, events: 0 };

/** Totals per bucket (a day, month or hour of a series; a property value of a breakdown). */
export type Grouped = Map<string, Totals>;

/** One rollup row set: the app's totals (`dimension` ''), or one dimension, optionally one value of it. */
export interface RollupSlice {
  dimension: Property | '';
  value?: string;
}

const ROLLUP_SUMS = `coalesce(sum(visitors), 0)::int AS visitors, coalesce(sum(pageviews), 0)::int AS pageviews, coalesce(sum(visits), 0)::int AS visits,
  coalesce(sum(bounces), 0)::int AS bounces, coalesce(sum(visit_ms), 0)::float8 AS visit_ms, coalesce(sum(signups), 0)::int AS signups,
  coalesce(sum(events), 0)::int AS events`;

const BUCKET_SQL: Record<Interval, (column: string) => string> = {
  hour: (c) => `to_char(date_trunc('hour', ${c} AT TIME ZONE 'UTC'), 'YYYY-MM-DD"T"HH24":00:00Z"')`,
  day: (c) => `to_char(${c} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
  month: (c) => `to_char(${c} AT TIME ZONE 'UTC', 'YYYY-MM-01')`,
};

interface SumsRow {
  bucket?: string;
  visitors: number;
  pageviews: number;
  visits: number;
  bounces: number;
  visit_ms: number;
  signups: number;
  events: number;
}

/**
 * The read side of analytics. Unfiltered questions (and those with one filter) read the daily
 * rollups — a few rows per day, however many events there were; other filters and hourly series
 * read the raw rows of the range (one month partition or a few).
 */
@Injectable()
export class AnalyticsStatsRepository {
  constructor(private readonly db: Transactions) {}

  async rollupTotals(appId: string, slice: RollupSlice, range: DateRange): Promise<Totals> {
    const [row] = await this.rollupQuery(appId, slice, range, null);
    return row ? toTotals(row) : { ...NO_TOTALS };
  }

  async rollupSeries(appId: string, slice: RollupSlice, range: DateRange, interval: 'day' | 'month'): Promise<Grouped> {
    const bucket = interval === 'day' ? `to_char(day, 'YYYY-MM-DD')` : `to_char(day, 'YYYY-MM-01')`;
    return grouped(await this.rollupQuery(appId, slice, range, bucket));
  }

  /** A page of one dimension's values, most visitors first. */
  async rollupBreakdown(appId: string, dimension: Property, range: DateRange, limit: number, offset: number, value?: string): Promise<Array<[string, Totals]>> {
    const rows = await this.db.query<SumsRow>(
      `SELECT value AS bucket, ${ROLLUP_SUMS} FROM analytics_daily
        WHERE app_id = $1 AND dimension = $2 AND day BETWEEN $3 AND $4 ${value === undefined ? '' : 'AND value = $7'}
        GROUP BY value ORDER BY visitors DESC, pageviews DESC, events DESC, signups DESC, value LIMIT $5 OFFSET $6`,
      [appId, dimension, range.from, range.to, limit, offset, ...(value === undefined ? [] : [value])],
    );
    return rows.map((r) => [r.bucket!, toTotals(r)]);
  }

  /**
   * Totals from raw rows, grouped by an interval or a property (or not at all); `since`, a moment of the range's first
   * day, starts it there rather than at midnight (a split test's first day).
   */
  async rawGrouped(
    appId: string,
    filters: Filter[],
    range: DateRange,
    by: { interval: Interval } | { property: Property } | null,
    since?: Date,
  ): Promise<Grouped> {
    const bounds = [appId, since?.toISOString() ?? `${range.from}T00:00:00Z`, `${nextDay(range.to)}T00:00:00Z`];
    /** Each statement's parameters: the bounds, then what its grouping and filters add (a props key, a value). */
    const statement = (table: 'events' | 'visits', timeColumn: string) => {
      const params: unknown[] = [...bounds];
      const param = (value: string) => `$${params.push(value)}`;
      const bucket = by === null ? `''` : 'interval' in by ? BUCKET_SQL[by.interval](timeColumn) : propertySql(by.property, table, param);
      const where = filters.map((f) => `AND ${propertySql(f.property, table, param)} = ${param(f.value)}::text`).join(' ');
      return { bucket, where, params };
    };
    // Over an hour the visitor ids are those of one day; over longer buckets a visitor counts once per day (ids are daily).
    const visitorKey = by !== null && 'interval' in by && by.interval === 'hour' ? 'visitor_id' : `(visitor_id, (occurred_at AT TIME ZONE 'UTC')::date)`;
    const onEvents = statement('events', 'occurred_at');
    // A visitor is anyone with a pageview or a custom event (as in the rollups); sign-ups come from visitors already counted.
    const events = await this.db.query<SumsRow>(
      `SELECT ${onEvents.bucket} AS bucket,
              count(DISTINCT ${visitorKey}) FILTER (WHERE name <> 'signup')::int AS visitors,
              count(*) FILTER (WHERE name = 'pageview')::int AS pageviews,
              count(*) FILTER (WHERE name = 'signup')::int AS signups,
              count(*) FILTER (WHERE name NOT IN ('pageview', 'signup'))::int AS events
         FROM analytics_events
        WHERE app_id = $1 AND occurred_at >= $2 AND occurred_at < $3 ${onEvents.where}
        GROUP BY 1`,
      onEvents.params,
      { prepare: false }, // built from the question's grouping and filters: too many texts to keep prepared
    );
    const onVisits = statement('visits', 'started_at');
    const visits = await this.db.query<SumsRow>(
      `SELECT ${onVisits.bucket} AS bucket, count(*)::int AS visits, count(*) FILTER (WHERE pageviews = 1)::int AS bounces,
              coalesce(sum(extract(epoch FROM last_seen_at - started_at) * 1000), 0)::float8 AS visit_ms
         FROM analytics_visits
        WHERE app_id = $1 AND started_at >= $2 AND started_at < $3 ${onVisits.where}
        GROUP BY 1`,
      onVisits.params,
      { prepare: false },
    );
    const result: Grouped = new Map();
    const at = (bucket: string | null | undefined) => {
      const key = bucket ?? '';
      let totals = result.get(key);
      if (!totals) result.set(key, (totals = { ...NO_TOTALS }));
      return totals;
    };
    for (const row of events) Object.assign(at(row.bucket), { visitors: row.visitors, pageviews: row.pageviews, signups: row.signups, events: row.events });
    for (const row of visits) Object.assign(at(row.bucket), { visits: row.visits, bounces: row.bounces, visitMs: Number(row.visit_ms) });
    if (by !== null && 'property' in by) result.delete(''); // rows without the property (no campaign, no deployment)
    return result;
  }

  /**
   * Each goal's unique converting visitors (once a day: ids are daily) and completions, with the filters; goals nobody
   * completed are absent. Each goal is read where goal-sources.ts says: the daily rollups when they answer it exactly
   * (an event goal, with or without one `props.<key>` filter; an exact page goal), the raw sign-ups through their
   * partial index (Sign-up), nothing at all when nothing can match (a page goal or Sign-up under a props filter), the raw
   * rows of the range otherwise (a wildcard page goal, other filters, and a rollup read whose conditions fail).
   * Rollups and raw rows count every event whatever the goals, so a goal counts events from before it was made.
   */
  async goalConversions(appId: string, goals: GoalMatcher[], filters: Filter[], range: DateRange): Promise<Map<string, { visitors: number; events: number }>> {
    const result = new Map<string, { visitors: number; events: number }>();
    const raw: GoalMatcher[] = [];
    const rollup: Array<{ goal: GoalMatcher; read: RollupRead }> = [];
    let signups = false;
    for (const goal of goals) {
      const source = goalSource(goal, filters);
      if (source.kind === 'rollup') rollup.push({ goal, read: source.read });
      else if (source.kind === 'signups') signups = true;
      else if (source.kind === 'raw') raw.push(goal);
    }
    for (const { goal, answer } of await this.rollupGoals(appId, rollup, range)) {
      if (answer === null) raw.push(goal);
      else if (answer.visitors > 0 || answer.events > 0) result.set(goal.name, answer);
    }
    if (signups) {
      const [row] = await this.db.query<{ visitors: number; events: number }>(
        // `name = 'signup'` as a literal: the partial index analytics_events_signups_idx answers it.
        `SELECT count(DISTINCT (visitor_id, (occurred_at AT TIME ZONE 'UTC')::date))::int AS visitors, count(*)::int AS events
           FROM analytics_events WHERE app_id = $1 AND name = 'signup' AND occurred_at >= $2 AND occurred_at < $3`,
        [appId, `${range.from}T00:00:00Z`, `${nextDay(range.to)}T00:00:00Z`],
      );
      if (row.events > 0) result.set(SIGNUP_GOAL, { visitors: row.visitors, events: row.events });
    }
    if (raw.length > 0) for (const [goal, answer] of await this.rawGoalConversions(appId, raw, filters, range)) result.set(goal, answer);
    return result;
  }

  /**
   * Rollup reads of goals (RollupRead), in one statement: each goal's sums over the range, or null where a condition
   * fails (a value possibly folded into `(other)`, a props key possibly refused its rows, custom events on a page).
   */
  private async rollupGoals(
    appId: string,
    reads: Array<{ goal: GoalMatcher; read: RollupRead }>,
    range: DateRange,
  ): Promise<Array<{ goal: GoalMatcher; answer: { visitors: number; events: number } | null }>> {
    if (reads.length === 0) return [];
    const columns = reads.map(({ read }) => ({
      dimension: read.dimension,
      value: read.value,
      pageviews: read.completions === 'pageviews',
      dim1: read.unfolded[0]?.[0] ?? null,
      value1: read.unfolded[0]?.[1] ?? null,
      dim2: read.unfolded[1]?.[0] ?? null,
      value2: read.unfolded[1]?.[1] ?? null,
      propsKey: read.propsKey,
      onlyPageviews: read.onlyPageviews,
    }));
    /** Whether (dim, value) may be inside `(other)` on a day of the range: an `(other)` row of the dimension that day and none of the value. */
    const folded = (dim: string, value: string) => `EXISTS (
      SELECT 1 FROM analytics_daily o WHERE o.app_id = $1 AND o.dimension = ${dim} AND o.day BETWEEN $2 AND $3 AND o.value = '${OTHER}'
         AND NOT EXISTS (SELECT 1 FROM analytics_daily x WHERE x.app_id = $1 AND x.dimension = o.dimension AND x.day = o.day AND x.value = ${value}))`;
    const rows = await this.db.query<{ i: number; visitors: number; completions: number; custom: number; inexact: boolean }>(
      `SELECT g.i::int AS i, s.visitors, s.completions, s.custom,
              (${folded('g.dim1', 'g.value1')} OR (g.dim2 IS NOT NULL AND ${folded('g.dim2', 'g.value2')})
               -- A day the event had rows (or may be in (other)) but the props key none, with the day's props-key places all taken.
               OR (g.props_key IS NOT NULL AND EXISTS (
                 SELECT 1 FROM analytics_daily e
                  WHERE e.app_id = $1 AND e.dimension = 'event' AND e.day BETWEEN $2 AND $3 AND e.value IN (g.value1, '${OTHER}')
                    -- CASE: the places are counted (a scan of the day's rows) only on a day the key has no row.
                    AND CASE WHEN EXISTS (SELECT 1 FROM analytics_daily k WHERE k.app_id = $1 AND k.dimension = g.props_key AND k.day = e.day) THEN false
                             ELSE (SELECT count(*) FROM (SELECT DISTINCT p.dimension FROM analytics_daily p
                                    WHERE p.app_id = $1 AND p.day = e.day AND left(p.dimension, ${PROPS_PREFIX.length}) = '${PROPS_PREFIX}' LIMIT ${MAX_PROPS_KEYS_PER_DAY}) AS c) >= ${MAX_PROPS_KEYS_PER_DAY} END)))
              AS inexact
         FROM unnest($4::varchar[], $5::varchar[], $6::boolean[], $7::varchar[], $8::varchar[], $9::varchar[], $10::varchar[], $11::varchar[], $12::boolean[])
              WITH ORDINALITY AS g(dimension, value, pageviews, dim1, value1, dim2, value2, props_key, only_pageviews, i)
         CROSS JOIN LATERAL (
           SELECT coalesce(sum(d.visitors), 0)::int AS visitors,
                  coalesce(sum(CASE WHEN g.pageviews THEN d.pageviews ELSE d.events END), 0)::int AS completions,
                  coalesce(sum(CASE WHEN g.only_pageviews THEN d.events ELSE 0 END), 0)::int AS custom
             FROM analytics_daily d WHERE d.app_id = $1 AND d.dimension = g.dimension AND d.value = g.value AND d.day BETWEEN $2 AND $3) AS s
        ORDER BY g.i`,
      [
        appId,
        range.from,
        range.to,
        ...unnestColumns(columns, ['dimension', 'value', 'pageviews', 'dim1', 'value1', 'dim2', 'value2', 'propsKey', 'onlyPageviews']),
      ],
    );
    return rows.map((r) => ({
      goal: reads[r.i - 1].goal,
      answer: r.inexact || r.custom > 0 ? null : { visitors: r.visitors, events: r.completions },
    }));
  }

  /** Goals counted over the raw rows of the range, with the filters (one statement for them all). */
  private async rawGoalConversions(
    appId: string,
    goals: GoalMatcher[],
    filters: Filter[],
    range: DateRange,
  ): Promise<Map<string, { visitors: number; events: number }>> {
    const params: unknown[] = [appId, `${range.from}T00:00:00Z`, `${nextDay(range.to)}T00:00:00Z`, ...unnestColumns(goals, ['name', 'event', 'pageLike'])];
    const param = (value: string) => `$${params.push(value)}`;
    const where = filters.map((f) => `AND ${propertySql(f.property, 'events', param)} = ${param(f.value)}::text`).join(' ');
    const rows = await this.db.query<{ goal: string; visitors: number; events: number }>(
      `SELECT g.goal_name AS goal, count(DISTINCT (e.visitor_id, (e.occurred_at AT TIME ZONE 'UTC')::date))::int AS visitors, count(*)::int AS events
         FROM analytics_events e
         JOIN unnest($4::varchar[], $5::varchar[], $6::varchar[]) AS g(goal_name, goal_event, page_like)
           ON e.name = g.goal_event OR (e.name = 'pageview' AND e.pathname LIKE g.page_like)
        WHERE e.app_id = $1 AND e.occurred_at >= $2 AND e.occurred_at < $3 ${where}
        GROUP BY g.goal_name`,
      params,
      { prepare: false },
    );
    return new Map(rows.map((r) => [r.goal, { visitors: r.visitors, events: r.events }]));
  }

  /** The props keys (`props.<key>`) the app's custom events had in the range, by name. */
  async propsDimensions(appId: string, range: DateRange): Promise<string[]> {
    const rows = await this.db.query<{ dimension: string }>(
      `SELECT DISTINCT dimension FROM analytics_daily WHERE app_id = $1 AND dimension LIKE 'props.%' AND day BETWEEN $2 AND $3 ORDER BY dimension`,
      [appId, range.from, range.to],
    );
    return rows.map((r) => r.dimension);
  }

  /**
   * One goal's unique converting visitors (once a day) per value of `property` over raw rows, with the filters
   * (the funnel with a goal as its step, `breakdown?…&goal=`); values nobody converted with are absent.
   */
  async goalVisitorsBy(appId: string, goal: GoalMatcher, property: Property, filters: Filter[], range: DateRange): Promise<Map<string, number>> {
    const params: unknown[] = [appId, `${range.from}T00:00:00Z`, `${nextDay(range.to)}T00:00:00Z`, goal.event, goal.pageLike];
    const param = (value: string) => `$${params.push(value)}`;
    const value = propertySql(property, 'events', param);
    const where = filters.map((f) => `AND ${propertySql(f.property, 'events', param)} = ${param(f.value)}::text`).join(' ');
    const rows = await this.db.query<{ value: string; visitors: number }>(
      `SELECT ${value} AS value, count(DISTINCT (visitor_id, (occurred_at AT TIME ZONE 'UTC')::date))::int AS visitors
         FROM analytics_events
        WHERE app_id = $1 AND occurred_at >= $2 AND occurred_at < $3
          AND (name = $4::varchar OR (name = 'pageview' AND pathname LIKE $5::varchar)) ${where}
        GROUP BY 1`,
      params,
      { prepare: false },
    );
    return new Map(rows.filter((r) => r.value !== null).map((r) => [r.value, r.visitors]));
  }

  /** Visitors and sign-ups per day of all the account's apps (for the portal's overview). */
  async accountDaily(accountId: string, range: DateRange): Promise<Map<string, { visitors: number; signups: number }>> {
    const rows = await this.db.query<{ day: string; visitors: number; signups: number }>(
      `SELECT to_char(d.day, 'YYYY-MM-DD') AS day, sum(d.visitors)::int AS visitors, sum(d.signups)::int AS signups
         FROM analytics_daily d JOIN apps a ON a.id = d.app_id
        WHERE a.account_id = $1 AND d.dimension = '' AND d.day BETWEEN $2 AND $3 GROUP BY d.day`,
      [accountId, range.from, range.to],
    );
    return new Map(rows.map((r) => [r.day, { visitors: r.visitors, signups: r.signups }]));
  }

  /** Distinct visitors with a pageview in the last five minutes. */
  async realtimeVisitors(appId: string): Promise<number> {
    const [row] = await this.db.query<{ visitors: number }>(
      `SELECT count(DISTINCT visitor_id)::int AS visitors FROM analytics_events
        WHERE app_id = $1 AND name = 'pageview' AND occurred_at > now() - interval '5 minutes'`,
      [appId],
    );
    return row.visitors;
  }

  private rollupQuery(appId: string, slice: RollupSlice, range: DateRange, bucket: string | null): Promise<SumsRow[]> {
    const params: unknown[] = [appId, slice.dimension, range.from, range.to];
    if (slice.value !== undefined) params.push(slice.value);
    return this.db.query<SumsRow>(
      `SELECT ${bucket ?? `''`} AS bucket, ${ROLLUP_SUMS} FROM analytics_daily
        WHERE app_id = $1 AND dimension = $2 AND day BETWEEN $3 AND $4 ${slice.value === undefined ? '' : 'AND value = $5'}
        ${bucket ? 'GROUP BY 1' : ''}`,
      params,
    );
  }
}

function toTotals(row: SumsRow): Totals {
  return {
    visitors: row.visitors,
    pageviews: row.pageviews,
    visits: row.visits,
    bounces: row.bounces,
    visitMs: Number(row.visit_ms),
    signups: row.signups,
    events: row.events,
  };
}

function grouped(rows: SumsRow[]): Grouped {
  return new Map(rows.map((r) => [r.bucket ?? '', toTotals(r)]));
}

export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

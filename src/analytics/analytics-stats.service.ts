import { Injectable } from '@nestjs/common';
import { AppsService } from '../apps/apps.service.js';
import { DEFAULT_PAGE_LIMIT } from '../common/pagination/page.js';
import { RequestError } from '../common/errors/request-errors.js';
import { AnalyticsStatsRepository, nextDay, NO_TOTALS, RollupSlice, Totals } from './analytics-stats.repository.js';
import { DateRange, daysIn, Interval, Metric, parseInterval, parseProperty, parseStatsQuery, RawStatsParams, StatsQuery } from './stats-query.js';
import { utcDay } from './visitor-ids.service.js';
import { isEventProperty, type Property } from './dimensions.js';
import { GoalsService } from './goals.service.js';
import { AnalyticsError } from './analytics.errors.js';

export type MetricValues = Partial<Record<Metric, number>>;

const DAY_MS = 86_400_000;

/**
 * The stats API: aggregate, timeseries, breakdown and realtime for one app, in UTC. Reads the
 * rollups when it can (no filter, or one on the property asked about) and raw rows otherwise.
 * Metrics: visitors (distinct per day: ids are daily), visits, pageviews, bounceRate and
 * conversionRate (percents, one decimal), visitDuration (mean seconds per visit), signups, events
 * (custom events). A visitor is anyone with a pageview or a custom event that day.
 */
@Injectable()
export class AnalyticsStatsService {
  constructor(
    private readonly repository: AnalyticsStatsRepository,
    private readonly apps: AppsService,
    private readonly goals: GoalsService,
  ) {}

  async aggregate(accountId: string, appId: string, params: RawStatsParams): Promise<{ results: Record<string, { value: number }> }> {
    await this.apps.requireOwned(accountId, appId);
    const query = parseStatsQuery(params, ['visitors']);
    const values = metricValues(await this.totals(appId, query), query.metrics);
    return { results: Object.fromEntries(query.metrics.map((m) => [m, { value: values[m]! }])) };
  }

  async timeseries(
    accountId: string,
    appId: string,
    params: RawStatsParams & { interval?: string },
  ): Promise<{ results: Array<{ date: string } & MetricValues> }> {
    await this.apps.requireOwned(accountId, appId);
    const query = parseStatsQuery(params, ['visitors', 'pageviews']);
    const interval = parseInterval(params.interval, query.range);
    const slice = rollupSlice(query);
    const series =
      slice && interval !== 'hour'
        ? await this.repository.rollupSeries(appId, slice, query.range, interval)
        : await this.repository.rawGrouped(appId, query.filters, query.range, { interval });
    return { results: buckets(query.range, interval).map((date) => ({ date, ...metricValues(series.get(date) ?? NO_TOTALS, query.metrics) })) };
  }

  async breakdown(
    accountId: string,
    appId: string,
    params: RawStatsParams & { property?: string; limit?: number; cursor?: string; goal?: string },
  ): Promise<{ data: Array<Record<string, string | number>>; nextCursor: string | null }> {
    await this.apps.requireOwned(accountId, appId);
    if (params.property === 'goal') return this.goalBreakdown(appId, params);
    if (params.goal !== undefined) return this.goalFunnel(accountId, appId, params as typeof params & { goal: string });
    const property = parseProperty(params.property);
    // As Plausible: a custom event's name or props are broken down by its visitors and completions.
    const query = parseStatsQuery(params, isEventProperty(property) ? ['visitors', 'events'] : ['visitors']);
    const limit = params.limit ?? DEFAULT_PAGE_LIMIT;
    const offset = params.cursor ? decodeOffset(params.cursor) : 0;
    const sameProperty = query.filters.every((f) => f.property === property) && query.filters.length <= 1;
    let rows: Array<[string, Totals]>;
    if (sameProperty) {
      rows = await this.repository.rollupBreakdown(appId, property, query.range, limit + 1, offset, query.filters[0]?.value);
    } else {
      const all = [...(await this.repository.rawGrouped(appId, query.filters, query.range, { property })).entries()];
      all.sort(
        ([va, a], [vb, b]) =>
          b.visitors - a.visitors || b.pageviews - a.pageviews || b.events - a.events || b.signups - a.signups || (va < vb ? -1 : va > vb ? 1 : 0),
      );
      rows = all.slice(offset, offset + limit + 1);
    }
    const hasMore = rows.length > limit;
    return {
      data: rows.slice(0, limit).map(([value, totals]) => ({ [property]: value, ...metricValues(totals, query.metrics) })),
      nextCursor: hasMore ? encodeOffset(offset + limit) : null,
    };
  }

  /**
   * `breakdown?…&goal=<name>`: the breakdown with a goal as the funnel's step instead of sign-up — each row's
   * `signups` are the goal's unique converting visitors with that value (once a day: ids are daily), so its
   * `conversionRate` is the share of the row's visitors who completed the goal. The goal is read first, the
   * rows second (as in goalBreakdown: a batch landing between the reads never makes a rate above 100 %).
   */
  private async goalFunnel(
    accountId: string,
    appId: string,
    params: RawStatsParams & { property?: string; limit?: number; cursor?: string; goal: string },
  ): Promise<{ data: Array<Record<string, string | number>>; nextCursor: string | null }> {
    const goal = (await this.goals.matchers(appId)).find((g) => g.name === params.goal);
    if (!goal) throw AnalyticsError.goalNotFound(params.goal);
    const property = parseProperty(params.property);
    const query = parseStatsQuery(params, ['visitors', 'signups', 'conversionRate']);
    const converted = await this.repository.goalVisitorsBy(appId, goal, property, query.filters, query.range);
    const page = await this.breakdown(accountId, appId, { ...params, goal: undefined, metrics: 'visitors,pageviews,visits,bounceRate,visitDuration,events' });
    const rows = page.data.map((row) => {
      const visitors = Number(row.visitors);
      const signups = converted.get(String(row[property])) ?? 0;
      const all: Record<string, number> = { ...(row as Record<string, number>), signups, conversionRate: percent(signups, visitors) };
      return { [property]: row[property], ...Object.fromEntries(query.metrics.map((m) => [m, all[m]])) };
    });
    return { data: rows, nextCursor: page.nextCursor };
  }

  /**
   * `breakdown?property=goal`: per goal (Sign-up and the app's own), the unique converting visitors,
   * the completions (`events`) and the conversion rate (% of the period's visitors, with the same
   * filters); goals nobody completed in the period are not listed. The metrics are always these.
   */
  private async goalBreakdown(
    appId: string,
    params: RawStatsParams & { limit?: number; cursor?: string },
  ): Promise<{ data: Array<Record<string, string | number>>; nextCursor: string | null }> {
    const query = parseStatsQuery(params, ['visitors']);
    const limit = params.limit ?? DEFAULT_PAGE_LIMIT;
    const offset = params.cursor ? decodeOffset(params.cursor) : 0;
    // One after the other, not at once: the totals, read second, include every event the conversions saw (the writer
    // commits raw events and rollups together), so a batch landing between the two reads never makes a rate of 0 %.
    const conversions = await this.goals.matchers(appId).then((goals) => this.repository.goalConversions(appId, goals, query.filters, query.range));
    const totals = await this.totals(appId, query);
    const rows = [...conversions.entries()]
      .sort(([a, x], [b, y]) => y.visitors - x.visitors || y.events - x.events || (a < b ? -1 : a > b ? 1 : 0))
      .map(([goal, c]) => ({ goal, visitors: c.visitors, events: c.events, conversionRate: percent(c.visitors, totals.visitors) }));
    return { data: rows.slice(offset, offset + limit), nextCursor: rows.length > offset + limit ? encodeOffset(offset + limit) : null };
  }

  /** The period's totals with the query's filters: from the rollups when one row set answers, else raw rows. */
  private async totals(appId: string, query: StatsQuery): Promise<Totals> {
    const slice = rollupSlice(query);
    return slice
      ? this.repository.rollupTotals(appId, slice, query.range)
      : ((await this.repository.rawGrouped(appId, query.filters, query.range, null)).get('') ?? { ...NO_TOTALS });
  }

  /** The `props.<key>` properties the app's custom events had in the query's period (for the export). */
  async propsProperties(accountId: string, appId: string, params: RawStatsParams): Promise<Property[]> {
    await this.apps.requireOwned(accountId, appId);
    return (await this.repository.propsDimensions(appId, parseStatsQuery(params, ['visitors']).range)) as Property[];
  }

  /** Visitors and sign-ups per day across the account's apps, [from, to] inclusive. */
  accountDaily(accountId: string, range: DateRange): Promise<Map<string, { visitors: number; signups: number }>> {
    return this.repository.accountDaily(accountId, range);
  }

  /**
   * Visitors and sign-ups of each deployment of the app (in the order given) from the moment `since` to now (a split
   * test's results): the day of `since` from the raw rows after it (the rollups are daily: they would add that day's
   * earlier visitors and sign-ups), the days after it from the daily rollups by deployment.
   */
  async deploymentTotals(appId: string, deploymentIds: string[], since: Date): Promise<Array<{ visitors: number; signups: number }>> {
    const firstDay = utcDay(since);
    const today = utcDay(new Date());
    const first = await this.repository.rawGrouped(appId, [], { from: firstDay, to: firstDay }, { property: 'deployment' }, since);
    const later = firstDay < today ? { from: nextDay(firstDay), to: today } : null;
    const totals: Array<{ visitors: number; signups: number }> = [];
    // One after the other: inside a transaction (a test's end) the queries share one connection.
    for (const value of deploymentIds) {
      const start = first.get(value) ?? NO_TOTALS;
      const rest = later ? await this.repository.rollupTotals(appId, { dimension: 'deployment', value }, later) : NO_TOTALS;
      totals.push({ visitors: start.visitors + rest.visitors, signups: start.signups + rest.signups });
    }
    return totals;
  }

  async realtime(accountId: string, appId: string): Promise<{ visitors: number }> {
    await this.apps.requireOwned(accountId, appId);
    return { visitors: await this.repository.realtimeVisitors(appId) };
  }
}

/** The rollup rows that answer this query, or null when only raw rows can (several filters). */
function rollupSlice(query: StatsQuery): RollupSlice | null {
  if (query.filters.length === 0) return { dimension: '' };
  if (query.filters.length === 1) return { dimension: query.filters[0].property, value: query.filters[0].value };
  return null;
}

/** A percent with one decimal; 0 of nothing. */
const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);

function metricValues(t: Totals, metrics: Metric[]): MetricValues {
  const all: Record<Metric, number> = {
    visitors: t.visitors,
    visits: t.visits,
    pageviews: t.pageviews,
    bounceRate: percent(t.bounces, t.visits),
    visitDuration: t.visits === 0 ? 0 : Math.round(t.visitMs / t.visits / 1000),
    signups: t.signups,
    conversionRate: percent(t.signups, t.visitors),
    events: t.events,
  };
  return Object.fromEntries(metrics.map((m) => [m, all[m]]));
}

/** Every bucket of the range, so a series has no holes. */
function buckets(range: DateRange, interval: Interval): string[] {
  const days = Array.from({ length: daysIn(range) }, (_, i) => utcDay(new Date(Date.parse(range.from) + i * DAY_MS)));
  if (interval === 'day') return days;
  if (interval === 'month') return [...new Set(days.map((d) => `${d.slice(0, 7)}-01`))];
  return days.flatMap((d) => Array.from({ length: 24 }, (_, h) => `${d}T${String(h).padStart(2, '0')}:00:00Z`));
}

function encodeOffset(offset: number): string {
  return Buffer.from(JSON.stringify({ offset })).toString('base64url');
}

function decodeOffset(cursor: string): number {
  try {
    const { offset } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { offset?: unknown };
    if (Number.isSafeInteger(offset) && (offset as number) >= 0) return offset as number;
  } catch {
    // fall through
  }
  throw RequestError.invalidCursor();
}

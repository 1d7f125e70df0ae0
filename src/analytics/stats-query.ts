import { AnalyticsError } from './analytics.errors.js';
import { FixedProperty, PROPERTIES, PROPS_PREFIX, Property } from './dimensions.js';
import { utcDay } from './visitor-ids.service.js';

export const METRICS = ['visitors', 'visits', 'pageviews', 'bounceRate', 'visitDuration', 'signups', 'conversionRate', 'events'] as const;
export type Metric = (typeof METRICS)[number];
export const PERIODS = ['day', '7d', '30d', 'month', '12mo', 'custom'] as const;
export type Period = (typeof PERIODS)[number];
export const INTERVALS = ['hour', 'day', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

const DAY_MS = 86_400_000;
const MAX_RANGE_DAYS = 731;
/** Hourly series read raw rows: kept to ranges of a month. */
const MAX_HOURLY_DAYS = 31;

export interface DateRange {
  /** Inclusive UTC days, YYYY-MM-DD. */
  from: string;
  to: string;
}

export interface Filter {
  property: Property;
  value: string;
}

export interface StatsQuery {
  range: DateRange;
  metrics: Metric[];
  filters: Filter[];
}

export interface RawStatsParams {
  period?: string;
  from?: string;
  to?: string;
  metrics?: string;
  filters?: string;
}

/** Reads and checks the query string of the stats API; every mistake is a 400 that names it. */
export function parseStatsQuery(params: RawStatsParams, defaultMetrics: Metric[], now = new Date()): StatsQuery {
  return { range: parseRange(params, now), metrics: parseMetrics(params.metrics, defaultMetrics), filters: parseFilters(params.filters) };
}

export function parseInterval(value: string | undefined, range: DateRange): Interval {
  const interval = (value ?? (range.from === range.to ? 'hour' : daysIn(range) > 92 ? 'month' : 'day')) as Interval;
  if (!INTERVALS.includes(interval)) throw AnalyticsError.query(`interval "${value}" is unknown; use one of ${INTERVALS.join(', ')}`);
  if (interval === 'hour' && daysIn(range) > MAX_HOURLY_DAYS)
    throw AnalyticsError.query(`interval hour covers at most ${MAX_HOURLY_DAYS} days; use day or month`);
  return interval;
}

const PROPERTY_LIST = `${PROPERTIES.join(', ')} or props.<key>`;
/** `goal` is a breakdown's property only (AnalyticsStatsService), not a filter's. */
/** A props key as /collect takes one: 1–40 characters, no control characters. */
const PROPS_KEY = /^[^\p{Cc}\p{Cs}]{1,40}$/u;

export function parseProperty(value: string | undefined): Property {
  if (!value) throw AnalyticsError.query(`property is required; use one of ${PROPERTY_LIST}`);
  if (!isProperty(value)) throw AnalyticsError.query(`property "${value}" is unknown; use one of ${PROPERTY_LIST}, goal`);
  return value;
}

function isProperty(value: string): value is Property {
  if (value.startsWith(PROPS_PREFIX)) return PROPS_KEY.test(value.slice(PROPS_PREFIX.length));
  return PROPERTIES.includes(value as FixedProperty);
}

export function daysIn(range: DateRange): number {
  return Math.round((Date.parse(range.to) - Date.parse(range.from)) / DAY_MS) + 1;
}

function parseRange(params: RawStatsParams, now: Date): DateRange {
  const period = (params.period ?? '30d') as Period;
  if (!PERIODS.includes(period)) throw AnalyticsError.query(`period "${params.period}" is unknown; use one of ${PERIODS.join(', ')}`);
  if (period !== 'custom' && (params.from !== undefined || params.to !== undefined)) throw AnalyticsError.query('from and to go with period=custom');
  const today = utcDay(now);
  const daysBack = (n: number) => utcDay(new Date(Date.parse(today) - n * DAY_MS));
  switch (period) {
    case 'day':
      return { from: today, to: today };
    case '7d':
      return { from: daysBack(6), to: today };
    case '30d':
      return { from: daysBack(29), to: today };
    case 'month':
      return { from: `${today.slice(0, 7)}-01`, to: today };
    case '12mo': {
      const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1));
      return { from: utcDay(start), to: today };
    }
    case 'custom': {
      const from = parseDay('from', params.from);
      const to = parseDay('to', params.to);
      if (to < from) throw AnalyticsError.query(`to (${to}) is before from (${from})`);
      if (daysIn({ from, to }) > MAX_RANGE_DAYS) throw AnalyticsError.query('the range from..to covers more than 2 years');
      return { from, to };
    }
  }
}

function parseDay(name: string, value: string | undefined): string {
  if (value === undefined) throw AnalyticsError.query(`${name} is required with period=custom (YYYY-MM-DD)`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || utcDay(new Date(`${value}T00:00:00Z`)) !== value) {
    throw AnalyticsError.query(`${name} must be a date as YYYY-MM-DD`);
  }
  return value;
}

function parseMetrics(value: string | undefined, defaults: Metric[]): Metric[] {
  if (value === undefined || value === '') return defaults;
  const metrics = value.split(',').map((m) => m.trim());
  for (const metric of metrics)
    if (!METRICS.includes(metric as Metric)) throw AnalyticsError.query(`metric "${metric}" is unknown; use any of ${METRICS.join(', ')}`);
  return [...new Set(metrics)] as Metric[];
}

function parseFilters(value: string | undefined): Filter[] {
  if (value === undefined || value === '') return [];
  return value.split(';').map((clause) => {
    const at = clause.indexOf('==');
    if (at <= 0) throw AnalyticsError.query(`filter "${clause}" must be property==value`);
    const property = clause.slice(0, at).trim();
    if (!isProperty(property)) throw AnalyticsError.query(`filter property "${property}" is unknown; use one of ${PROPERTY_LIST}`);
    return { property, value: clause.slice(at + 2) };
  });
}

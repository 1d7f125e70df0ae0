import { FixedProperty, PROPERTIES, PROPS_PREFIX, Property } from '../../analytics/dimensions.js';
import type { Metric } from '../../analytics/stats-query.js';

/** The periods the dashboard offers, as the stats API names them, with their human names. */
export const PERIOD_CHOICES = [
  { period: 'day', label: 'Today' },
  { period: '7d', label: 'Last 7 days' },
  { period: '30d', label: 'Last 30 days' },
  { period: 'month', label: 'This month' },
  { period: '12mo', label: 'Last 12 months' },
] as const;
export type PeriodChoice = (typeof PERIOD_CHOICES)[number]['period'] | 'custom';

/** The metric cards, in order: the stats API's metric, its human name and how its value reads (`visits` is charted by none). */
export const METRIC_CARDS: ReadonlyArray<{ metric: Metric; label: string; kind: 'count' | 'percent' | 'duration' }> = [
  { metric: 'visitors', label: 'Unique visitors', kind: 'count' },
  { metric: 'pageviews', label: 'Pageviews', kind: 'count' },
  { metric: 'bounceRate', label: 'Bounce rate', kind: 'percent' },
  { metric: 'visitDuration', label: 'Visit duration', kind: 'duration' },
  { metric: 'signups', label: 'Sign-ups', kind: 'count' },
  { metric: 'conversionRate', label: 'Conversion rate', kind: 'percent' },
];

/** Human names of the properties a row click filters by. */
export const PROPERTY_NAMES: Record<FixedProperty, string> = {
  page: 'Page',
  referrer: 'Referrer',
  source: 'Source',
  utmCampaign: 'Campaign',
  browser: 'Browser',
  os: 'Operating system',
  device: 'Device',
  deployment: 'Deployment',
  event: 'Event',
  country: 'Country',
};

/** A property's human name: a fixed one's, or `Property plan` for `props.plan`. */
export function propertyName(property: Property): string {
  return property.startsWith(PROPS_PREFIX) ? `Property ${property.slice(PROPS_PREFIX.length)}` : PROPERTY_NAMES[property as FixedProperty];
}

/** What the dashboard shows: a period, the filters (property → value) and the chart's metric. */
export interface DashboardQuery {
  period: PeriodChoice;
  /** With `custom`: YYYY-MM-DD, as typed (the stats API checks them). */
  from?: string;
  to?: string;
  filters: Array<{ property: Property; value: string }>;
  metric: Metric;
}

/** The query string of a dashboard address (`?period=7d&page=/pricing&metric=pageviews`): unknown values fall back to the defaults. */
export function dashboardQuery(query: Record<string, unknown>): DashboardQuery {
  const one = (name: string): string | undefined => {
    const value = query[name];
    const first = Array.isArray(value) ? value[0] : value;
    return typeof first === 'string' && first !== '' ? first.slice(0, 500) : undefined;
  };
  const asked = one('period');
  const period: PeriodChoice = asked === 'custom' || PERIOD_CHOICES.some((p) => p.period === asked) ? (asked as PeriodChoice) : '30d';
  const metric = METRIC_CARDS.find((c) => c.metric === one('metric'))?.metric ?? 'visitors';
  // `;` separates the stats API's filter clauses: a value holding one cannot be asked for.
  const filters = PROPERTIES.flatMap((property) => {
    const value = one(property);
    return value !== undefined && !value.includes(';') ? [{ property, value }] : [];
  });
  return period === 'custom' ? { period, from: one('from'), to: one('to'), filters, metric } : { period, filters, metric };
}

/** The stats API's `filters` parameter of a query. */
export function filtersParam(query: DashboardQuery): string | undefined {
  return query.filters.length ? query.filters.map((f) => `${f.property}==${f.value}`).join(';') : undefined;
}

/** The address of the dashboard with some of its query changed (`undefined` removes a parameter). */
export function dashboardHref(base: string, query: DashboardQuery, change: Partial<Record<string, string | undefined>> = {}): string {
  const params: Record<string, string | undefined> = {
    period: query.period === '30d' ? undefined : query.period,
    from: query.period === 'custom' ? query.from : undefined,
    to: query.period === 'custom' ? query.to : undefined,
    ...Object.fromEntries(query.filters.map((f) => [f.property, f.value])),
    metric: query.metric === 'visitors' ? undefined : query.metric,
    ...change,
  };
  if (params.period !== 'custom') {
    params.from = undefined;
    params.to = undefined;
  }
  const search = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined)).toString();
  return search ? `${base}?${search}` : base;
}

/** `1m 13s`, `45s`, `2h 5m`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

/** A metric's value as a card shows it: `1,204`, `41 %`, `3.2 %`, `1m 13s`. */
export function formatMetric(kind: 'count' | 'percent' | 'duration', value: number): string {
  if (kind === 'percent') return `${value.toLocaleString('en-US', { maximumFractionDigits: 1 })} %`;
  if (kind === 'duration') return formatDuration(value);
  return value.toLocaleString('en-US');
}

/** The change from the previous period, as a card says it: `+12 %`, `−3 %`, `new`, or nothing. For percents, in points. */
export function formatChange(kind: 'count' | 'percent' | 'duration', now: number, before: number): { text: string; direction: 'up' | 'down' | 'same' } | null {
  if (kind === 'percent') {
    const points = Math.round((now - before) * 10) / 10;
    if (points === 0) return { text: '±0 pts', direction: 'same' };
    return { text: `${points > 0 ? '+' : '−'}${Math.abs(points).toLocaleString('en-US')} pts`, direction: points > 0 ? 'up' : 'down' };
  }
  if (before === 0) return now === 0 ? null : { text: 'new', direction: 'up' };
  const percent = Math.round(((now - before) / before) * 100);
  if (percent === 0) return { text: '±0 %', direction: 'same' };
  return { text: `${percent > 0 ? '+' : '−'}${Math.abs(percent).toLocaleString('en-US')} %`, direction: percent > 0 ? 'up' : 'down' };
}

/** The period just before [from, to] and as long (for the cards' comparison). */
export function previousRange(range: { from: string; to: string }): { from: string; to: string } {
  const day = 86_400_000;
  const from = Date.parse(`${range.from}T00:00:00Z`);
  const days = Math.round((Date.parse(`${range.to}T00:00:00Z`) - from) / day) + 1;
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { from: iso(from - days * day), to: iso(from - day) };
}

/** `Nov 3 – Nov 25, 2026`, `Nov 25, 2026`, `Dec 1, 2025 – Nov 25, 2026`. */
export function rangeLabel(range: { from: string; to: string }): string {
  const day = (d: string, year: boolean) =>
    new Date(`${d}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', ...(year ? { year: 'numeric' } : {}), timeZone: 'UTC' });
  if (range.from === range.to) return day(range.to, true);
  return `${day(range.from, range.from.slice(0, 4) !== range.to.slice(0, 4))} – ${day(range.to, true)}`;
}

/**
 * The visitors of the last 5 minutes, as the dashboard shows them; with JavaScript, htmx asks
 * `<base>/realtime` for this again every 30 s and swaps it in (`base` is a path this code built).
 */
export function realtimeFragment(base: string, visitors: number): string {
  const text = visitors === 1 ? '1 current visitor' : `${visitors.toLocaleString('en-US')} current visitors`;
  return (
    `<p class="realtime" id="realtime" hx-get="${base}/realtime" hx-trigger="every 30s" hx-swap="outerHTML" role="status">` +
    `<span class="realtime-dot" aria-hidden="true"></span><strong>${text}</strong> <span class="hint">in the last 5 minutes</span></p>`
  );
}

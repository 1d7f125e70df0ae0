import { AnalyticsEvent, PAGEVIEW, SIGNUP, Visit } from './analytics-event.js';
import { propsOf } from './stored-props.js';
import { UNKNOWN_COUNTRY } from './geoip.js';

/** The properties the stats API breaks down and filters by; each is a rollup dimension, as is `props.<key>` (PROPS_PREFIX). */
export const PROPERTIES = ['page', 'referrer', 'source', 'utmCampaign', 'browser', 'os', 'device', 'deployment', 'event', 'country'] as const;
export type FixedProperty = (typeof PROPERTIES)[number];
/** A custom event's property: `props.<key>`. */
export const PROPS_PREFIX = 'props.';
export type Property = FixedProperty | `props.${string}`;
/** Properties only custom events have: grouped or filtered by one, pageviews, visits and sign-ups count nothing. */
export const isEventProperty = (property: Property): boolean => property === 'event' || property.startsWith(PROPS_PREFIX);

/** The rollup rows of an app's totals. */
export const TOTAL: readonly [string, string] = ['', ''];
/** Value of `referrer` and `source` for visits that came from nowhere we know (typed in, bookmarks, apps). */
export const DIRECT = 'Direct / None';
/** Value of `browser` and `os` a User-Agent did not tell. */
export const UNKNOWN = 'Unknown';

type Described = Pick<AnalyticsEvent, 'deploymentId' | 'referrerHost' | 'utmSource' | 'utmCampaign' | 'browser' | 'os' | 'device' | 'country'>;

/** The (dimension, value) pairs an event or visit counts under: the totals and one per property it has. */
export function dimensionsOf(subject: Described, page: string): Array<readonly [string, string]> {
  const pairs: Array<readonly [string, string]> = [
    TOTAL,
    ['page', page],
    ['referrer', subject.referrerHost ?? DIRECT],
    ['source', subject.utmSource ?? subject.referrerHost ?? DIRECT],
    ['browser', subject.browser ?? UNKNOWN],
    ['os', subject.os ?? UNKNOWN],
    ['device', subject.device],
    ['country', subject.country ?? UNKNOWN_COUNTRY],
  ];
  if (subject.utmCampaign) pairs.push(['utmCampaign', subject.utmCampaign]);
  if (subject.deploymentId) pairs.push(['deployment', subject.deploymentId]);
  return pairs;
}

/**
 * An internal rollup dimension, never a property anyone asks for or sees: `evt+props.<key>`, valued
 * `<event name>` U+001E `<props value>` — a custom event's name and one of its props together, so a
 * goal (an event) with a `props.<key>` filter is read from the rollups (AnalyticsStatsRepository).
 * Not `props.`-prefixed, so no listing of props keys, breakdown, filter or export ever meets it, and
 * it takes none of the day's props-key places (RollupCardinality folds each part as its own dimension).
 * 10 characters and a key of up to 40 fit the column's 50.
 */
export const EVENT_PROPS_PREFIX = 'evt+props.';
/**
 * Between the event name and the props value: U+001E, a control character — neither can hold one (CollectService
 * refuses them in names and props) — and not the U+001F that joins a visitor day's `seen` marks (AnalyticsEventsRepository).
 */
export const EVENT_PROPS_SEPARATOR = '\u001e';

/** The `evt+props.<key>` pair of an event name and one of its props. */
export function eventPropsPair(name: string, key: string, value: string): readonly [string, string] {
  return [`${EVENT_PROPS_PREFIX}${key}`, `${name}${EVENT_PROPS_SEPARATOR}${value}`];
}

/** An `evt+props.<key>` row's parts as their own rows: (`event`, name) and (`props.<key>`, value); null for any other dimension. */
export function eventPropsParts(dimension: string, value: string): { event: string; propsDimension: string; propsValue: string } | null {
  if (!dimension.startsWith(EVENT_PROPS_PREFIX)) return null;
  const at = value.indexOf(EVENT_PROPS_SEPARATOR);
  if (at < 0) return null;
  return { event: value.slice(0, at), propsDimension: `${PROPS_PREFIX}${dimension.slice(EVENT_PROPS_PREFIX.length)}`, propsValue: value.slice(at + 1) };
}

/** A pageview's or sign-up's pairs; a custom event's add its name, each of its props, and each prop with the name (`evt+props.<key>`). */
export function eventDimensions(event: AnalyticsEvent): Array<readonly [string, string]> {
  const pairs = dimensionsOf(event, event.pathname);
  if (event.name === PAGEVIEW || event.name === SIGNUP) return pairs;
  pairs.push(['event', event.name]);
  for (const [key, value] of propsOf(event.props)) pairs.push([`${PROPS_PREFIX}${key}`, value], eventPropsPair(event.name, key, value));
  return pairs;
}
export const visitDimensions = (visit: Visit) => dimensionsOf(visit, visit.entryPage);

/**
 * The SQL of each fixed property over raw rows (for filtered queries): on events, and on visits (where
 * `page` is the entry page). Fixed strings, never built from input.
 */
const FIXED_SQL: Record<FixedProperty, { events: string; visits: string }> = {
  page: { events: 'pathname', visits: 'entry_page' },
  referrer: { events: `coalesce(referrer_host, '${DIRECT}')`, visits: `coalesce(referrer_host, '${DIRECT}')` },
  source: { events: `coalesce(utm_source, referrer_host, '${DIRECT}')`, visits: `coalesce(utm_source, referrer_host, '${DIRECT}')` },
  utmCampaign: { events: 'utm_campaign', visits: 'utm_campaign' },
  browser: { events: `coalesce(browser, '${UNKNOWN}')`, visits: `coalesce(browser, '${UNKNOWN}')` },
  os: { events: `coalesce(os, '${UNKNOWN}')`, visits: `coalesce(os, '${UNKNOWN}')` },
  device: { events: 'device', visits: 'device' },
  deployment: { events: 'deployment_id', visits: 'deployment_id' },
  // Visits hold pageviews only: grouped or filtered by a custom event's name or props, they have no value (and count nothing).
  country: { events: `coalesce(country, '${UNKNOWN_COUNTRY}')`, visits: `coalesce(country, '${UNKNOWN_COUNTRY}')` },
  event: { events: `CASE WHEN name NOT IN ('${PAGEVIEW}', '${SIGNUP}') THEN name END`, visits: 'NULL' },
};

/**
 * The SQL of a property over raw rows of `table`; `param` adds a value to the statement's parameters
 * and answers its placeholder (a props key is a parameter, never SQL text).
 */
export function propertySql(property: Property, table: 'events' | 'visits', param: (value: string) => string): string {
  if (!property.startsWith(PROPS_PREFIX)) return FIXED_SQL[property as FixedProperty][table];
  return table === 'visits' ? 'NULL' : `(props ->> ${param(property.slice(PROPS_PREFIX.length))}::text)`;
}

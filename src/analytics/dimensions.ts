import type { AnalyticsEvent, Visit } from './analytics-event.js';

/** The properties the stats API breaks down and filters by; each is a rollup dimension. */
export const PROPERTIES = ['page', 'referrer', 'source', 'utmCampaign', 'browser', 'os', 'device', 'deployment'] as const;
export type Property = (typeof PROPERTIES)[number];

/** The rollup rows of an app's totals. */
export const TOTAL: readonly [string, string] = ['', ''];
/** Value of `referrer` and `source` for visits that came from nowhere we know (typed in, bookmarks, apps). */
export const DIRECT = 'Direct / None';
/** Value of `browser` and `os` a User-Agent did not tell. */
export const UNKNOWN = 'Unknown';

type Described = Pick<AnalyticsEvent, 'deploymentId' | 'referrerHost' | 'utmSource' | 'utmCampaign' | 'browser' | 'os' | 'device'>;

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
  ];
  if (subject.utmCampaign) pairs.push(['utmCampaign', subject.utmCampaign]);
  if (subject.deploymentId) pairs.push(['deployment', subject.deploymentId]);
  return pairs;
}

export const eventDimensions = (event: AnalyticsEvent) => dimensionsOf(event, event.pathname);
export const visitDimensions = (visit: Visit) => dimensionsOf(visit, visit.entryPage);

/**
 * The SQL of each property over raw rows (for filtered queries): on events, and on visits (where
 * `page` is the entry page). Fixed strings, never built from input.
 */
export const PROPERTY_SQL: Record<Property, { events: string; visits: string }> = {
  page: { events: 'pathname', visits: 'entry_page' },
  referrer: { events: `coalesce(referrer_host, '${DIRECT}')`, visits: `coalesce(referrer_host, '${DIRECT}')` },
  source: { events: `coalesce(utm_source, referrer_host, '${DIRECT}')`, visits: `coalesce(utm_source, referrer_host, '${DIRECT}')` },
  utmCampaign: { events: 'utm_campaign', visits: 'utm_campaign' },
  browser: { events: `coalesce(browser, '${UNKNOWN}')`, visits: `coalesce(browser, '${UNKNOWN}')` },
  os: { events: `coalesce(os, '${UNKNOWN}')`, visits: `coalesce(os, '${UNKNOWN}')` },
  device: { events: 'device', visits: 'device' },
  deployment: { events: 'deployment_id', visits: 'deployment_id' },
};

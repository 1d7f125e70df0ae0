import { AnalyticsEvent, visitorIdFromHex } from '../../src/analytics/analytics-event.js';

/** A Firefox-on-Linux pageview of visitor number `visitor`, for writing straight to the buffer or the writer. */
export function pageview(fields: { appId: string; visitor: number; pathname: string; at?: Date } & Partial<AnalyticsEvent>): AnalyticsEvent {
  const { visitor, at, ...rest } = fields;
  return {
    deploymentId: null,
    occurredAt: at ?? new Date(),
    visitorId: visitorIdFromHex(visitor.toString(16).padStart(16, '0')),
    name: 'pageview',
    referrerHost: null,
    utmSource: null,
    utmMedium: null,
    utmCampaign: null,
    browser: 'Firefox',
    os: 'Linux',
    device: 'desktop',
    ...rest,
  };
}

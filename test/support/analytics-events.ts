import type request from 'supertest';
import { AnalyticsBuffer } from '../../src/analytics/analytics-buffer.js';
import type { AnalyticsEvent } from '../../src/analytics/analytics-event.js';
import type { TestApp } from './test-app.js';

export const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0';

/** A Firefox-on-Linux pageview of visitor number `visitor`, for writing straight to the buffer or the writer. */
export function pageview(fields: { appId: string; visitor: number; pathname: string; at?: Date } & Partial<AnalyticsEvent>): AnalyticsEvent {
  const { visitor, at, ...rest } = fields;
  return {
    deploymentId: null,
    occurredAt: at ?? new Date(),
    visitorId: String(visitor),
    name: 'pageview',
    referrerHost: null,
    utmSource: null,
    utmMedium: null,
    utmCampaign: null,
    browser: 'Firefox',
    os: 'Linux',
    device: 'desktop',
    country: null,
    props: null,
    ...rest,
  };
}

/** A pageview beacon of `url` as a browser's sendBeacon sends it (text/plain, Firefox), from `ip` (the app trusts X-Forwarded-For). */
export function sendBeacon(app: TestApp, appId: string, url: string, ip: string): request.Test {
  return app
    .http()
    .post('/collect')
    .set({ 'x-forwarded-for': ip, 'user-agent': FIREFOX, 'content-type': 'text/plain' })
    .send(JSON.stringify({ appId, name: 'pageview', url }));
}

/** Writes the events the analytics buffer holds now. */
export const flushAnalytics = (app: TestApp): Promise<void> => app.server.app.get(AnalyticsBuffer).flush();

/** The first number `pattern` captures in the server's /metrics, or `missing` when it is not there. */
export async function metricOf(app: TestApp, pattern: RegExp, missing: number): Promise<number> {
  return Number(pattern.exec((await app.http().get('/metrics').expect(200)).text)?.[1] ?? missing);
}

import { AnalyticsCollector } from '../src/analytics/analytics-collector.js';
import { AnalyticsWriter } from '../src/analytics/analytics-writer.js';
import { RollupCardinality } from '../src/analytics/rollup-cardinality.js';
import { FIREFOX, flushAnalytics, metricOf, pageview, sendBeacon } from './support/analytics-events.js';
import { ApiClient, inBatches, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

const today = () => new Date().toISOString().slice(0, 10);

/** The limits that keep one visitor from flooding analytics: events per visitor and minute, distinct values per property and day. */
describe(`analytics limits (${target})`, () => {
  let app: TestApp;
  let dev: ApiClient;

  const flush = () => flushAnalytics(app);
  const beacon = (appId: string, path: string, ip: string) => sendBeacon(app, appId, `https://flood.example${path}`, ip);
  const metric = (pattern: RegExp) => metricOf(app, pattern, 0);
  const rateLimited = () => metric(/^analytics_events_dropped_total\{reason="rate_limited"\} (\d+)$/m);
  const count = async (sql: string, params: unknown[]) => (await app.query<{ n: number }>(`SELECT (${sql})::int AS n`, params))[0].n;
  const stats = async (appId: string, kind: string, query: Record<string, string>) =>
    (await dev.get(`/v1/apps/${appId}/analytics/${kind}?${new URLSearchParams(query).toString()}`).expect(200)).body;

  beforeAll(async () => {
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, TRUST_PROXY: 'true' } });
    dev = await newAccountClient(app);
  });
  afterAll(() => app.close());

  describe('events per visitor', () => {
    let frozen: number;
    beforeAll(() => {
      // One minute, however long the machine takes to send the beacons.
      frozen = Date.now();
      app.server.app.get(AnalyticsCollector).perVisitor.now = () => frozen;
    });
    afterAll(() => (app.server.app.get(AnalyticsCollector).perVisitor.now = Date.now));

    it('counts and bills 120 of 3,000 beacons with unique paths from one IP in a minute, drops the rest silently (202), and counts others', async () => {
      const appId = (await dev.post('/v1/apps', { name: 'Flooded' }).expect(201)).body.appId as string;
      const before = await rateLimited();
      const statuses = await inBatches(
        Array.from({ length: 3000 }, (_, i) => i),
        25,
        async (i) => (await beacon(appId, `/unique-${i}`, '198.51.100.66')).status,
      );
      expect(statuses.every((s) => s === 202)).toBe(true);
      // Another visitor of the same app still counts.
      await beacon(appId, '/someone-else', '198.51.100.67').expect(202);
      await flush();
      expect(await count(`SELECT count(*) FROM analytics_events WHERE app_id = $1`, [appId])).toBe(121);
      expect(await rateLimited()).toBe(before + 2880);
      expect(await count(`SELECT count(*) FROM analytics_daily WHERE app_id = $1 AND dimension = 'page'`, [appId])).toBe(121);
      const billed = await app.query<{ used: string }>(
        `SELECT coalesce(sum(quantity), 0)::text AS used FROM usage_records WHERE account_id = $1 AND meter = 'analytics.events'`,
        [dev.accountId],
      );
      expect(Number(billed[0].used)).toBe(121);
    });

    it('counts an IPv6 visitor by its /64, and served-page views with beacons', async () => {
      const app2 = (await dev.post('/v1/apps', { name: 'Six' }).expect(201)).body.appId as string;
      const deploymentId = (await dev.post('/v1/apps/deploy', { appId: app2, env: 'production' }).expect(200)).body.deploymentId as string;
      for (let i = 0; i < 120; i++) await beacon(app2, `/v6-${i}`, `2001:db8:1:2::${(i + 1).toString(16)}`).expect(202);
      const before = await rateLimited();
      await beacon(app2, '/same-net', '2001:db8:1:2:ffff:ffff:ffff:fffe').expect(202);
      // The page is served, its view not counted: served pages and beacons share the visitor's minute.
      await app.http().get(`/sites/${deploymentId}/`).set({ 'x-forwarded-for': '2001:db8:1:2::abcd', 'user-agent': FIREFOX, accept: 'text/html' }).expect(200);
      await beacon(app2, '/next-net', '2001:db8:1:3::1').expect(202);
      await flush();
      expect(await rateLimited()).toBe(before + 2);
      expect(await count(`SELECT count(*) FROM analytics_events WHERE app_id = $1`, [app2])).toBe(121);
      const paths = await app.query<{ pathname: string }>(`SELECT pathname FROM analytics_events WHERE app_id = $1 AND pathname LIKE '%-net'`, [app2]);
      expect(paths).toEqual([{ pathname: '/next-net' }]);
    });
  });

  describe('distinct values per property and day', () => {
    const base = Date.parse(`${today()}T00:00:00Z`) + 12 * 3600_000;
    const event = (appId: string, visitor: number, pathname: string, minute: number, referrerHost: string | null = null) =>
      pageview({ appId, visitor, pathname, referrerHost, at: new Date(base + minute * 60_000) });
    const rollup = (appId: string, dimension: string, value: string) =>
      app.query<{ visitors: number; pageviews: number; visits: number; bounces: number }>(
        `SELECT visitors, pageviews, visits, bounces FROM analytics_daily WHERE app_id = $1 AND day = $2 AND dimension = $3 AND value = $4`,
        [appId, today(), dimension, value],
      );
    const rowsOf = (appId: string, dimension: string) =>
      count(`SELECT count(*) FROM analytics_daily WHERE app_id = $1 AND day = $2 AND dimension = $3`, [appId, today(), dimension]);

    it('keeps the first 1,000 values of a property with their own rows, counts the rest under (other), and keeps the totals exact', async () => {
      const appId = (await dev.post('/v1/apps', { name: 'Many pages' }).expect(201)).body.appId as string;
      const writer = app.server.app.get(AnalyticsWriter);
      // 1,005 visitors, each on a page of its own, from a host of its own.
      await writer.write(Array.from({ length: 1005 }, (_, i) => event(appId, i + 1, `/p${i}`, 0, `ref${i}.example`)));
      expect(await rowsOf(appId, 'page')).toBe(1001);
      expect(await rowsOf(appId, 'referrer')).toBe(1001);
      expect(await rowsOf(appId, 'source')).toBe(1001);
      expect(await rollup(appId, 'page', '(other)')).toEqual([{ visitors: 5, pageviews: 5, visits: 5, bounces: 5 }]);
      expect(await rollup(appId, 'page', '/p999')).toEqual([{ visitors: 1, pageviews: 1, visits: 1, bounces: 1 }]);
      expect(await rollup(appId, 'page', '/p1000')).toEqual([]);

      // Later the same day: a kept value keeps its row, a new one folds; a visit that began on a folded page goes on under (other).
      await writer.write([event(appId, 2000, '/p3', 5), event(appId, 2001, '/brand-new', 5), event(appId, 1005, '/p1', 10)]);
      expect(await rollup(appId, 'page', '/p3')).toEqual([{ visitors: 2, pageviews: 2, visits: 2, bounces: 2 }]);
      expect(await rollup(appId, 'page', '/brand-new')).toEqual([]);
      // (other): 6 visitors and visits (5 + /brand-new), and the visit of /p1004 is no longer a bounce.
      expect(await rollup(appId, 'page', '(other)')).toEqual([{ visitors: 6, pageviews: 6, visits: 6, bounces: 5 }]);
      expect(await rollup(appId, 'page', '/p1')).toEqual([{ visitors: 2, pageviews: 2, visits: 1, bounces: 1 }]);

      // Another instance (or a restart) knows nothing: the database decides, alike.
      app.server.app.get(RollupCardinality).forget();
      await writer.write([event(appId, 3000, '/p5', 20), event(appId, 3001, '/newer', 20)]);
      expect(await rollup(appId, 'page', '/p5')).toEqual([{ visitors: 2, pageviews: 2, visits: 2, bounces: 2 }]);
      expect(await rollup(appId, 'page', '(other)')).toEqual([{ visitors: 7, pageviews: 7, visits: 7, bounces: 6 }]);
      expect(await rowsOf(appId, 'page')).toBe(1001);
      expect(await count(`SELECT count(*) FROM analytics_daily WHERE app_id = $1 AND (bounces < 0 OR visits < 0)`, [appId])).toBe(0);

      // The totals are the events', unfolded: 1,010 pageviews by 1,009 visitors (one came back).
      const totals = await stats(appId, 'aggregate', { period: 'day', metrics: 'visitors,pageviews,visits,bounceRate' });
      expect(totals.results).toEqual({ visitors: { value: 1009 }, pageviews: { value: 1010 }, visits: { value: 1009 }, bounceRate: { value: 99.9 } });
      // The breakdown shows (other) as a row, and (other) can be filtered on like any value.
      const top = await stats(appId, 'breakdown', { period: 'day', property: 'page', metrics: 'visitors,pageviews', limit: '3' });
      expect(top.data[0]).toEqual({ page: '(other)', visitors: 7, pageviews: 7 });
      let rows = top.data.length;
      for (let cursor = top.nextCursor; cursor;) {
        const page = await stats(appId, 'breakdown', { period: 'day', property: 'page', limit: '100', cursor });
        rows += page.data.length;
        cursor = page.nextCursor;
      }
      expect(rows).toBe(1001);
      const other = await stats(appId, 'aggregate', { period: 'day', metrics: 'pageviews', filters: 'page==(other)' });
      expect(other.results).toEqual({ pageviews: { value: 7 } });
      // The raw events keep every value.
      expect(await count(`SELECT count(DISTINCT pathname) FROM analytics_events WHERE app_id = $1`, [appId])).toBe(1007);
    });

    it('keeps rollup rows for the first 100 props keys of the day; further keys stay in the raw events only', async () => {
      const appId = (await dev.post('/v1/apps', { name: 'Many keys' }).expect(201)).body.appId as string;
      const writer = app.server.app.get(AnalyticsWriter);
      // 5 custom events of 21 keys each: 105 keys, in order k0…k104.
      const props = (from: number) => Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${from + i}`, 'v']));
      const custom = (visitor: number, from: number, minute: number) => ({
        ...event(appId, visitor, '/', minute),
        name: 'click',
        props: JSON.stringify(props(from)),
      });
      await writer.write([0, 1, 2, 3, 4].map((i) => custom(i + 1, i * 21, 0)));
      const propsKeys = () =>
        count(`SELECT count(DISTINCT dimension) FROM analytics_daily WHERE app_id = $1 AND day = $2 AND dimension LIKE 'props.%'`, [appId, today()]);
      expect(await propsKeys()).toBe(100);
      expect(await rowsOf(appId, 'props.k99')).toBe(1);
      expect(await rowsOf(appId, 'props.k100')).toBe(0);
      // Later, and after a restart: a kept key takes new values, a new key still gets no row.
      app.server.app.get(RollupCardinality).forget();
      await writer.write([{ ...event(appId, 9, '/', 5), name: 'click', props: JSON.stringify({ k3: 'w', fresh: 'v' }) }]);
      expect(await rollup(appId, 'props.k3', 'w')).toHaveLength(1);
      expect(await rowsOf(appId, 'props.fresh')).toBe(0);
      expect(await propsKeys()).toBe(100);
      // The raw events keep every key.
      expect(await count(`SELECT count(*) FROM analytics_events WHERE app_id = $1 AND props ? 'k104'`, [appId])).toBe(1);
      expect(await count(`SELECT count(*) FROM analytics_events WHERE app_id = $1 AND props ? 'fresh'`, [appId])).toBe(1);
    });
  });
});

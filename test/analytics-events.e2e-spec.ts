import { runInNewContext } from 'node:vm';
import { AnalyticsWriter } from '../src/analytics/analytics-writer.js';
import { TRACKER_SCRIPT } from '../src/analytics/tracker-script.js';
import { FIREFOX, flushAnalytics, pageview } from './support/analytics-events.js';
import { everyRow } from './support/privacy.js';
import { ApiClient, expectErrorBody, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const today = () => new Date().toISOString().slice(0, 10);

/** Custom events and their props (issue 47): counted by the `events` metric, broken down and filtered by `event` and `props.<key>`. */
describe(`analytics custom events and props (${target})`, () => {
  let app: TestApp;
  let dev: ApiClient;
  let appId: string;

  const collect = (body: Record<string, unknown>, ip: string, userAgent = FIREFOX) =>
    app
      .http()
      .post('/collect')
      .set({ 'x-forwarded-for': ip, 'user-agent': userAgent, 'content-type': 'text/plain' })
      .send(JSON.stringify({ appId, url: 'https://shop.example/pricing', ...body }));
  const stats = async (kind: string, query: Record<string, string>, status = 200) =>
    (await dev.get(`/v1/apps/${appId}/analytics/${kind}?${new URLSearchParams({ period: 'day', ...query }).toString()}`).expect(status)).body;
  const aggregate = async (query: Record<string, string>) =>
    Object.fromEntries(Object.entries((await stats('aggregate', query)).results as Record<string, { value: number }>).map(([k, v]) => [k, v.value]));

  beforeAll(async () => {
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, TRUST_PROXY: 'true' } });
    dev = await newAccountClient(app);
    appId = (await dev.post('/v1/apps', { name: 'Events' }).expect(201)).body.appId;

    // V1: a pageview, two Downloads (plan pro, then plan free). V2: a pageview and a Download (pro, with an address in a prop).
    // V3: only a custom event, no pageview (a visitor all the same). Nobody signs up.
    await collect({ name: 'pageview' }, '198.51.100.1').expect(202);
    await collect({ name: 'Download', props: { plan: 'pro', format: 'pdf' } }, '198.51.100.1').expect(202);
    await collect({ name: 'Download', props: { plan: 'free' } }, '198.51.100.1').expect(202);
    await collect({ name: 'pageview' }, '198.51.100.2', CHROME).expect(202);
    await collect({ name: 'Download', props: { plan: 'pro', contact: 'Ada <ada.lovelace@example.com>' } }, '198.51.100.2', CHROME).expect(202);
    await collect({ name: 'Newsletter', url: 'https://shop.example/blog', props: { plan: 'pro' } }, '198.51.100.3').expect(202);
    // Props on a pageview are not kept (only a custom event's are).
    await collect({ name: 'pageview', url: 'https://shop.example/blog', props: { plan: 'ignored' } }, '198.51.100.2', CHROME).expect(202);
    await flushAnalytics(app);
  });
  afterAll(() => app.close());

  it('stores a custom event with its props, an e-mail-looking value redacted, and no props on pageviews', async () => {
    const rows = await app.query<{ name: string; pathname: string; props: Record<string, string> | null }>(
      `SELECT name, pathname, props FROM analytics_events WHERE app_id = $1 ORDER BY occurred_at, name`,
      [appId],
    );
    expect(rows).toEqual([
      { name: 'pageview', pathname: '/pricing', props: null },
      { name: 'Download', pathname: '/pricing', props: { plan: 'pro', format: 'pdf' } },
      { name: 'Download', pathname: '/pricing', props: { plan: 'free' } },
      { name: 'pageview', pathname: '/pricing', props: null },
      { name: 'Download', pathname: '/pricing', props: { plan: 'pro', contact: '(redacted)' } },
      { name: 'Newsletter', pathname: '/blog', props: { plan: 'pro' } },
      { name: 'pageview', pathname: '/blog', props: null },
    ]);
    // Every row of every table: neither the address sent in a prop nor the visitors' IPs.
    const everything = await everyRow((sql) => app.query(sql));
    expect(everything).toContain('(redacted)');
    for (const secret of ['ada.lovelace', '198.51.100.1', '198.51.100.2', '198.51.100.3', 'ignored']) expect(everything).not.toContain(secret);
  });

  it('counts custom events in aggregate and timeseries, and their visitors among the visitors', async () => {
    expect(await aggregate({ metrics: 'visitors,pageviews,events,visits' })).toEqual({ visitors: 3, pageviews: 3, events: 4, visits: 2 });
    expect(await aggregate({ metrics: 'visitors,events', filters: 'event==Download' })).toEqual({ visitors: 2, events: 3 });
    // Two filters read the raw rows: the same figures as the rollups.
    expect(await aggregate({ metrics: 'visitors,events,pageviews', filters: 'event==Download;props.plan==pro' })).toEqual({
      visitors: 2,
      events: 2,
      pageviews: 0,
    });
    const series = (await stats('timeseries', { interval: 'day', metrics: 'events,pageviews' })).results;
    expect(series).toEqual([{ date: today(), events: 4, pageviews: 3 }]);
    const hourly = (await stats('timeseries', { metrics: 'events' })).results as Array<{ events: number }>;
    expect(hourly.reduce((sum, r) => sum + r.events, 0)).toBe(4);
  });

  it('breaks down by event: visitors and completions per name, from the rollups and from raw rows alike', async () => {
    const expected = [
      { event: 'Download', visitors: 2, events: 3 },
      { event: 'Newsletter', visitors: 1, events: 1 },
    ];
    expect((await stats('breakdown', { property: 'event' })).data).toEqual(expected);
    // A filter on another property sends the breakdown to the raw rows.
    expect((await stats('breakdown', { property: 'event', filters: 'browser==Firefox' })).data).toEqual([
      { event: 'Download', visitors: 1, events: 2 },
      { event: 'Newsletter', visitors: 1, events: 1 },
    ]);
  });

  it('breaks down and filters by props.<key>', async () => {
    expect((await stats('breakdown', { property: 'props.plan' })).data).toEqual([
      { 'props.plan': 'pro', visitors: 3, events: 3 },
      { 'props.plan': 'free', visitors: 1, events: 1 },
    ]);
    expect((await stats('breakdown', { property: 'props.contact' })).data).toEqual([{ 'props.contact': '(redacted)', visitors: 1, events: 1 }]);
    expect((await stats('breakdown', { property: 'props.plan', filters: 'event==Download' })).data).toEqual([
      { 'props.plan': 'pro', visitors: 2, events: 2 },
      { 'props.plan': 'free', visitors: 1, events: 1 },
    ]);
    expect(await aggregate({ metrics: 'visitors,events', filters: 'props.format==pdf' })).toEqual({ visitors: 1, events: 1 });
    expect((await stats('breakdown', { property: 'props.nothing' })).data).toEqual([]);
  });

  it('answers 400 naming a bad property or filter', async () => {
    expectErrorBody(await stats('breakdown', { property: 'props.' }, 400), 400, 'property "props." is unknown');
    expectErrorBody(await stats('breakdown', { property: `props.${'k'.repeat(41)}` }, 400), 400, 'props.<key>');
    expectErrorBody(await stats('aggregate', { filters: 'prop.plan==pro' }, 400), 400, 'filter property "prop.plan" is unknown');
    expectErrorBody(await stats('aggregate', { metrics: 'event' }, 400), 400, 'metric "event" is unknown');
  });

  it('keeps the first 1,000 values of a props key a day in the rollups, the rest as (other); raw rows keep every value', async () => {
    const flooded = (await dev.post('/v1/apps', { name: 'Props flood' }).expect(201)).body.appId as string;
    const at = new Date();
    const events = Array.from({ length: 1003 }, (_, i) =>
      pageview({ appId: flooded, visitor: i + 1, pathname: '/', at, name: 'Click', props: JSON.stringify({ id: `v${i}` }) }),
    );
    await app.server.app.get(AnalyticsWriter).write(events);
    const rows = await app.query<{ n: number; other: number }>(
      `SELECT count(*)::int AS n, coalesce(sum(events) FILTER (WHERE value = '(other)'), 0)::int AS other
         FROM analytics_daily WHERE app_id = $1 AND dimension = 'props.id'`,
      [flooded],
    );
    expect(rows).toEqual([{ n: 1001, other: 3 }]);
    const [raw] = await app.query<{ n: number }>(`SELECT count(DISTINCT props->>'id')::int AS n FROM analytics_events WHERE app_id = $1`, [flooded]);
    expect(raw.n).toBe(1003);
    const other = await dev.get(`/v1/apps/${flooded}/analytics/aggregate?period=day&metrics=visitors,events&filters=props.id==(other)`).expect(200);
    expect(other.body.results).toEqual({ visitors: { value: 3 }, events: { value: 3 } });
  });

  it('the tracker exposes window.platform.track(name, { props }), which posts the event and its props', () => {
    const sent: Array<{ url: string; body: string }> = [];
    const window: Record<string, unknown> = {
      innerWidth: 1280,
      addEventListener: () => undefined,
    };
    const context = {
      window,
      document: {
        referrer: '',
        currentScript: { src: 'https://api.example.com/js/analytics.js', getAttribute: (name: string) => (name === 'data-app' ? 'app_x' : null) },
      },
      history: { pushState: () => undefined },
      location: { href: 'https://shop.example/pricing' },
      navigator: { sendBeacon: (url: string, body: string) => sent.push({ url, body }) > 0 },
      JSON,
    };
    runInNewContext(TRACKER_SCRIPT, context);
    (window.platform as { track: (name: string, options: unknown) => void }).track('Download', { props: { plan: 'pro' } });
    expect(sent.map((s) => ({ url: s.url, body: JSON.parse(s.body) as unknown }))).toEqual([
      {
        url: 'https://api.example.com/collect',
        body: { appId: 'app_x', name: 'pageview', url: 'https://shop.example/pricing', referrer: null, screenWidth: 1280 },
      },
      {
        url: 'https://api.example.com/collect',
        body: { appId: 'app_x', name: 'Download', url: 'https://shop.example/pricing', referrer: null, screenWidth: 1280, props: { plan: 'pro' } },
      },
    ]);
  });
});

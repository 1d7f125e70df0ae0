import request from 'supertest';
import { AnalyticsBuffer } from '../src/analytics/analytics-buffer.js';
import { AnalyticsPartitions } from '../src/analytics/analytics-partitions.js';
import { AnalyticsWriter } from '../src/analytics/analytics-writer.js';
import { TRACKER_SCRIPT } from '../src/analytics/tracker-script.js';
import { SignupTokens } from '../src/sites/signup-token.js';
import { SignupService } from '../src/sites/signup.service.js';
import { pageview } from './support/analytics-events.js';
import { ApiClient, expectErrorBody, newAccountClient, NO_RATE_LIMIT, scopedClient } from './support/api-client.js';
import { ChildServer, startChildServer } from './support/child-server.js';
import { ADMIN_TOKEN, dropFreshResources, freshEnvironment, startTestApp, target, TestApp } from './support/test-app.js';

const UA = {
  chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  headless: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36',
};
const today = () => new Date().toISOString().slice(0, 10);

describe(`analytics (${target})`, () => {
  let app: TestApp;
  let dev: ApiClient;
  let appId: string;
  let dep1: string;
  let dep2: string;
  let slug: string;

  const flush = () => app.server.app.get(AnalyticsBuffer).flush();
  const view = (path: string, ip: string, userAgent: string, headers: Record<string, string> = {}) =>
    app
      .http()
      .get(path)
      .set({ 'x-forwarded-for': ip, 'user-agent': userAgent, accept: 'text/html', ...headers });
  const collect = (body: unknown, ip: string, userAgent: string, headers: Record<string, string> = {}) =>
    app
      .http()
      .post('/collect')
      .set({ 'x-forwarded-for': ip, 'user-agent': userAgent, 'content-type': 'text/plain;charset=UTF-8', ...headers })
      .send(JSON.stringify(body));
  const stats = async (kind: string, query: Record<string, string>, id = appId) =>
    (await dev.get(`/v1/apps/${id}/analytics/${kind}?${new URLSearchParams(query).toString()}`).expect(200)).body;
  const aggregate = async (query: Record<string, string> = {}, id = appId) => {
    const body = await stats(
      'aggregate',
      { period: 'day', metrics: 'visitors,visits,pageviews,bounceRate,visitDuration,signups,conversionRate', ...query },
      id,
    );
    return Object.fromEntries(Object.entries(body.results as Record<string, { value: number }>).map(([k, v]) => [k, v.value]));
  };
  const breakdown = async (property: string, query: Record<string, string> = {}) =>
    (await stats('breakdown', { period: 'day', property, metrics: 'visitors,pageviews,visits,bounceRate,signups,conversionRate', ...query })).data;

  beforeAll(async () => {
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, TRUST_PROXY: 'true' } });
    dev = await newAccountClient(app);
    const created = (await dev.post('/v1/apps', { name: 'Counted', visibility: 'public' }).expect(201)).body;
    appId = created.appId;
    slug = created.slug;
    dep1 = (await dev.post('/v1/apps/deploy', { appId, env: 'production' }).expect(200)).body.deploymentId;
    await dev.post(`/v1/apps/${appId}/publish`, {}).expect(200);
    dep2 = (await dev.post('/v1/apps/deploy', { appId, env: 'staging' }).expect(200)).body.deploymentId;

    // A — Chrome on Windows: came from a newsletter link, reads the page, then the thanks page, then the developer's own site.
    await view(`/sites/${dep1}/?utm_source=newsletter&utm_campaign=launch&email=secret@example.com`, '203.0.113.1', UA.chromeWindows, {
      referer: 'https://news.example.org/item?id=42',
    }).expect(200);
    await view(`/sites/${dep1}/thanks`, '203.0.113.1', UA.chromeWindows, { referer: `${app.url}/sites/${dep1}/` }).expect(200);
    await collect({ appId, name: 'pageview', url: 'https://recipes.example.com/pricing?utm_source=other' }, '203.0.113.1', UA.chromeWindows).expect(202);
    // B — an iPhone, straight to the public address: one page, a bounce.
    await view(`/p/${slug}/`, '203.0.113.2', UA.iphone).expect(200);
    // G — an iPad through the script, from a search engine.
    await collect(
      { appId, name: 'pageview', url: 'https://recipes.example.com/pricing', referrer: 'https://www.google.com/search?q=recipes', screenWidth: 820 },
      '203.0.113.4',
      UA.ipad,
    ).expect(202);
    // S — the staging deployment, seen once from a Firefox.
    await view(`/sites/${dep2}/`, '203.0.113.5', UA.firefoxLinux).expect(200);
    // Not counted: a visitor with Global Privacy Control, one with Do Not Track, a crawler, a headless browser, no User-Agent.
    await view(`/sites/${dep1}/`, '203.0.113.3', UA.firefoxLinux, { 'sec-gpc': '1' }).expect(200);
    await collect({ appId, name: 'pageview', url: 'https://recipes.example.com/' }, '203.0.113.6', UA.firefoxLinux, { dnt: '1' }).expect(202);
    await view(`/p/${slug}/`, '198.51.100.7', UA.googlebot).expect(200);
    await view(`/p/${slug}/`, '198.51.100.8', UA.headless).expect(200);
    await app.http().get(`/p/${slug}/`).set({ 'x-forwarded-for': '198.51.100.9', accept: 'text/html', 'user-agent': '' }).expect(200);
    await flush();
  });
  afterAll(() => app.close());

  describe('counting', () => {
    it('counts exactly the visitors, visits, pageviews and bounces of a scripted set of visitors', async () => {
      expect(await aggregate()).toEqual({
        visitors: 4,
        visits: 4,
        pageviews: 6,
        bounceRate: 75,
        visitDuration: 0,
        signups: 0,
        conversionRate: 0,
      });
      expect(await stats('realtime', {})).toEqual({ visitors: 4 });
      const metrics = (await app.http().get('/metrics').expect(200)).text;
      expect(metrics).toMatch(/analytics_events_dropped_total\{reason="opted_out"\} 2/);
      expect(metrics).toMatch(/analytics_events_dropped_total\{reason="bot"\} 3/);
    });

    it('breaks down by every property, with the source of a visit credited to all its pages', async () => {
      expect(await breakdown('page')).toEqual([
        { page: '/', visitors: 3, pageviews: 3, visits: 3, bounceRate: 66.7, signups: 0, conversionRate: 0 },
        { page: '/pricing', visitors: 2, pageviews: 2, visits: 1, bounceRate: 100, signups: 0, conversionRate: 0 },
        { page: '/thanks', visitors: 1, pageviews: 1, visits: 0, bounceRate: 0, signups: 0, conversionRate: 0 },
      ]);
      const only = async (property: string) =>
        Object.fromEntries((await breakdown(property)).map((row: Record<string, string | number>) => [row[property], [row.visitors, row.pageviews]]));
      expect(await only('source')).toEqual({ newsletter: [1, 3], 'Direct / None': [2, 2], 'google.com': [1, 1] });
      expect(await only('referrer')).toEqual({ 'news.example.org': [1, 3], 'Direct / None': [2, 2], 'google.com': [1, 1] });
      expect(await only('utmCampaign')).toEqual({ launch: [1, 3] });
      expect(await only('browser')).toEqual({ 'Mobile Safari': [2, 2], Chrome: [1, 3], Firefox: [1, 1] });
      expect(await only('os')).toEqual({ iOS: [2, 2], Windows: [1, 3], Linux: [1, 1] });
      expect(await only('device')).toEqual({ desktop: [2, 4], mobile: [1, 1], tablet: [1, 1] });
      expect(await only('deployment')).toEqual({ [dep1]: [2, 3], [dep2]: [1, 1] });
    });

    it('pages through a breakdown with nextCursor', async () => {
      const first = await stats('breakdown', { period: 'day', property: 'page', limit: '2' });
      expect(first.data.map((r: { page: string }) => r.page)).toEqual(['/', '/pricing']);
      const second = await stats('breakdown', { period: 'day', property: 'page', limit: '2', cursor: first.nextCursor });
      expect(second).toEqual({ data: [{ page: '/thanks', visitors: 1 }], nextCursor: null });
    });

    it('filters by one property (rollups) and by several (raw rows), alike', async () => {
      expect(await aggregate({ filters: 'device==mobile', metrics: 'visitors,pageviews' })).toEqual({ visitors: 1, pageviews: 1 });
      expect(await aggregate({ filters: 'source==newsletter', metrics: 'visitors,pageviews,visits' })).toEqual({ visitors: 1, pageviews: 3, visits: 1 });
      expect(await aggregate({ filters: 'page==/pricing;browser==Mobile Safari', metrics: 'visitors,pageviews,visits,bounceRate' })).toEqual({
        visitors: 1,
        pageviews: 1,
        visits: 1,
        bounceRate: 100,
      });
      expect(await aggregate({ filters: `deployment==${dep1};device==desktop`, metrics: 'visitors,pageviews' })).toEqual({ visitors: 1, pageviews: 2 });
      // A breakdown under a filter on another property reads raw rows; it agrees with the rollups.
      const rows = await breakdown('page', { filters: 'browser==Chrome;os==Windows', metrics: 'visitors,pageviews' });
      expect(rows).toEqual([
        { page: '/', visitors: 1, pageviews: 1 },
        { page: '/pricing', visitors: 1, pageviews: 1 },
        { page: '/thanks', visitors: 1, pageviews: 1 },
      ]);
    });

    it('answers a timeseries with every interval, zeros included', async () => {
      const week = await stats('timeseries', { period: '7d', interval: 'day', metrics: 'visitors,pageviews' });
      expect(week.results).toHaveLength(7);
      expect(week.results[6]).toEqual({ date: today(), visitors: 4, pageviews: 6 });
      expect(week.results.slice(0, 6).every((r: { visitors: number; pageviews: number }) => r.visitors === 0 && r.pageviews === 0)).toBe(true);
      const hours = await stats('timeseries', { period: 'day', metrics: 'pageviews' });
      expect(hours.results).toHaveLength(24);
      expect(hours.results.reduce((sum: number, r: { pageviews: number }) => sum + r.pageviews, 0)).toBe(6);
      expect(hours.results[0].date).toBe(`${today()}T00:00:00Z`);
      const year = await stats('timeseries', { period: '12mo', metrics: 'visitors' });
      expect(year.results).toHaveLength(12);
      expect(year.results[11]).toEqual({ date: `${today().slice(0, 7)}-01`, visitors: 4 });
    });

    it('stores no IP address, User-Agent, query string or full referrer in any column of any table', async () => {
      const tables: Array<{ table_name: string }> = await app.query(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
      );
      const secrets = ['203.0.113.', '198.51.100.', 'Mozilla/5.0', 'Googlebot', 'Windows NT', 'iPhone OS', 'secret@example.com', 'id=42', 'q=recipes'];
      const found: string[] = [];
      for (const { table_name } of tables) {
        for (const secret of secrets) {
          const [{ n }]: Array<{ n: number }> = await app.query(`SELECT count(*)::int AS n FROM "${table_name}" t WHERE t::text LIKE $1`, [`%${secret}%`]);
          if (n > 0) found.push(`${table_name}: ${secret}`);
        }
      }
      expect(found).toEqual([]);
      const stored = await app.query(`SELECT * FROM analytics_events WHERE app_id = $1 ORDER BY occurred_at LIMIT 1`, [appId]);
      expect(Object.keys(stored[0]).sort()).toEqual(
        [
          'app_id',
          'browser',
          'country',
          'deployment_id',
          'device',
          'name',
          'occurred_at',
          'os',
          'pathname',
          'props',
          'referrer_host',
          'utm_campaign',
          'utm_medium',
          'utm_source',
          'visitor_id',
        ].sort(),
      );
      expect(stored[0]).toMatchObject({ pathname: '/', referrer_host: 'news.example.org', utm_source: 'newsletter', utm_campaign: 'launch' });
    });
  });

  describe('the funnel', () => {
    it('counts landing-page sign-ups per deployment, as sign-ups ÷ visitors', async () => {
      const token = app.server.app.get(SignupTokens).issue(dep1, Date.now() - 5000);
      await app
        .http()
        .post(`/sites/${dep1}/signup`)
        .set({ 'x-forwarded-for': '203.0.113.1', 'user-agent': UA.chromeWindows })
        .type('form')
        .send({ email: 'reader@example.com', website: '', token })
        .expect(303);
      await app.server.app.get(SignupService).settled(); // stored after the answer
      await flush(); // the sign-up's analytics event, from the inbox into the rollups
      // Signed up by the API, not through a page: a user, not a conversion.
      await dev.post('/v1/users', { appId, email: 'imported@example.com' }).expect(201);
      expect(await aggregate({ metrics: 'visitors,signups,conversionRate' })).toEqual({ visitors: 4, signups: 1, conversionRate: 25 });
      expect(await breakdown('deployment', { metrics: 'visitors,signups,conversionRate' })).toEqual([
        { deployment: dep1, visitors: 2, signups: 1, conversionRate: 50 },
        { deployment: dep2, visitors: 1, signups: 0, conversionRate: 0 },
      ]);
      // Credited to the visit's source, too.
      expect(await aggregate({ filters: 'source==newsletter', metrics: 'signups' })).toEqual({ signups: 1 });
      expect(await aggregate({ filters: 'source==newsletter;device==desktop', metrics: 'signups' })).toEqual({ signups: 1 });
    });
  });

  describe('visits', () => {
    it('splits a visitor’s pageviews into visits at 30-minute gaps, with their durations', async () => {
      const other = (await dev.post('/v1/apps', { name: 'Timed' }).expect(201)).body.appId as string;
      const base = Date.parse(`${today()}T00:00:00Z`);
      const event = (minutes: number, pathname: string) => pageview({ appId: other, visitor: 0xff, pathname, at: new Date(base + minutes * 60_000) });
      const writer = app.server.app.get(AnalyticsWriter);
      // Two batches: a visit is continued across them.
      await writer.write([event(1, '/'), event(11, '/a')]);
      await writer.write([event(21, '/b'), event(52, '/c')]);
      expect(await aggregate({}, other)).toMatchObject({ visitors: 1, visits: 2, pageviews: 4, bounceRate: 50, visitDuration: 600 });
      const visits = await app.query(`SELECT entry_page, pageviews FROM analytics_visits WHERE app_id = $1 ORDER BY started_at`, [other]);
      expect(visits).toEqual([
        { entry_page: '/', pageviews: 3 },
        { entry_page: '/c', pageviews: 1 },
      ]);
    });
  });

  describe('the stats API', () => {
    it('answers 400 naming a bad period, metric, property, interval, filter or range', async () => {
      const bad = async (kind: string, query: string, mentions: string) =>
        expectErrorBody((await dev.get(`/v1/apps/${appId}/analytics/${kind}?${query}`).expect(400)).body, 400, mentions);
      await bad('aggregate', 'period=week', 'period "week" is unknown');
      await bad('aggregate', 'metrics=visitors,clicks', 'metric "clicks" is unknown');
      await bad('breakdown', 'property=region', 'property "region" is unknown');
      await bad('breakdown', '', 'property is required');
      await bad('aggregate', 'filters=region==NL', 'filter property "region" is unknown');
      await bad('aggregate', 'filters=page=/x', 'must be property==value');
      await bad('timeseries', 'interval=week', 'interval "week" is unknown');
      await bad('timeseries', 'period=12mo&interval=hour', 'interval hour covers at most 31 days');
      await bad('aggregate', 'period=custom&from=2026-11-10&to=2026-11-01', 'to (2026-11-01) is before from (2026-11-10)');
      await bad('aggregate', 'period=custom&from=2023-01-01&to=2026-01-01', 'more than 2 years');
      await bad('aggregate', 'period=custom&from=2026-02-30&to=2026-03-01', 'from must be a date');
      await bad('aggregate', 'period=custom&to=2026-03-01', 'from is required');
    });

    it('answers custom ranges inclusively, and keeps apps and scopes apart', async () => {
      expect(await aggregate({ period: 'custom', from: today(), to: today(), metrics: 'pageviews' })).toEqual({ pageviews: 6 });
      const stranger = await newAccountClient(app);
      expectErrorBody((await stranger.get(`/v1/apps/${appId}/analytics/aggregate`).expect(404)).body, 404);
      const noScope = await scopedClient(app, dev, ['apps:read']);
      expectErrorBody((await noScope.get(`/v1/apps/${appId}/analytics/aggregate`).expect(403)).body, 403, 'analytics:read');
    });
  });

  describe('/collect and the script', () => {
    it('takes JSON or text, answers 202 even for unknown apps, 400 for malformed bodies, to any origin', async () => {
      const ok = await app
        .http()
        .post('/collect')
        .set({ 'user-agent': UA.firefoxLinux, origin: 'https://elsewhere.example' })
        .send({ appId: 'app_nope', name: 'pageview', url: 'https://x.example/' })
        .expect(202);
      expect(ok.headers['access-control-allow-origin']).toBe('*');
      expectErrorBody((await collect('not json', '203.0.113.9', UA.firefoxLinux).expect(400)).body, 400, 'JSON object');
      expectErrorBody((await collect({ appId, name: 'pageview' }, '203.0.113.9', UA.firefoxLinux).expect(400)).body, 400, 'url');
      expectErrorBody(
        (await collect({ appId, name: 'x'.repeat(41), url: 'https://x.example/' }, '203.0.113.9', UA.firefoxLinux).expect(400)).body,
        400,
        'name',
      );
      const props = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v']));
      expectErrorBody(
        (await collect({ appId, name: 'click', url: 'https://x.example/', props }, '203.0.113.9', UA.firefoxLinux).expect(400)).body,
        400,
        'props',
      );
      const preflight = await app.http().options('/collect').set({ origin: 'https://elsewhere.example', 'access-control-request-method': 'POST' }).expect(204);
      expect(preflight.headers).toMatchObject({ 'access-control-allow-origin': '*', 'access-control-allow-methods': 'POST' });
      // A custom event is stored, not counted as a pageview.
      await collect({ appId, name: 'clicked-signup', url: 'https://recipes.example.com/', props: { plan: 'pro' } }, '203.0.113.1', UA.chromeWindows).expect(
        202,
      );
      await flush();
      expect(await app.query(`SELECT name, pathname FROM analytics_events WHERE app_id = $1 AND name = 'clicked-signup'`, [appId])).toEqual([
        { name: 'clicked-signup', pathname: '/' },
      ]);
      expect((await aggregate({ metrics: 'pageviews' })).pageviews).toBe(6);
    });

    it('serves the tracker script: under 1.5 KB, cacheable, no cookies or storage', async () => {
      const res = await app.http().get('/js/analytics.js').expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=86400');
      expect(Buffer.byteLength(res.text)).toBeLessThan(1536);
      expect(res.text).toBe(TRACKER_SCRIPT);
      expect(res.text).not.toMatch(/cookie|localStorage|sessionStorage|indexedDB/);
      expect(res.text).toContain('pushState');
      expect((await app.http().get('/js/analytics.js').set('if-none-match', res.headers.etag).expect(304)).text).toBe('');
    });
  });

  describe('storage', () => {
    it('keeps monthly partitions ahead and drops those past ANALYTICS_RETENTION_DAYS (400)', async () => {
      const partitions = app.server.app.get(AnalyticsPartitions);
      const month = (offset: number) => {
        const d = new Date();
        return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset, 1)).toISOString().slice(0, 10);
      };
      const months = async () => [...new Set((await partitions.list()).map((p) => p.month))];
      expect(await months()).toEqual(expect.arrayContaining([month(0), month(1), month(2)]));
      // A partition of 15 months ago (made as if it were then), with a row in it.
      const old = new Date(Date.parse(`${month(-15)}T12:00:00Z`));
      await partitions.ensure(old);
      await app.query(`INSERT INTO analytics_events (app_id, occurred_at, visitor_id, name, pathname, device) VALUES ($1, $2, 1, 'pageview', '/', 'desktop')`, [
        appId,
        old.toISOString(),
      ]);
      expect(await months()).toContain(month(-15));
      const dropped = await partitions.dropExpired();
      expect(dropped).toEqual(expect.arrayContaining([`analytics_events_p${month(-15).slice(0, 7).replace('-', '_')}`]));
      expect(await months()).not.toContain(month(-15));
      expect(await months()).toEqual(expect.arrayContaining([month(-13), month(0), month(2)]));
      // Rollups stay.
      expect((await aggregate({ metrics: 'pageviews' })).pageviews).toBe(6);
    });

    it('erases an app’s analytics with the app', async () => {
      const doomed = (await dev.post('/v1/apps', { name: 'Doomed' }).expect(201)).body.appId as string;
      await collect({ appId: doomed, name: 'pageview', url: 'https://doomed.example/' }, '203.0.113.20', UA.iphone).expect(202);
      await flush();
      const count = async () => {
        const rows = await app.query(
          `SELECT (SELECT count(*) FROM analytics_events WHERE app_id = $1) + (SELECT count(*) FROM analytics_visits WHERE app_id = $1)
                + (SELECT count(*) FROM analytics_daily WHERE app_id = $1) + (SELECT count(*) FROM analytics_visitor_days WHERE app_id = $1) AS n`,
          [doomed],
        );
        return Number(rows[0].n);
      };
      expect(await count()).toBeGreaterThan(0);
      await dev.delete(`/v1/apps/${doomed}`).expect(204);
      expect(await count()).toBe(0);
      // Events still buffered for it when it went are dropped, not an error.
      await collect({ appId: doomed, name: 'pageview', url: 'https://doomed.example/' }, '203.0.113.20', UA.iphone).expect(202);
      await flush();
      expect(await count()).toBe(0);
    });
  });
});

describe(`analytics buffer on shutdown (${target}, child process, SIGTERM)`, () => {
  let env: Record<string, string>;
  let child: ChildServer | undefined;

  beforeAll(async () => {
    env = { ...(await freshEnvironment()), TRUST_PROXY: 'true' };
  });
  afterAll(async () => {
    await child?.stop('SIGKILL');
    await dropFreshResources(env);
  });

  it('writes every buffered pageview before the process exits', async () => {
    child = await startChildServer(env);
    const account = await request(child.url)
      .post('/v1/admin/accounts')
      .set('authorization', `Bearer ${ADMIN_TOKEN}`)
      .send({ email: 'term@example.com' })
      .expect(201);
    const auth = `Bearer ${account.body.apiKey}`;
    const appId = (await request(child.url).post('/v1/apps').set('authorization', auth).send({ name: 'Shutdown' }).expect(201)).body.appId as string;
    const sent = 300;
    await Promise.all(
      Array.from({ length: sent }, (_, i) =>
        request(child!.url)
          .post('/collect')
          .set({ 'content-type': 'text/plain', 'x-forwarded-for': `203.0.113.${i % 250}`, 'user-agent': `${UA.firefoxLinux} n${Math.floor(i / 250)}` })
          .send(JSON.stringify({ appId, name: 'pageview', url: `https://shutdown.example/p${i}` }))
          .expect(202),
      ),
    );
    // At once: most of them are still in memory.
    expect(await child.stop('SIGTERM')).toBe(0);
    expect(child.output()).not.toMatch(/could not be written/);
    child = await startChildServer(env);
    const result = await request(child.url)
      .get(`/v1/apps/${appId}/analytics/aggregate?period=day&metrics=pageviews,visitors`)
      .set('authorization', auth)
      .expect(200);
    expect(result.body.results).toEqual({ pageviews: { value: sent }, visitors: { value: sent } });
  }, 180_000);
});

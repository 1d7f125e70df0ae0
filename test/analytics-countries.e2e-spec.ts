import { createRequire } from 'node:module';
import { FIREFOX, flushAnalytics } from './support/analytics-events.js';
import { ApiClient, expectErrorBody, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { everyRow } from './support/privacy.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
/** Addresses in the bundled database's ranges (@ip-location-db/geo-whois-asn-country-mmdb, pinned), and one in none. */
const GB = '81.2.69.160';
const US = '8.8.8.8';
const IE_V6 = '2a00:1450:4001::1';
const PRIVATE = '10.1.2.3';

/** Countries (issue 47): looked up from the IP when an event is collected, the IP discarded; breakdown and filter by country. */
describe(`analytics countries (${target})`, () => {
  let app: TestApp;
  let dev: ApiClient;
  let appId: string;

  const collect = (ip: string, path: string, userAgent = FIREFOX) =>
    app
      .http()
      .post('/collect')
      .set({ 'x-forwarded-for': ip, 'user-agent': userAgent, 'content-type': 'text/plain' })
      .send(JSON.stringify({ appId, name: 'pageview', url: `https://geo.example${path}` }));
  const stats = async (kind: string, query: Record<string, string>) =>
    (await dev.get(`/v1/apps/${appId}/analytics/${kind}?${new URLSearchParams({ period: 'day', ...query }).toString()}`).expect(200)).body;

  beforeAll(async () => {
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, TRUST_PROXY: 'true' } });
    dev = await newAccountClient(app);
    appId = (await dev.post('/v1/apps', { name: 'Countries' }).expect(201)).body.appId;
    await collect(GB, '/').expect(202);
    await collect(GB, '/pricing').expect(202);
    await collect(GB, '/', CHROME).expect(202); // another visitor, same address
    await collect(US, '/').expect(202);
    await collect(IE_V6, '/').expect(202);
    await collect(`::ffff:${US}`, '/pricing', CHROME).expect(202); // an IPv4-mapped address is the IPv4 one
    await collect(PRIVATE, '/').expect(202);
    await flushAnalytics(app);
  });
  afterAll(() => app.close());

  it('stores each event with its country and no IP, in any column of any table', async () => {
    const rows = await app.query<{ country: string | null; n: number }>(
      `SELECT country, count(*)::int AS n FROM analytics_events WHERE app_id = $1 GROUP BY country ORDER BY country NULLS LAST`,
      [appId],
    );
    expect(rows).toEqual([
      { country: 'GB', n: 3 },
      { country: 'IE', n: 1 },
      { country: 'US', n: 2 },
      { country: null, n: 1 },
    ]);
    const everything = await everyRow((sql) => app.query(sql));
    for (const ip of [GB, US, IE_V6, PRIVATE, '2a00:1450:4001:']) expect(everything).not.toContain(ip);
  });

  it('breaks down by country (unknown as "(unknown)") and filters by it, from rollups and raw rows alike', async () => {
    const expected = [
      { country: 'GB', visitors: 2, pageviews: 3, visits: 2 },
      { country: 'US', visitors: 2, pageviews: 2, visits: 2 },
      { country: '(unknown)', visitors: 1, pageviews: 1, visits: 1 },
      { country: 'IE', visitors: 1, pageviews: 1, visits: 1 },
    ];
    expect((await stats('breakdown', { property: 'country', metrics: 'visitors,pageviews,visits' })).data).toEqual(expected);
    // Two filters: raw rows.
    expect((await stats('breakdown', { property: 'country', metrics: 'visitors,pageviews,visits', filters: 'device==desktop;page==/pricing' })).data).toEqual([
      // Visits are counted where they began: the GB visitor's began on /, the IPv4-mapped US visitor's on /pricing.
      { country: 'GB', visitors: 1, pageviews: 1, visits: 0 },
      { country: 'US', visitors: 1, pageviews: 1, visits: 1 },
    ]);
    expect((await stats('aggregate', { metrics: 'visitors,pageviews', filters: 'country==GB' })).results).toEqual({
      visitors: { value: 2 },
      pageviews: { value: 3 },
    });
    expect((await stats('aggregate', { metrics: 'pageviews', filters: 'country==GB;page==/pricing' })).results).toEqual({ pageviews: { value: 1 } });
  });

  it('reads GEOIP_DATABASE instead when set, and will not start on one it cannot read', async () => {
    const ipv4Only = createRequire(import.meta.url).resolve('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country-ipv4.mmdb');
    const other = await startTestApp({ env: { ...NO_RATE_LIMIT, TRUST_PROXY: 'true', GEOIP_DATABASE: ipv4Only } });
    try {
      const client = await newAccountClient(other);
      const id = (await client.post('/v1/apps', { name: 'Own database' }).expect(201)).body.appId as string;
      for (const ip of [GB, US, PRIVATE])
        await other
          .http()
          .post('/collect')
          .set({ 'x-forwarded-for': ip, 'user-agent': FIREFOX, 'content-type': 'text/plain' })
          .send(JSON.stringify({ appId: id, name: 'pageview', url: 'https://own.example/' }))
          .expect(202);
      await flushAnalytics(other);
      const body = (await client.get(`/v1/apps/${id}/analytics/breakdown?period=day&property=country`).expect(200)).body;
      expect(body.data).toEqual([
        { country: '(unknown)', visitors: 1 },
        { country: 'GB', visitors: 1 },
        { country: 'US', visitors: 1 },
      ]);
    } finally {
      await other.close();
    }
    await expect(startTestApp({ env: { GEOIP_DATABASE: '/nonexistent/GeoLite2-Country.mmdb' } })).rejects.toThrow(
      /GEOIP_DATABASE \/nonexistent\/GeoLite2-Country.mmdb cannot be read/,
    );
    // A file that is there but no MMDB database stops the start too, naming it.
    await expect(startTestApp({ env: { GEOIP_DATABASE: ipv4Only.replace(/[^/]+$/, 'package.json') } })).rejects.toThrow(
      /GEOIP_DATABASE \S+\/package\.json cannot be read: \w/,
    );
  });

  it('answers 400 naming an unknown property', async () => {
    const res = await dev.get(`/v1/apps/${appId}/analytics/breakdown?period=day&property=countries`).expect(400);
    expectErrorBody(res.body, 400, 'property "countries" is unknown');
  });
});

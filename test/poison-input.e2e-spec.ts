import { AnalyticsBuffer } from '../src/analytics/analytics-buffer.js';
import { AnalyticsInboxRepository } from '../src/analytics/analytics-inbox.repository.js';
import { UsageRollup } from '../src/billing/usage-rollup.js';
import { newId } from '../src/common/ids.js';
import { WritePaths } from '../src/health/write-paths.js';
import { FIREFOX, flushAnalytics, metricOf, pageview, sendBeacon } from './support/analytics-events.js';
import { ApiClient, expectErrorBody, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

/** Poison input never blocks others: what the database refuses is cleaned at collection, or set aside by the batch writer. */
describe(`poison input (${target})`, () => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceApp: string;
  let bobApp: string;

  const flush = () => flushAnalytics(app);
  const beacon = (appId: string, url: string, ip: string) => sendBeacon(app, appId, url, ip);
  const metric = (pattern: RegExp) => metricOf(app, pattern, NaN);
  const setAside = (writer: string) => metric(new RegExp(`^batch_rows_set_aside_total\\{writer="${writer}"\\} (\\d+)$`, 'm'));
  const rowsOf = (appId: string) =>
    app.query<{ pathname: string; utm_source: string | null }>(`SELECT pathname, utm_source FROM analytics_events WHERE app_id = $1 ORDER BY pathname`, [
      appId,
    ]);

  beforeAll(async () => {
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, TRUST_PROXY: 'true' } });
    alice = await newAccountClient(app);
    bob = await newAccountClient(app);
    aliceApp = (await alice.post('/v1/apps', { name: 'Poisoned' }).expect(201)).body.appId;
    bobApp = (await bob.post('/v1/apps', { name: 'Innocent' }).expect(201)).body.appId;
  });
  afterAll(() => app.close());

  it('cleans a beacon whose URL and utm_source hold %00, and writes the next beacons of another account', async () => {
    await beacon(aliceApp, 'https://a.example/x%00y?utm_source=%00evil%00&utm_campaign=%ED%A0%80', '203.0.113.1').expect(202);
    for (let i = 0; i < 3; i++) await beacon(bobApp, `https://b.example/page${i}`, `203.0.113.${10 + i}`).expect(202);
    await flush();
    expect(await rowsOf(bobApp)).toEqual([
      { pathname: '/page0', utm_source: null },
      { pathname: '/page1', utm_source: null },
      { pathname: '/page2', utm_source: null },
    ]);
    expect(await rowsOf(aliceApp)).toEqual([{ pathname: '/xy', utm_source: 'evil' }]);
    expect(await metric(/^analytics_buffered_events (\d+)$/m)).toBe(0);
    await app.http().get('/health/ready').expect(200);
  });

  it('refuses a custom event whose name or props hold a control character or a lone surrogate (400 naming the field)', async () => {
    const send = (body: object) =>
      app
        .http()
        .post('/collect')
        .set({ 'user-agent': FIREFOX, 'content-type': 'text/plain' })
        .send(JSON.stringify({ appId: bobApp, url: 'https://b.example/', ...body }));
    expectErrorBody((await send({ name: 'a\u0000b' }).expect(400)).body, 400, 'name');
    expectErrorBody((await send({ name: 'a\ud800b' }).expect(400)).body, 400, 'name');
    expectErrorBody((await send({ name: 'click', props: { plan: 'p\u0000' } }).expect(400)).body, 400, 'props');
    // A NUL anywhere in the body is refused before anything reads it (the request-wide well-formedness rule)…
    expectErrorBody((await send({ appId: 'app_\u0000', name: 'pageview' }).expect(400)).body, 400, 'appId');
    // …while an app id that cannot be one is an unknown app: 202, not looked up.
    await send({ appId: 'app_\u2028', name: 'pageview' }).expect(202);
  });

  it('sets aside an event the database refuses and writes the rest of its batch; the set-aside is counted and ready stays 200', async () => {
    const before = await setAside('analytics');
    const written = async (appId: string) =>
      (await app.query<{ n: number }>(`SELECT count(*)::int AS n FROM analytics_events WHERE app_id = $1`, [appId]))[0].n;
    const bobBefore = await written(bobApp);
    const event = (appId: string, pathname: string, visitor: number) => pageview({ appId, pathname, visitor });
    // As if a collection path had let a NUL through: the batch insert fails on it.
    const buffer = app.server.app.get(AnalyticsBuffer);
    await buffer.add(event(aliceApp, '/poison\u0000', 1));
    for (let i = 0; i < 9; i++) await buffer.add(event(bobApp, `/after-${i}`, 100 + i));
    await flush();
    expect(await written(bobApp)).toBe(bobBefore + 9);
    expect(await setAside('analytics')).toBe(before + 1);
    expect(await metric(/^analytics_buffered_events (\d+)$/m)).toBe(0);
    await app.http().get('/health/ready').expect(200);
    // The buffer is not stuck: the next events are written too.
    await buffer.add(event(bobApp, '/later', 200));
    await flush();
    expect(await written(bobApp)).toBe(bobBefore + 10);
  });

  it('sets aside a pending usage row the rollup refuses, rolls up the others, and keeps the refused one counted', async () => {
    const rollup = app.server.app.get(UsageRollup);
    await rollup.run();
    const before = await setAside('usage');
    const day = new Date().toISOString().slice(0, 10);
    // Alice's daily total is at the top of bigint: adding to it is out of range (SQLSTATE 22003).
    await app.query(`INSERT INTO usage_daily (account_id, meter, day, quantity) VALUES ($1, 'api.requests', '2000-01-01', 9223372036854775000)`, [
      alice.accountId,
    ]);
    const poison = newId('use');
    await app.query(`INSERT INTO usage_pending (record_id, account_id, meter, day, quantity) VALUES ($1, $2, 'api.requests', '2000-01-01', 1000)`, [
      poison,
      alice.accountId,
    ]);
    for (let i = 0; i < 5; i++)
      await app.query(`INSERT INTO usage_pending (record_id, account_id, meter, day, quantity) VALUES ($1, $2, 'api.requests', $3, 7)`, [
        newId('use'),
        bob.accountId,
        day,
      ]);
    await rollup.run();
    await rollup.run();
    const pending = await app.query<{ record_id: string }>(`SELECT record_id FROM usage_pending WHERE account_id IN ($1, $2)`, [
      alice.accountId,
      bob.accountId,
    ]);
    expect(pending).toEqual([{ record_id: poison }]);
    const [{ quantity }] = await app.query<{ quantity: string }>(
      `SELECT quantity::text FROM usage_daily WHERE account_id = $1 AND meter = 'api.requests' AND day = $2`,
      [bob.accountId, day],
    );
    expect(Number(quantity)).toBeGreaterThanOrEqual(35);
    expect(await setAside('usage')).toBe(before + 1);
    // Remembered: later runs skip it rather than splitting again.
    await rollup.run();
    expect(await setAside('usage')).toBe(before + 1);
    await app.http().get('/health/ready').expect(200);
    await app.query(`DELETE FROM usage_pending WHERE record_id = $1`, [poison]);
  });

  it('reports a write path that has been failing for more than 30 s in /health/ready (503 naming it), and recovers', async () => {
    const paths = app.server.app.get(WritePaths);
    const inbox = app.server.app.get(AnalyticsInboxRepository);
    let now = Date.now();
    paths.now = () => now;
    // The database unreachable, as the buffer's insert into the inbox sees it: an error without a SQLSTATE.
    let tries = 0;
    inbox.append = async () => {
      tries++;
      throw new Error('Connection terminated unexpectedly');
    };
    try {
      await beacon(bobApp, 'https://b.example/during-outage', '203.0.113.50').expect(202);
      await flush();
      // Tried (and maybe once more by the buffer's every-second run while the flush stitched the inbox), and kept.
      expect(tries).toBeGreaterThanOrEqual(1);
      expect(await metric(/^analytics_buffered_events (\d+)$/m)).toBe(1); // kept for the next try
      now += 29_000;
      await flush();
      await app.http().get('/health/ready').expect(200);
      now += 2_000;
      const res = await app.http().get('/health/ready').expect(503);
      expectErrorBody(res.body, 503, 'analytics writes failing for 31 s');
      expect(await metric(/^batch_writer_failing_seconds\{writer="analytics"\} (\d+)$/m)).toBe(31);
    } finally {
      delete (inbox as Partial<AnalyticsInboxRepository>).append; // the prototype's again
    }
    await flush();
    await app.http().get('/health/ready').expect(200);
    expect(await app.query(`SELECT pathname FROM analytics_events WHERE app_id = $1 AND pathname = '/during-outage'`, [bobApp])).toHaveLength(1);
    paths.now = Date.now;
  });
});

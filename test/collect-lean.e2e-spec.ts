import { CollectService } from '../src/analytics/collect.service.js';
import { FIREFOX, flushAnalytics, metricOf } from './support/analytics-events.js';
import { ApiClient, expectErrorBody, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

/**
 * POST /collect outside Nest (src/analytics/collect-route.ts): a plain beacon is answered on Node's request,
 * before Fastify; any other body is read once there and answered by the Fastify route as before.
 */
describe(`POST /collect, its lean path (${target})`, () => {
  let app: TestApp;
  let dev: ApiClient;
  let appId: string;
  /** Calls of the service from the route (`collect`) and from the lean path (`collectPlain`) since the last test began. */
  const calls = { route: 0, lean: 0 };

  const post = (body: string | Buffer, contentType = 'text/plain;charset=UTF-8', headers: Record<string, string> = {}) =>
    app
      .http()
      .post('/collect')
      .set({ 'x-forwarded-for': '198.51.100.7', 'user-agent': FIREFOX, 'content-type': contentType, ...headers })
      .send(body);
  const written = async (pathname: string) =>
    (await app.query<{ n: number }>(`SELECT count(*)::int AS n FROM analytics_events WHERE app_id = $1 AND pathname = $2`, [appId, pathname]))[0].n;
  const answered202 = () => metricOf(app, /^http_requests_total\{method="POST",route="\/collect",status="202"\} (\d+)$/m, 0);

  beforeAll(async () => {
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, TRUST_PROXY: 'true' } });
    dev = await newAccountClient(app);
    appId = (await dev.post('/v1/apps', { name: 'Lean beacons' }).expect(201)).body.appId;
    const service = app.server.app.get(CollectService);
    const [collect, collectPlain] = [service.collect.bind(service), service.collectPlain.bind(service)];
    service.collect = (...args) => (calls.route++, collect(...args));
    service.collectPlain = (...args) => (calls.lean++, collectPlain(...args));
  });
  beforeEach(() => Object.assign(calls, { route: 0, lean: 0 }));
  afterAll(() => app.close());

  it('answers a plain beacon itself: 202 with CORS, the request id and no body, counted in the metrics, the event written', async () => {
    const before = await answered202();
    const answer = await post(JSON.stringify({ appId, name: 'pageview', url: 'https://lean.example/first?utm_source=x', screenWidth: 1280 }), 'text/plain', {
      'x-request-id': 'lean-beacon-1',
    }).expect(202);
    expect(answer.headers).toMatchObject({ 'access-control-allow-origin': '*', 'x-request-id': 'lean-beacon-1', 'content-length': '0' });
    expect(answer.text).toBe('');
    expect(calls.lean).toBe(1);
    expect(calls.route).toBe(0);
    expect(await answered202()).toBe(before + 1);
    await flushAnalytics(app);
    expect(await written('/first')).toBe(1);
  });

  it('takes application/json the same way', async () => {
    await post(JSON.stringify({ appId, name: 'pageview', url: 'https://lean.example/json' }), 'application/json').expect(202);
    expect(calls.route).toBe(0);
    await flushAnalytics(app);
    expect(await written('/json')).toBe(1);
  });

  it('hands every other body to the route, which reads the same bytes and answers as before', async () => {
    const refused: Array<[string, string | RegExp]> = [
      [JSON.stringify({ appId, name: 'pageview', url: 'https://lean.example/', extra: 1 }), 'extra'],
      [JSON.stringify({ appId, name: 'pageview' }), 'url'],
      [JSON.stringify({ appId, name: 'page\u0000view', url: 'https://lean.example/' }), /name must not contain NUL/],
      [`{"appId":"${appId}","name":"\\ud800","url":"https://lean.example/"}`, /lone surrogates/],
      [JSON.stringify({ appId, name: 'click', url: 'https://lean.example/', props: { a: 'x'.repeat(201) } }), 'props'],
      ['{"appId": "app_1", "name": ', 'not valid JSON'],
      ['[1, 2]', 'JSON object'],
      [`{"__proto__": {"x": 1}, "appId": "${appId}"}`, 'not valid JSON'],
    ];
    for (const [body, mentions] of refused) {
      const answer = await post(body).expect(400);
      expectErrorBody(answer.body, 400, mentions);
      expect(answer.body.requestId).toBe(answer.headers['x-request-id']);
    }
    // The NUL, the lone surrogate, the broken JSON and the poisoned prototype never reach the service: the route's parser and string check refuse them.
    expect(calls.route).toBe(4);
  });

  it('takes through the route what only the route takes: a BOM, a string screen width, a body past the lean size', async () => {
    await post(Buffer.from(`\uFEFF${JSON.stringify({ appId, name: 'pageview', url: 'https://lean.example/bom' })}`)).expect(202);
    await post(JSON.stringify({ appId, name: 'pageview', url: 'https://lean.example/width', screenWidth: '1280' })).expect(202);
    const padded = `${JSON.stringify({ appId, name: 'pageview', url: 'https://lean.example/big' }).slice(0, -1)}${' '.repeat(20_000)}}`;
    await post(padded).expect(202);
    expect(calls.route).toBe(3);
    await flushAnalytics(app);
    expect([await written('/bom'), await written('/width'), await written('/big')]).toEqual([1, 1, 1]);
  });

  it('leaves other types to the route (415 before the body is read)', async () => {
    const answer = await post('appId=x', 'application/x-www-form-urlencoded').expect(415);
    expectErrorBody(answer.body, 415, 'Content-Type');
    expect(calls.lean + calls.route).toBe(0);
  });
});

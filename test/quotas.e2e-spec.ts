import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mostTokensOf } from '../src/ai/ai.service.js';
import { Meters } from '../src/billing/meters.js';
import { ApiClient, clientFor, expectErrorBody, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { OpenAiStub, startOpenAiStub } from './support/openai-stub.js';
import { portalSession } from './support/portal-session.js';
import { ADMIN_TOKEN, startTestApp, target, TestApp } from './support/test-app.js';
import { until } from './support/webhook-receiver.js';

const PROMPT = 'Say hello';
/** What one generation of PROMPT with maxTokens 5 holds: 5 + 9 bytes + the template's 32. It uses 7 (the stub counts 2 + 5). */
const ONE_CALL = mostTokensOf({ prompt: PROMPT, maxTokens: 5 });
const plan = (meters: object, aiRequestsPerMinute = 1000) => ({ name: 'Test', priceCents: 0, requestsPerMinute: 1000, aiRequestsPerMinute, meters });
const PLANS = {
  free: plan({ deployments: { included: 3, hard: true }, 'ai.tokens': { included: 5 * ONE_CALL, hard: true } }),
  // Room for one generation in flight, not two.
  single: plan({ 'ai.tokens': { included: 2 * ONE_CALL - 1, hard: true } }),
  roomy: plan({ 'ai.tokens': { included: 1_000_000, hard: true } }),
  slow: plan({}, 3),
};

describe(`hard quotas and AI limits under concurrency (${target})`, () => {
  let app: TestApp;
  /** A second instance on the same database and Redis (PostgreSQL only); closed last: closing it first breaks the first's connections. */
  let second: TestApp | undefined;
  let stub: OpenAiStub;

  const setPlan = (accountId: string, id: keyof typeof PLANS) =>
    app.http().put(`/v1/admin/accounts/${accountId}/plan`).set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ plan: id }).expect(200);
  const aiUsed = async (dev: ApiClient) =>
    ((await dev.get('/v1/billing').expect(200)).body.usage as Array<{ meter: string; used: number; included: number }>).find((u) => u.meter === 'ai.tokens')!;
  const held = async (accountId: string) =>
    (await app.query<{ quantity: string }>(`SELECT quantity FROM quota_reservations WHERE account_id = $1`, [accountId])).map((r) => Number(r.quantity));
  const generate = (dev: ApiClient, prompt = PROMPT, extra: object = {}) => dev.post('/v1/ai/generate', { prompt, maxTokens: 5, ...extra });

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plans-'));
    writeFileSync(join(dir, 'plans.json'), JSON.stringify(PLANS));
    stub = await startOpenAiStub();
    app = await startTestApp({
      env: { ...NO_RATE_LIMIT, PLANS_FILE: join(dir, 'plans.json'), AI_PROVIDER: 'openai', AI_BASE_URL: stub.url, AI_MODEL: 'gpt-test' },
    });
  });
  afterAll(async () => {
    await app.close();
    await second?.close();
    await stub.close();
  });

  /** 20 generations at once, spread over `clients` (one account, on one instance each), on a quota with room for 5. */
  async function twentyAtOnce(clients: ApiClient[]): Promise<void> {
    const [dev] = clients;
    const before = stub.requests.length;
    const answered: number[] = [];
    const release = stub.hold(); // no generation finishes (and gives back what it did not use) before all 20 were asked
    let calls: Array<Promise<{ status: number; body: Record<string, unknown> }>>;
    try {
      calls = Array.from({ length: 20 }, (_, i) =>
        generate(clients[i % clients.length]).then((res) => {
          answered.push(res.status);
          return res;
        }),
      );
      await until(() => stub.requests.length - before + answered.length >= 20, 30_000, 'every generation running or refused');
      expect(stub.requests.length - before).toBe(5);
      expect(answered).toEqual(Array(15).fill(402));
      expect(await held(dev.accountId)).toEqual(Array(5).fill(ONE_CALL));
    } finally {
      release();
    }
    const results = await Promise.all(calls);
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    const refused = results.find((r) => r.status === 402)!;
    expectErrorBody(refused.body, 402, `The ai.tokens quota of your plan (${5 * ONE_CALL} a month) is used up`);
    expect(refused.body.reason).toBe('quota_exceeded');

    // Settled: what was used is recorded, nothing is held, and the quota was never passed.
    expect(await held(dev.accountId)).toEqual([]);
    const [{ tokens }] = await app.query<{ tokens: number }>(`SELECT sum(total_tokens)::int AS tokens FROM ai_usage WHERE account_id = $1`, [dev.accountId]);
    expect(tokens).toBe(5 * 7);
    const usage = await aiUsed(dev);
    expect(usage.used).toBe(tokens);
    expect(usage.used).toBeLessThanOrEqual(usage.included);
  }

  it('lets exactly as many concurrent generations run as the hard ai.tokens quota has room for', async () => {
    await twentyAtOnce([await newAccountClient(app)]);
  });

  (target === 'postgres' ? it : it.skip)('…also spread over two instances on one PostgreSQL (skipped embedded: one process per database)', async () => {
    second = await startTestApp({ reuse: { dataDir: app.dataDir, env: app.env }, keep: true });
    const dev = await newAccountClient(app);
    await twentyAtOnce([dev, clientFor(second, dev.accountId, dev.apiKey)]);
  });

  it('holds quota while a generation runs, gives it all back when it fails, and lets the hold of a dead process lapse', async () => {
    const dev = await newAccountClient(app);
    await setPlan(dev.accountId, 'single');

    // One in flight holds ONE_CALL: a second does not fit beside it.
    const release = stub.hold();
    let first: Promise<{ status: number }>;
    try {
      const before = stub.requests.length;
      first = generate(dev).then((res) => res);
      await until(() => stub.requests.length > before, 10_000, 'the first generation at the model');
      expect(await held(dev.accountId)).toEqual([ONE_CALL]);
      const refused = await generate(dev).expect(402);
      expectErrorBody(refused.body, 402, `has ${ONE_CALL - 1} left, less than the ${ONE_CALL} this request may use`);
    } finally {
      release();
    }
    expect((await first).status).toBe(200);
    expect(await held(dev.accountId)).toEqual([]);

    // A failed generation gives back all it held; so does a streamed one once it has ended.
    await generate(dev, `${PROMPT} [status:500]`).expect(502);
    expect(await held(dev.accountId)).toEqual([]);
    const streamed = await generate(dev, PROMPT, { stream: true }).expect(200);
    expect(streamed.text).toContain('data: [DONE]');
    expect(await held(dev.accountId)).toEqual([]);
    expect((await aiUsed(dev)).used).toBe(14);

    // A process that died mid-generation never settles its hold: it counts until it expires, then not at all.
    await app.server.app.get(Meters).reserve(dev.accountId, 'ai.tokens', ONE_CALL, 60_000);
    await generate(dev).expect(402);
    await app.query(`UPDATE quota_reservations SET expires_at = now() - interval '1 second' WHERE account_id = $1`, [dev.accountId]);
    await generate(dev).expect(200);
    expect(await held(dev.accountId)).toEqual([]);
    const usage = await aiUsed(dev);
    expect(usage.used).toBe(21);
    expect(usage.used).toBeLessThanOrEqual(usage.included);
  });

  it('counts a deploy in its own transaction: 10 concurrent deploys with room for 3 make 3', async () => {
    const dev = await newAccountClient(app);
    const appId = (await dev.post('/v1/apps', { name: 'Crowded' }).expect(201)).body.appId as string;
    const results = await Promise.all(Array.from({ length: 10 }, () => dev.post('/v1/apps/deploy', { appId, env: 'production' })));
    expect(results.map((r) => r.status).sort()).toEqual([...Array(3).fill(200), ...Array(7).fill(402)]);
    expect(await app.query(`SELECT count(*)::int AS n FROM deployments WHERE app_id = $1`, [appId])).toEqual([{ n: 3 }]);
    const usage = (await dev.get('/v1/billing').expect(200)).body.usage as Array<{ meter: string; used: number }>;
    expect(usage.find((u) => u.meter === 'deployments')!.used).toBe(3);
  });

  it('checks a landing page’s generations against the quota before the first, and settles each', async () => {
    const dev = await newAccountClient(app); // free: room for 5 short generations, far from a page's 16 fields
    const appId = (await dev.post('/v1/apps', { name: 'Quota page', description: 'A page that does not fit' }).expect(201)).body.appId as string;
    const before = stub.requests.length;
    const refused = await dev.post(`/v1/apps/${appId}/landing-page/generate`, {}).expect(402);
    expectErrorBody(refused.body, 402, 'The ai.tokens quota of your plan');
    expect(stub.requests.length).toBe(before);
    expect((await dev.get(`/v1/apps/${appId}/landing-page`).expect(200)).body.source).toBe('default');

    await setPlan(dev.accountId, 'roomy');
    expect((await dev.post(`/v1/apps/${appId}/landing-page/generate`, {}).expect(200)).body.source).toBe('generated');
    expect(await held(dev.accountId)).toEqual([]);
    const [{ tokens }] = await app.query<{ tokens: number }>(`SELECT sum(total_tokens)::int AS tokens FROM ai_usage WHERE account_id = $1`, [dev.accountId]);
    expect((await aiUsed(dev)).used).toBe(tokens);
  });

  it('counts portal AI actions in the account’s AI rate limit, with the API’s, and in its quotas', async () => {
    const dev = await portalSession(app, 'portal-ai@example.com');
    await setPlan(dev.accountId, 'slow'); // 3 AI requests a minute
    const portal = (path: string, form: Record<string, string> = {}) =>
      app
        .http()
        .post(path)
        .set('cookie', dev.cookie)
        .type('form')
        .send({ _csrf: dev.csrf, ...form });
    const created = await portal('/portal/apps', { name: 'Portal AI' }).expect(303);
    const appPath = created.headers.location as string;

    // One through the API, then six at once through the portal: two fit in the minute's three.
    await app.http().post('/v1/ai/generate').set('authorization', `Bearer ${dev.apiKey}`).send({ prompt: PROMPT, maxTokens: 5 }).expect(200);
    const results = await Promise.all(Array.from({ length: 6 }, () => portal(`${appPath}/generate`, { prompt: 'for parents' })));
    expect(results.map((r) => r.status).sort()).toEqual([303, 303, 429, 429, 429, 429]);
    const limited = results.find((r) => r.status === 429)!;
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.text).toContain('Rate limit reached. Retry in 60 seconds.');
    await app.http().post('/v1/ai/generate').set('authorization', `Bearer ${dev.apiKey}`).send({ prompt: PROMPT, maxTokens: 5 }).expect(429);

    // And the plan's hard ai.tokens quota (free: room for 5 short generations, not a page).
    await setPlan(dev.accountId, 'free');
    const before = stub.requests.length;
    const refused = await portal(`${appPath}/generate`, { prompt: 'for parents' });
    expect(refused.status).toBe(402);
    expect(refused.text).toContain('The ai.tokens quota of your plan');
    expect(stub.requests.length).toBe(before);
  });

  it('documents the 402 of every route a hard quota can refuse', async () => {
    const paths = (await app.http().get('/docs/openapi.json').expect(200)).body.paths;
    for (const op of [paths['/v1/ai/generate'].post, paths['/v1/apps/{appId}/landing-page/generate'].post, paths['/v1/apps/deploy'].post])
      expect(op.responses['402'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorBody');
  });
});

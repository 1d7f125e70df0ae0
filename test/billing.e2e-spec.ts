import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnalyticsBuffer } from '../src/analytics/analytics-buffer.js';
import { ApiRequestMeter } from '../src/billing/api-request-meter.js';
import { Meters } from '../src/billing/meters.js';
import { UsageRollup } from '../src/billing/usage-rollup.js';
import { periodOf } from '../src/billing/plans.js';
import { StatementsService } from '../src/billing/statements.service.js';
import { ApiClient, EventRecorder, EventRecorderModule, expectErrorBody, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { OpenAiStub, startOpenAiStub } from './support/openai-stub.js';
import { ADMIN_TOKEN, startTestApp, target, TestApp } from './support/test-app.js';
import { Receiver, until } from './support/webhook-receiver.js';

const PLANS = {
  free: {
    name: 'Free',
    priceCents: 0,
    requestsPerMinute: 500,
    aiRequestsPerMinute: 500,
    meters: {
      deployments: { included: 5, hard: true },
      'ai.tokens': { included: 100000, hard: true },
      'analytics.events': { included: 10, hard: false, overageCentsPerUnit: 3 },
      'webhook.deliveries': { included: 1000, hard: false },
    },
  },
  pro: {
    name: 'Pro',
    priceCents: 2000,
    requestsPerMinute: 3,
    aiRequestsPerMinute: 2,
    meters: { deployments: { included: 10, hard: false, overageCentsPerUnit: 7 } },
  },
  tiny: { name: 'Tiny', priceCents: 100, requestsPerMinute: 500, aiRequestsPerMinute: 500, meters: { 'ai.tokens': { included: 60, hard: true } } },
};
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0';

describe(`billing (${target})`, () => {
  let app: TestApp;
  let stub: OpenAiStub;
  let events: EventRecorder;
  const receiver = new Receiver();

  const admin = () => ({ authorization: `Bearer ${ADMIN_TOKEN}` });
  const usageOf = async (client: ApiClient) => {
    const body = (await client.get('/v1/billing').expect(200)).body as { usage: Array<{ meter: string; used: number }> };
    return Object.fromEntries(body.usage.map((u) => [u.meter, u.used]));
  };
  const setPlan = (accountId: string, plan: string) => app.http().put(`/v1/admin/accounts/${accountId}/plan`).set(admin()).send({ plan });

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plans-'));
    writeFileSync(join(dir, 'plans.json'), JSON.stringify(PLANS));
    stub = await startOpenAiStub();
    await receiver.start();
    app = await startTestApp({
      env: {
        ...NO_RATE_LIMIT,
        PLANS_FILE: join(dir, 'plans.json'),
        AI_PROVIDER: 'openai',
        AI_BASE_URL: stub.url,
        AI_MODEL: 'gpt-test',
        WEBHOOK_RETRY_BASE_MS: '50',
      },
      modules: [EventRecorderModule],
    });
    events = app.server.app.get(EventRecorder);
  });
  afterAll(async () => {
    await app.close();
    await stub.close();
    await receiver.stop();
  });

  it('meters what was done: deployments, AI tokens, analytics events, webhook deliveries, API requests', async () => {
    const dev = await newAccountClient(app);
    await dev.post('/v1/webhook-endpoints', { url: `${receiver.url}/meters`, events: ['deployment.succeeded'] }).expect(201);
    const appId = (await dev.post('/v1/apps', { name: 'Metered' }).expect(201)).body.appId as string;
    for (let i = 0; i < 3; i++) await dev.post('/v1/apps/deploy', { appId, env: 'production' }).expect(200);
    const tokens: number[] = [];
    for (const prompt of ['one two three', 'four five']) tokens.push((await dev.post('/v1/ai/generate', { prompt }).expect(200)).body.usage.totalTokens);
    for (let i = 0; i < 4; i++) {
      await app
        .http()
        .post('/collect')
        .set({ 'user-agent': FIREFOX, 'content-type': 'text/plain' })
        .send(JSON.stringify({ appId, name: 'pageview', url: `https://metered.example/${i}` }))
        .expect(202);
    }
    await app.server.app.get(AnalyticsBuffer).flush();
    await until(() => receiver.at('/meters').length === 3, 10_000, 'three deliveries');
    await until(async () => (await usageOf(dev))['webhook.deliveries'] === 3, 10_000, 'three deliveries metered');

    const [{ tokens: recorded }] = await app.query(`SELECT sum(total_tokens)::int AS tokens FROM ai_usage WHERE account_id = $1`, [dev.accountId]);
    expect(recorded).toBe(tokens[0] + tokens[1]);
    const usage = await usageOf(dev);
    expect(usage).toMatchObject({ deployments: 3, 'ai.tokens': recorded, 'analytics.events': 4, 'webhook.deliveries': 3 });

    // api.requests: counted in memory, written by the flush; exactly the authenticated requests made.
    const quiet = await newAccountClient(app);
    for (let i = 0; i < 7; i++) await quiet.get('/v1/apps').expect(200);
    await app.server.app.get(ApiRequestMeter).flush();
    const billing = (await quiet.get('/v1/billing').expect(200)).body;
    expect(billing).toEqual({
      plan: { id: 'free', name: 'Free' },
      period: periodOf(new Date()),
      usage: [
        { meter: 'api.requests', used: 7, included: null, percent: null, hard: false },
        { meter: 'ai.tokens', used: 0, included: 100000, percent: 0, hard: true },
        { meter: 'deployments', used: 0, included: 5, percent: 0, hard: true },
        { meter: 'analytics.events', used: 0, included: 10, percent: 0, hard: false },
        { meter: 'webhook.deliveries', used: 0, included: 1000, percent: 0, hard: false },
        // This test's plans file lists no bandwidth: unlimited.
        { meter: 'bandwidth.bytes', used: 0, included: null, percent: null, hard: false },
        // Nor storage: unlimited; `used` is what the account keeps now.
        { meter: 'storage.bytes', used: 0, included: null, percent: null, hard: false },
        // Nor the functions' meters; the duration's line names the instances' memory limit.
        { meter: 'functions.requests', used: 0, included: null, percent: null, hard: false },
        { meter: 'functions.duration_ms', used: 0, included: null, percent: null, hard: false, memoryMb: 128 },
      ],
    });
    // Each thing once in the ledger: a delivery retried or recorded twice is one row.
    const [{ rows, things }] = await app.query(
      `SELECT count(*)::int AS rows, count(DISTINCT (meter, source_id))::int AS things FROM usage_records WHERE account_id = $1`,
      [dev.accountId],
    );
    expect(rows).toBe(things);
  });

  it('counts usage waiting to be rolled up, and rolls it up exactly once', async () => {
    const dev = await newAccountClient(app);
    const meters = app.server.app.get(Meters);
    const rollup = app.server.app.get(UsageRollup);
    await rollup.run(); // whatever other tests left pending
    // Written concurrently: no shared row, so none waits for another; one thing given twice is recorded once.
    await Promise.all(['a', 'b', 'c', 'a'].map((thing) => meters.record(dev.accountId, 'webhook.deliveries', 1, `rollup-test:${dev.accountId}:${thing}`)));
    await meters.recordMany([
      { accountId: dev.accountId, meter: 'webhook.deliveries', quantity: 1, sourceId: `rollup-test:${dev.accountId}:d` },
      { accountId: dev.accountId, meter: 'webhook.deliveries', quantity: 1, sourceId: `rollup-test:${dev.accountId}:b` },
    ]);
    const pending = () => app.query<{ n: number }>(`SELECT coalesce(sum(quantity), 0)::int AS n FROM usage_pending WHERE account_id = $1`, [dev.accountId]);
    const daily = () => app.query<{ n: number }>(`SELECT coalesce(sum(quantity), 0)::int AS n FROM usage_daily WHERE account_id = $1`, [dev.accountId]);
    // Both tables in one statement (one snapshot): two reads would count a row twice if the every-second rollup
    // moved it between them.
    const both = () =>
      app.query<{ n: number }>(
        `SELECT (SELECT coalesce(sum(quantity), 0) FROM usage_pending WHERE account_id = $1)::int
              + (SELECT coalesce(sum(quantity), 0) FROM usage_daily WHERE account_id = $1)::int AS n`,
        [dev.accountId],
      );
    // Readers see it whether or not the every-second rollup has moved it yet (that it is seen while
    // pending, with no rollup running, is test/integration/meters.int-spec.ts's) …
    expect((await both())[0].n).toBe(4);
    expect((await usageOf(dev))['webhook.deliveries']).toBe(4);
    // … and the same after it, moved from one table to the other; a second run moves nothing.
    await rollup.run();
    await rollup.run();
    expect([(await pending())[0].n, (await daily())[0].n]).toEqual([0, 4]);
    expect((await usageOf(dev))['webhook.deliveries']).toBe(4);
  });

  it('answers 402 at a hard quota before doing anything, and announces 80 % and 100 % exactly once', async () => {
    const dev = await newAccountClient(app);
    await dev.post('/v1/webhook-endpoints', { url: `${receiver.url}/thresholds`, events: ['billing.*'] }).expect(201);
    const appId = (await dev.post('/v1/apps', { name: 'Capped' }).expect(201)).body.appId as string;
    for (let i = 0; i < 5; i++) await dev.post('/v1/apps/deploy', { appId, env: 'production' }).expect(200);
    const refused = await dev.post('/v1/apps/deploy', { appId, env: 'production' }).expect(402);
    expectErrorBody(refused.body, 402, `The deployments quota of your plan (5 a month) is used up; it renews on ${periodOf(new Date()).end}.`);
    expect(refused.body.reason).toBe('quota_exceeded');
    await dev.post('/v1/apps/deploy', { appId, env: 'staging' }).expect(402);
    expect(await app.query(`SELECT count(*)::int AS n FROM deployments WHERE app_id = $1`, [appId])).toEqual([{ n: 5 }]);
    expect((await events.of('deployment.succeeded')).filter((e) => e.data.appId === appId)).toHaveLength(5);
    expect((await usageOf(dev)).deployments).toBe(5);

    // A soft quota goes past 100 % and bills overage; its thresholds still fire once each.
    for (let i = 0; i < 14; i++) {
      await app
        .http()
        .post('/collect')
        .set({ 'user-agent': FIREFOX, 'content-type': 'text/plain' })
        .send(JSON.stringify({ appId, name: 'pageview', url: `https://capped.example/${i}` }))
        .expect(202);
      if (i % 3 === 0) await app.server.app.get(AnalyticsBuffer).flush();
    }
    await app.server.app.get(AnalyticsBuffer).flush();
    const thresholds = (await events.of('billing.usage.threshold_reached')).filter((e) => e.accountId === dev.accountId).map((e) => e.data);
    expect(thresholds).toEqual([
      { meter: 'deployments', threshold: 80, used: 4, included: 5, periodStart: periodOf(new Date()).start },
      { meter: 'deployments', threshold: 100, used: 5, included: 5, periodStart: periodOf(new Date()).start },
      expect.objectContaining({ meter: 'analytics.events', threshold: 80, included: 10 }),
      expect.objectContaining({ meter: 'analytics.events', threshold: 100, included: 10 }),
    ]);
    await until(() => receiver.at('/thresholds').length === 4, 10_000, 'four threshold webhooks');
    const statement = (await dev.get('/v1/billing/statements').expect(200)).body.data[0];
    expect(statement.status).toBe('open');
    expect(statement.lines.find((l: { meter: string }) => l.meter === 'analytics.events')).toEqual({
      meter: 'analytics.events',
      quantity: 14,
      included: 10,
      overage: 4,
      unitPriceCents: 3,
      unitSize: 1,
      amountCents: 12,
    });
    expect(statement.totalCents).toBe(12);
  });

  it('refuses AI generation that could go past a hard token quota, without calling the model', async () => {
    const dev = await newAccountClient(app);
    await setPlan(dev.accountId, 'tiny').expect(200);
    // Holds 5 + the prompt's 17 bytes + 32 (see quotas.e2e-spec.ts) of the 60, uses 9 (the stub's 4 + 5).
    await dev.post('/v1/ai/generate', { prompt: 'use up the tokens', maxTokens: 5 }).expect(200);
    const calls = stub.requests.length;
    const refused = await dev.post('/v1/ai/generate', { prompt: 'one more' }).expect(402);
    expectErrorBody(refused.body, 402, 'The ai.tokens quota of your plan (60 a month) has 51 left, less than the 296 this request may use');
    expect(stub.requests.length).toBe(calls);
    expect(await app.query(`SELECT count(*)::int AS n FROM ai_usage WHERE account_id = $1`, [dev.accountId])).toEqual([{ n: 1 }]);
  });

  it('changes rate limits with the plan, and emits billing.plan.changed', async () => {
    const dev = await newAccountClient(app);
    const before = await dev.get('/v1/apps').expect(200);
    expect(before.headers['x-ratelimit-limit']).toBe('500');
    const changed = (await setPlan(dev.accountId, 'pro').expect(200)).body;
    expect(changed).toMatchObject({ accountId: dev.accountId, plan: { id: 'pro', name: 'Pro' } });
    expect((await events.of('billing.plan.changed')).filter((e) => e.accountId === dev.accountId).map((e) => e.data)).toEqual([{ from: 'free', to: 'pro' }]);
    // Pro allows 3 a minute; one was made already.
    const after = await dev.get('/v1/apps').expect(200);
    expect(after.headers['x-ratelimit-limit']).toBe('3');
    await dev.get('/v1/apps').expect(200);
    const limited = await dev.get('/v1/apps').expect(429);
    expect(limited.headers['retry-after']).toBeDefined();
    // The same plan again changes nothing and says nothing.
    await setPlan(dev.accountId, 'pro').expect(200);
    expect((await events.of('billing.plan.changed')).filter((e) => e.accountId === dev.accountId)).toHaveLength(1);
    expectErrorBody((await setPlan(dev.accountId, 'platinum').expect(400)).body, 400, 'plan "platinum" does not exist');
    expectErrorBody((await app.http().get('/v1/admin/accounts/acc_missing').set(admin()).expect(404)).body, 404);
    const shown = (await app.http().get(`/v1/admin/accounts/${dev.accountId}`).set(admin()).expect(200)).body;
    expect(shown).toMatchObject({ accountId: dev.accountId, plan: { id: 'pro' }, period: periodOf(new Date()) });
    expect(shown.usage.find((u: { meter: string }) => u.meter === 'deployments')).toMatchObject({ included: 10, hard: false });
  });

  it('closes a month’s statement once, however many times and on however many workers the job runs', async () => {
    const dev = await newAccountClient(app);
    const appId = (await dev.post('/v1/apps', { name: 'Closing' }).expect(201)).body.appId as string;
    await dev.post('/v1/apps/deploy', { appId, env: 'production' }).expect(200);
    await setPlan(dev.accountId, 'tiny').expect(200);
    const openId = (await dev.get('/v1/billing/statements').expect(200)).body.data[0].id as string;
    // The job closes the month that just ended; here it is told to close this one.
    const period = periodOf(new Date());
    // A second instance on PostgreSQL, with a recorder of its own: whichever instance wins the close
    // commits the event, and its own dispatcher dispatches it.
    const second =
      target === 'postgres' ? await startTestApp({ reuse: { dataDir: app.dataDir, env: app.env }, keep: true, modules: [EventRecorderModule] }) : null;
    try {
      const workers = [app, second ?? app].map((a) => a.server.app.get(StatementsService));
      const closed = await Promise.all([workers[0].closePeriod(period), workers[1].closePeriod(period), workers[0].closePeriod(period)]);
      expect(closed.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      const rows = await app.query(`SELECT id, total_cents FROM statements WHERE account_id = $1`, [dev.accountId]);
      expect(rows).toHaveLength(1);
      expect(rows[0].id).toBe(openId);
      const recorders = second ? [events, second.server.app.get(EventRecorder)] : [events];
      const closedEvents = (await Promise.all(recorders.map((r) => r.of('billing.statement.closed', dev.accountId)))).flat();
      expect(closedEvents.map((e) => e.data)).toEqual([{ statementId: rows[0].id, period, totalCents: 100 }]);
      const stored = await app.query(`SELECT id FROM events WHERE kind = 'billing.statement.closed' AND account_id = $1`, [dev.accountId]);
      expect(stored).toEqual([{ id: closedEvents[0].id }]);
    } finally {
      await second?.close();
    }
    // Listed as closed, with the same id it had while open.
    const listed = (await dev.get('/v1/billing/statements').expect(200)).body;
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).toMatchObject({ id: openId, status: 'closed', plan: { id: 'tiny', name: 'Tiny' }, totalCents: 100, currency: 'usd' });
    expect(listed.data[0].lines[0]).toEqual({ meter: 'plan', quantity: 1, included: null, overage: 0, unitPriceCents: 100, unitSize: 1, amountCents: 100 });
    expect(listed.data[0].lines.find((l: { meter: string }) => l.meter === 'deployments')).toMatchObject({
      quantity: 1,
      included: null,
      overage: 0,
      amountCents: 0,
    });
  });
});

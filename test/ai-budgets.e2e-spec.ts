import OpenAI from 'openai';
import { OpenAiStub, startOpenAiStub } from './support/openai-stub.js';
import { createAccount, createServiceAccount, startTestApp, target, TestApp } from './support/test-app.js';

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** Seconds from now to the next UTC midnight / first of the month: what Retry-After says when a budget is spent. */
function secondsUntil(period: 'day' | 'month'): number {
  const now = new Date();
  const end =
    period === 'day' ? Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) : Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.ceil((end - now.getTime()) / 1000);
}

/** What a chat call of one user message holds (docs/api.md): its max_tokens, its messages' bytes as JSON (beside its tools… when sent), and 32. */
function holdOf(content: string, maxTokens = 5): number {
  return maxTokens + Buffer.byteLength(JSON.stringify([[{ role: 'user', content }], null, null, null])) + 32;
}

describe(`AI budgets per API key and service account (${target})`, () => {
  let stub: OpenAiStub;
  let app: TestApp;
  let key: string;
  let accountId: string;

  beforeAll(async () => {
    stub = await startOpenAiStub();
    app = await startTestApp({
      env: { RATE_LIMIT_AI_MAX: '1000', RATE_LIMIT_MAX: '1000', AI_PROVIDER: 'openai', AI_BASE_URL: stub.url, AI_MODEL: 'stub-model' },
    });
    ({ apiKey: key, accountId } = await createAccount(app));
  });
  afterAll(async () => {
    await app?.close();
    await stub?.close();
  });

  const newKey = async (budget: object) =>
    (
      await app
        .http()
        .post('/v1/api-keys')
        .set(bearer(key))
        .send({ name: 'budgeted', scopes: ['ai:generate'], ...budget })
        .expect(201)
    ).body;
  const chat = (apiKey: string, content: string, maxRetries = 0) =>
    new OpenAI({ baseURL: `${app.url}/v1`, apiKey, maxRetries }).chat.completions.create({
      model: 'stub-model',
      messages: [{ role: 'user', content }],
      max_tokens: 5,
    });
  /** The ai.tokens a subject's calls recorded (the usage ledger). */
  const recorded = async (subject: string) =>
    Number(
      (await app.query<{ n: string }>(`SELECT coalesce(sum(quantity), 0) AS n FROM usage_records WHERE subject_id = $1 AND meter = 'ai.tokens'`, [subject]))[0]
        .n,
    );

  it('sets, shows, changes and removes a key’s budget, checking every value', async () => {
    const made = await newKey({ aiTokensPerDay: 5000 });
    expect(made).toMatchObject({ aiTokensPerDay: 5000, aiTokensPerMonth: null, key: expect.stringMatching(/^sk_/) });
    const listed = (await app.http().get('/v1/api-keys').set(bearer(key)).expect(200)).body.data.find((k: { id: string }) => k.id === made.id);
    expect(listed).toMatchObject({ aiTokensPerDay: 5000, aiTokensPerMonth: null });

    const changed = await app.http().patch(`/v1/api-keys/${made.id}`).set(bearer(key)).send({ aiTokensPerMonth: 90000 }).expect(200);
    expect(changed.body).toMatchObject({ id: made.id, aiTokensPerDay: 5000, aiTokensPerMonth: 90000 });
    expect(changed.body).not.toHaveProperty('key');
    const cleared = await app.http().patch(`/v1/api-keys/${made.id}`).set(bearer(key)).send({ aiTokensPerDay: null }).expect(200);
    expect(cleared.body).toMatchObject({ aiTokensPerDay: null, aiTokensPerMonth: 90000 });
    expect(await app.query(`SELECT ai_tokens_per_day, ai_tokens_per_month FROM api_keys WHERE id = $1`, [made.id])).toEqual([
      { ai_tokens_per_day: null, ai_tokens_per_month: 90000 },
    ]);

    for (const [body, message] of [
      [{ aiTokensPerDay: 0 }, 'aiTokensPerDay must be between 1 and 2000000000, or null'],
      [{ aiTokensPerDay: 1.5 }, 'aiTokensPerDay must be a whole number or null'],
      [{ aiTokensPerMonth: '100' }, 'aiTokensPerMonth must be a whole number or null'],
      [{}, 'aiTokensPerDay or aiTokensPerMonth must be given (null removes a limit)'],
      [{ name: 'renamed' }, 'property name should not exist'],
    ] as const) {
      const res = await app.http().patch(`/v1/api-keys/${made.id}`).set(bearer(key)).send(body).expect(400);
      expect(res.body).toMatchObject({ error: true, code: 400, message: expect.stringContaining(message) });
    }
    const missing = await app.http().patch('/v1/api-keys/key_00000000000000000000000000').set(bearer(key)).send({ aiTokensPerDay: 1 }).expect(404);
    expect(missing.body.reason).toBe('api_key_not_found');
    const other = await createAccount(app);
    await app.http().patch(`/v1/api-keys/${made.id}`).set(bearer(other.apiKey)).send({ aiTokensPerDay: 1 }).expect(404);
  });

  it('refuses a call past the day’s budget with 429 ai_budget_exhausted, Retry-After to midnight UTC and no retry by the client', async () => {
    // A call holds its most and uses 7 (2 prompt words + 5): the first fits, the second no longer does.
    const budget = holdOf('Hello [budget-day]') + 3;
    const budgeted = await newKey({ aiTokensPerDay: budget });
    const first = await chat(budgeted.key, 'Hello [budget-day]');
    expect(first.usage!.total_tokens).toBe(7);
    expect(await recorded(budgeted.id)).toBe(7);

    // The client's default retries (2): it must not retry, told by x-should-retry: false.
    const err = await chat(budgeted.key, 'Again [budget-day]', 2).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    const refused = err as InstanceType<typeof OpenAI.RateLimitError>;
    expect(refused.headers?.get('x-should-retry')).toBe('false');
    const retryAfter = Number(refused.headers?.get('retry-after'));
    expect(Math.abs(retryAfter - secondsUntil('day'))).toBeLessThanOrEqual(5);
    expect(stub.requestsWith('Again [budget-day]')).toEqual([]);

    const raw = await app
      .http()
      .post('/v1/chat/completions')
      .set(bearer(budgeted.key))
      .send({ model: 'stub-model', messages: [{ role: 'user', content: 'Again [budget-day]' }], max_tokens: 5 })
      .expect(429);
    expect(raw.body).toEqual({
      error: true,
      code: 429,
      reason: 'ai_budget_exhausted',
      message: expect.stringMatching(
        new RegExp(
          `^The AI budget of this API key \\(${budget} tokens a day\\) has ${budget - 7} left, less than the ${holdOf('Again [budget-day]')} this request may use; it renews at \\d{4}-\\d\\d-\\d\\dT00:00:00Z\\.$`,
        ),
      ),
      requestId: expect.any(String),
    });
    // /v1/ai/generate and /v1/embeddings count against the same budget.
    expect((await app.http().post('/v1/ai/generate').set(bearer(budgeted.key)).send({ prompt: 'x', maxTokens: 100 }).expect(429)).body.reason).toBe(
      'ai_budget_exhausted',
    );
    expect(
      (
        await app
          .http()
          .post('/v1/embeddings')
          .set(bearer(budgeted.key))
          .send({ model: 'stub-model', input: 'x'.repeat(200) })
          .expect(429)
      ).body.reason,
    ).toBe('ai_budget_exhausted');
    // The account's other keys are not affected.
    await chat(key, 'Owner [budget-day]');

    // Raised, it works at once (the key's cached verification is dropped).
    await app.http().patch(`/v1/api-keys/${budgeted.id}`).set(bearer(key)).send({ aiTokensPerDay: 1000 }).expect(200);
    await chat(budgeted.key, 'Raised [budget-day]');
    expect(await app.query(`SELECT * FROM quota_reservations WHERE account_id = $1`, [accountId])).toEqual([]);
  });

  it('holds the month’s budget too, and says which', async () => {
    const budgeted = await newKey({ aiTokensPerDay: 100000, aiTokensPerMonth: 10 });
    const res = await app
      .http()
      .post('/v1/chat/completions')
      .set(bearer(budgeted.key))
      .send({ model: 'stub-model', messages: [{ role: 'user', content: 'hi' }] })
      .expect(429);
    expect(res.body.message).toMatch(/^The AI budget of this API key \(10 tokens a month\) has 10 left/);
    expect(Math.abs(Number(res.headers['retry-after']) - secondsUntil('month'))).toBeLessThanOrEqual(5);
  });

  it('counts the tokens of every access token of a service account against its budget together', async () => {
    const sa = await createServiceAccount(app, key, 'budgeted-sa', ['ai:generate']);
    const budget = holdOf('First [budget-sa]') + 3;
    await app.http().patch(`/v1/service-accounts/${sa.id}`).set(bearer(key)).send({ aiTokensPerDay: budget }).expect(200);
    const listed = (await app.http().get('/v1/service-accounts').set(bearer(key)).expect(200)).body.data.find((s: { id: string }) => s.id === sa.id);
    expect(listed).toMatchObject({ aiTokensPerDay: budget, aiTokensPerMonth: null });
    const token = async () =>
      (await app.http().post('/v1/oauth/token').send({ grant_type: 'client_credentials', client_id: sa.clientId, client_secret: sa.clientSecret }).expect(200))
        .body.access_token as string;
    const [one, two] = [await token(), await token()];
    await chat(one, 'First [budget-sa]');
    expect(await recorded(sa.id)).toBe(7);
    const res = await app
      .http()
      .post('/v1/chat/completions')
      .set(bearer(two))
      .send({ model: 'stub-model', messages: [{ role: 'user', content: 'Second [budget-sa]' }], max_tokens: 5 })
      .expect(429);
    expect(res.body).toMatchObject({
      reason: 'ai_budget_exhausted',
      message: expect.stringContaining(`The AI budget of this service account (${budget} tokens a day)`),
    });
    // Removed: both tokens may call again at once.
    await app.http().patch(`/v1/service-accounts/${sa.id}`).set(bearer(key)).send({ aiTokensPerDay: null }).expect(200);
    await chat(two, 'Third [budget-sa]');
    expect(await recorded(sa.id)).toBe(14);
  });

  it('never lets 20 concurrent calls overshoot a small budget by more than one call’s max_tokens', async () => {
    const BUDGET = 400;
    const budgeted = await newKey({ aiTokensPerDay: BUDGET });
    // Each call uses 47 tokens (42 prompt words + 5) and holds the most it may use, about 300 (5 + its messages'
    // bytes + 32). Checked against recorded usage alone, all 20 would pass together (940 tokens); with the holds, a
    // call runs only while the budget has room for its most beside what is used and held.
    const prompt = (i: number) => `${'word '.repeat(40)}[budget-race] ${i}`;
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => chat(budgeted.key, prompt(i))));
    const passed = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as InstanceType<typeof OpenAI.APIError>);
    expect(passed).toBeGreaterThanOrEqual(1);
    expect(refused).toHaveLength(20 - passed);
    for (const err of refused) {
      expect(err).toBeInstanceOf(OpenAI.RateLimitError);
      expect(err.headers?.get('retry-after')).toMatch(/^\d+$/);
    }
    const used = await recorded(budgeted.id);
    expect(used).toBe(passed * 47);
    expect(used).toBeLessThanOrEqual(BUDGET + 5);
    // Every hold settled, and only the calls that passed reached the upstream.
    expect(await app.query(`SELECT * FROM quota_reservations WHERE subject_id = $1`, [budgeted.id])).toEqual([]);
    expect(stub.requestsWith('[budget-race]')).toHaveLength(passed);
  });
});

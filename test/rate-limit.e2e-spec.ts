import { createAccount, startTestApp, target, TestApp } from './support/test-app.js';

const LIMIT = 100;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function burst(app: TestApp, key: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  // Sequential batches of 10: quick, and the count is exact.
  for (let i = 0; i < count; i += 10) {
    const batch = await Promise.all(Array.from({ length: Math.min(10, count - i) }, () => app.http().get('/v1/api-keys').set(bearer(key))));
    statuses.push(...batch.map((r) => r.status));
  }
  return statuses;
}

describe(`rate limits (${target})`, () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('answers the 101st request in a window with 429, the exact body and Retry-After: 60', async () => {
    const account = await createAccount(app);
    const first = await app.http().get('/v1/api-keys').set(bearer(account.apiKey)).expect(200);
    expect(first.headers['x-ratelimit-limit']).toBe(String(LIMIT));
    expect(first.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
    expect(Number(first.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    expect(Number(first.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(60);

    const statuses = await burst(app, account.apiKey, LIMIT - 1);
    expect(statuses.every((s) => s === 200)).toBe(true);

    const limited = await app.http().get('/v1/api-keys').set(bearer(account.apiKey)).expect(429);
    expect(limited.body).toEqual({ error: true, code: 429, message: 'Rate limit reached. Retry in 60 seconds.', requestId: limited.headers['x-request-id'] });
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');

    // Another credential of the same account has its own count.
    const other = await app
      .http()
      .post('/v1/api-keys')
      .set(bearer((await createAccount(app)).apiKey))
      .send({ name: 'other' })
      .expect(201);
    await app.http().get('/v1/api-keys').set(bearer(other.body.key)).expect(200);
  });

  it('throttles a flood of bad keys by IP', async () => {
    // A fresh app: the previous test's traffic came from this IP too.
    const fresh = await startTestApp();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 1; i += 10) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(10, LIMIT + 1 - i) }, (_, j) =>
            fresh
              .http()
              .get('/v1/api-keys')
              .set(bearer(`sk_bad${i + j}`)),
          ),
        );
        statuses.push(...batch.map((r) => r.status));
      }
      expect(statuses.slice(0, LIMIT).every((s) => s === 401)).toBe(true);
      expect(statuses[LIMIT]).toBe(429);
    } finally {
      await fresh.close();
    }
  });

  const itWithRedis = target === 'postgres' && process.env.REDIS_URL ? it : it.skip;
  itWithRedis('shares one count, and revocations, across two instances through Redis', async () => {
    const second = await startTestApp({ reuse: { dataDir: app.dataDir, env: app.env }, keep: true });
    try {
      const account = await createAccount(app);
      const a = await burst(app, account.apiKey, 50);
      const b = await burst(second, account.apiKey, 50);
      expect([...a, ...b].every((s) => s === 200)).toBe(true);
      await second.http().get('/v1/api-keys').set(bearer(account.apiKey)).expect(429);
      await app.http().get('/v1/api-keys').set(bearer(account.apiKey)).expect(429);

      // A revocation on one instance evicts the other's cached credential at once.
      const owner = await createAccount(app);
      const key = (await app.http().post('/v1/api-keys').set(bearer(owner.apiKey)).send({ name: 'shared' }).expect(201)).body;
      await second.http().get('/v1/api-keys').set(bearer(key.key)).expect(200);
      await app.http().delete(`/v1/api-keys/${key.id}`).set(bearer(owner.apiKey)).expect(204);
      await new Promise((r) => setTimeout(r, 100));
      await second.http().get('/v1/api-keys').set(bearer(key.key)).expect(401);
    } finally {
      await second.close();
    }
  });
});

import { LOCAL_HEADROOM, SYNC_MS } from '../src/rate-limit/local-first-counters.js';
import { RedisConnection } from '../src/redis/redis.module.js';
import { ADMIN_TOKEN, createAccount, startTestApp, target, TestApp } from './support/test-app.js';

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
    expect(limited.body).toEqual({
      error: true,
      code: 429,
      message: 'Rate limit reached. Retry in 60 seconds.',
      reason: 'rate_limited',
      requestId: limited.headers['x-request-id'],
    });
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

  it('limits the route that runs, whatever the spelling of its URL: /%761/apps is /v1/apps', async () => {
    const fresh = await startTestApp();
    try {
      const account = await createAccount(fresh);
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 1; i++) {
        const res = await fresh.http().get('/%761/apps').set(bearer(account.apiKey));
        if (i === 0) expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
        statuses.push(res.status);
      }
      expect(statuses.slice(0, LIMIT).every((s) => s === 200)).toBe(true);
      expect(statuses[LIMIT]).toBe(429);
      // Failed authentications spelled that way count too.
      const bad = await fresh.http().get('/%761/apps').set(bearer('sk_not_a_key'));
      expect(bad.status).toBe(401);
      expect(bad.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
    } finally {
      await fresh.close();
    }
  });

  it('counts the account beside each credential: minting keys does not multiply the quota', async () => {
    const fresh = await startTestApp();
    try {
      const owner = await createAccount(fresh);
      const second = (await fresh.http().post('/v1/api-keys').set(bearer(owner.apiKey)).send({ name: 'second' }).expect(201)).body.key as string;
      // 1 request above, 60 with the first key, 39 with the second: the account's 100.
      for (const [key, n] of [
        [owner.apiKey, 60],
        [second, 39],
      ] as const)
        expect((await burst(fresh, key, n)).every((s) => s === 200)).toBe(true);
      const limited = await fresh.http().get('/v1/api-keys').set(bearer(second)).expect(429);
      expect(limited.headers['x-ratelimit-limit']).toBe(String(LIMIT));
      expect(limited.headers['x-ratelimit-remaining']).toBe('0');
      // The second key alone has used 40 of its own 100: the account bucket is the one spent.
      await fresh.http().get('/v1/api-keys').set(bearer(owner.apiKey)).expect(429);
      // Another account is not affected.
      await fresh
        .http()
        .get('/v1/api-keys')
        .set(bearer((await createAccount(fresh)).apiKey))
        .expect(200);
    } finally {
      await fresh.close();
    }
  });

  it('counts failed authentications in a bucket of their own: a flood of bad keys never blocks token issuance or admin calls', async () => {
    const fresh = await startTestApp();
    try {
      const owner = await createAccount(fresh);
      const sa = (
        await fresh
          .http()
          .post('/v1/service-accounts')
          .set(bearer(owner.apiKey))
          .send({ name: 'nightly', scopes: ['apps:read'] })
          .expect(201)
      ).body;
      const statuses: number[] = [];
      for (let i = 0; i <= LIMIT; i++)
        statuses.push(
          (
            await fresh
              .http()
              .get('/v1/apps')
              .set(bearer(`sk_bad_${i}`))
          ).status,
        );
      expect(statuses.slice(0, LIMIT).every((s) => s === 401)).toBe(true);
      expect(statuses[LIMIT]).toBe(429);
      // The same IP still gets tokens, admin answers, and valid keys work.
      await fresh.http().post('/v1/oauth/token').auth(sa.clientId, sa.clientSecret).type('form').send({ grant_type: 'client_credentials' }).expect(200);
      await fresh.http().post('/v1/admin/accounts').set(bearer(ADMIN_TOKEN)).send({ email: 'still@example.com' }).expect(201);
      await fresh.http().get('/v1/apps').set(bearer(owner.apiKey)).expect(200);
      // Wrong client secrets and wrong admin tokens are failed authentications too.
      await fresh.http().post('/v1/oauth/token').auth(sa.clientId, 'cs_wrong').type('form').send({ grant_type: 'client_credentials' }).expect(429);
      await fresh.http().post('/v1/admin/accounts').set(bearer('wrong-admin-token-0000')).send({ email: 'x@example.com' }).expect(429);
    } finally {
      await fresh.close();
    }
  });

  it('takes the client IP from X-Forwarded-For only when TRUST_PROXY trusts the hop', async () => {
    const spend = async (app: TestApp, ip: string, n: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < n; i++)
        statuses.push(
          (
            await app
              .http()
              .get('/v1/apps')
              .set('x-forwarded-for', ip)
              .set(bearer(`sk_bad_${ip}_${i}`))
          ).status,
        );
      return statuses;
    };
    const direct = await startTestApp();
    try {
      // Without TRUST_PROXY the header is ignored: every "IP" is the socket's, one bucket.
      await spend(direct, '198.51.100.1', LIMIT);
      expect(await spend(direct, '198.51.100.2', 1)).toEqual([429]);
    } finally {
      await direct.close();
    }
    const proxied = await startTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      await spend(proxied, '198.51.100.1', LIMIT);
      expect(await spend(proxied, '198.51.100.1', 1)).toEqual([429]);
      expect(await spend(proxied, '198.51.100.2', 1)).toEqual([401]);
    } finally {
      await proxied.close();
    }
  });

  it('a generous limit counts in the instance and still reaches the shared count (Redis) within SYNC_MS, exactly', async () => {
    const generous = await startTestApp({ env: { RATE_LIMIT_MAX: String(LOCAL_HEADROOM * 100) } });
    try {
      const account = await createAccount(generous);
      const remaining: number[] = [];
      for (let i = 0; i < 30; i++)
        remaining.push(Number((await generous.http().get('/v1/api-keys').set(bearer(account.apiKey)).expect(200)).headers['x-ratelimit-remaining']));
      expect(remaining).toEqual(Array.from({ length: 30 }, (_, i) => LOCAL_HEADROOM * 100 - 1 - i));
      const redis = generous.server.app.get(RedisConnection);
      if (redis.client) {
        await new Promise((r) => setTimeout(r, SYNC_MS * 3));
        // Both buckets (the key's and its account's) hold every hit, though most never made a round trip of their own.
        const keys = await redis.client.keys(`${redis.key('ratelimit')}:default:*`);
        const counts = await Promise.all(keys.filter((k) => k.endsWith(account.accountId) || k.includes(':cred:')).map((k) => redis.client!.get(k)));
        expect(counts.map(Number)).toEqual([30, 30]);
      }
    } finally {
      await generous.close();
    }
  });
});

import { Agent, globalAgent } from 'node:http';
import { LOCAL_HEADROOM, SYNC_MS } from '../src/rate-limit/local-first-counters.js';
import { RedisConnection } from '../src/redis/redis.module.js';
import { ADMIN_TOKEN, createAccount, createServiceAccount, startTestApp, target, TestApp } from './support/test-app.js';
import { itUnless, UNLESS_REDIS } from './support/skips.js';
import { until } from './support/webhook-receiver.js';

// RATE_LIMIT_MAX for this file: low, so that reaching it takes few requests (the default, 100, is app-config.spec's
// and the other files' `x-ratelimit-limit`).
const LIMIT = 20;
const LIMITED = { RATE_LIMIT_MAX: String(LIMIT) };
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/**
 * A client with an IP address of its own, so a test starts with fresh IP buckets without a fresh app:
 * its requests leave from another loopback address (Linux routes all of 127.0.0.0/8 to the loopback).
 */
let lastAddress = 1;
const newClient = () => new Agent({ localAddress: `127.0.0.${++lastAddress}` });

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
    app = await startTestApp({ env: LIMITED });
  });
  afterAll(() => app.close());

  it('answers the request after RATE_LIMIT_MAX in a window with 429, the exact body and Retry-After: 60', async () => {
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
    // A client of its own: the previous test's traffic came from the usual address.
    const client = newClient();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(10, LIMIT + 1 - i) }, (_, j) =>
          app
            .http()
            .get('/v1/api-keys')
            .agent(client)
            .set(bearer(`sk_bad${i + j}`)),
        ),
      );
      statuses.push(...batch.map((r) => r.status));
    }
    expect(statuses.slice(0, LIMIT).every((s) => s === 401)).toBe(true);
    expect(statuses[LIMIT]).toBe(429);
    // Another address still gets its own LIMIT.
    await app.http().get('/v1/api-keys').agent(newClient()).set(bearer('sk_bad_other')).expect(401);
  });

  itUnless(UNLESS_REDIS)('shares one count, and revocations, across two instances through Redis', async () => {
    const second = await startTestApp({ reuse: { dataDir: app.dataDir, env: app.env }, keep: true });
    try {
      const account = await createAccount(app);
      // Half of the limit on each instance: the shared count is spent.
      const a = await burst(app, account.apiKey, LIMIT / 2);
      const b = await burst(second, account.apiKey, LIMIT / 2);
      expect([...a, ...b].every((s) => s === 200)).toBe(true);
      await second.http().get('/v1/api-keys').set(bearer(account.apiKey)).expect(429);
      await app.http().get('/v1/api-keys').set(bearer(account.apiKey)).expect(429);

      // A revocation on one instance evicts the other's cached credential at once.
      const owner = await createAccount(app);
      const key = (await app.http().post('/v1/api-keys').set(bearer(owner.apiKey)).send({ name: 'shared' }).expect(201)).body;
      await second.http().get('/v1/api-keys').set(bearer(key.key)).expect(200);
      await app.http().delete(`/v1/api-keys/${key.id}`).set(bearer(owner.apiKey)).expect(204);
      await until(async () => (await second.http().get('/v1/api-keys').set(bearer(key.key))).status === 401, 5_000, 'revocation seen by the other instance');
    } finally {
      await second.close();
    }
  });

  it('limits the route that runs, whatever the spelling of its URL: /%761/apps is /v1/apps', async () => {
    const client = newClient();
    const account = await createAccount(app);
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) {
      const res = await app.http().get('/%761/apps').agent(client).set(bearer(account.apiKey));
      if (i === 0) expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
      statuses.push(res.status);
    }
    expect(statuses.slice(0, LIMIT).every((s) => s === 200)).toBe(true);
    expect(statuses[LIMIT]).toBe(429);
    // Failed authentications spelled that way count too.
    const bad = await app.http().get('/%761/apps').agent(client).set(bearer('sk_not_a_key'));
    expect(bad.status).toBe(401);
    expect(bad.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
  });

  it('counts the account beside each credential: minting keys does not multiply the quota', async () => {
    const owner = await createAccount(app);
    const second = (await app.http().post('/v1/api-keys').set(bearer(owner.apiKey)).send({ name: 'second' }).expect(201)).body.key as string;
    // 1 request above, 12 with the first key, 7 with the second: the account's 20.
    for (const [key, n] of [
      [owner.apiKey, 12],
      [second, 7],
    ] as const)
      expect((await burst(app, key, n)).every((s) => s === 200)).toBe(true);
    const limited = await app.http().get('/v1/api-keys').set(bearer(second)).expect(429);
    expect(limited.headers['x-ratelimit-limit']).toBe(String(LIMIT));
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    // The second key alone has used 8 of its own 20: the account bucket is the one spent.
    await app.http().get('/v1/api-keys').set(bearer(owner.apiKey)).expect(429);
    // Another account is not affected.
    await app
      .http()
      .get('/v1/api-keys')
      .set(bearer((await createAccount(app)).apiKey))
      .expect(200);
  });

  it('counts failed authentications in a bucket of their own: a flood of bad keys never blocks token issuance or admin calls', async () => {
    const client = newClient();
    const owner = await createAccount(app);
    const sa = await createServiceAccount(app, owner.apiKey, 'nightly', ['apps:read']);
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++)
      statuses.push(
        (
          await app
            .http()
            .get('/v1/apps')
            .agent(client)
            .set(bearer(`sk_bad_${i}`))
        ).status,
      );
    expect(statuses.slice(0, LIMIT).every((s) => s === 401)).toBe(true);
    expect(statuses[LIMIT]).toBe(429);
    // The same IP still gets tokens, admin answers, and valid keys work.
    await app
      .http()
      .post('/v1/oauth/token')
      .agent(client)
      .auth(sa.clientId, sa.clientSecret)
      .type('form')
      .send({ grant_type: 'client_credentials' })
      .expect(200);
    await app.http().post('/v1/admin/accounts').agent(client).set(bearer(ADMIN_TOKEN)).send({ email: 'still@example.com' }).expect(201);
    await app.http().get('/v1/apps').agent(client).set(bearer(owner.apiKey)).expect(200);
    // Wrong client secrets and wrong admin tokens are failed authentications too.
    await app.http().post('/v1/oauth/token').agent(client).auth(sa.clientId, 'cs_wrong').type('form').send({ grant_type: 'client_credentials' }).expect(429);
    await app.http().post('/v1/admin/accounts').agent(client).set(bearer('wrong-admin-token-0000')).send({ email: 'x@example.com' }).expect(429);
  });

  it('takes the client IP from X-Forwarded-For only when TRUST_PROXY trusts the hop', async () => {
    const spend = async (app: TestApp, ip: string, n: number, client?: Agent) => {
      const statuses: number[] = [];
      for (let i = 0; i < n; i++)
        statuses.push(
          (
            await app
              .http()
              .get('/v1/apps')
              .agent(client ?? globalAgent)
              .set('x-forwarded-for', ip)
              .set(bearer(`sk_bad_${ip}_${i}`))
          ).status,
        );
      return statuses;
    };
    // Without TRUST_PROXY the header is ignored: every "IP" is the socket's, one bucket.
    const direct = newClient();
    await spend(app, '198.51.100.1', LIMIT, direct);
    expect(await spend(app, '198.51.100.2', 1, direct)).toEqual([429]);
    const proxied = await startTestApp({ env: { ...LIMITED, TRUST_PROXY: '127.0.0.1' } });
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
        // Both buckets (the key's and its account's) hold every hit, though most never made a round trip of
        // their own: within a few SYNC_MS (a sync every SYNC_MS; waited for, as this machine may be slow).
        const counts = async () => {
          const keys = await redis.client!.keys(`${redis.key('ratelimit')}:default:*`);
          return (await Promise.all(keys.filter((k) => k.endsWith(account.accountId) || k.includes(':cred:')).map((k) => redis.client!.get(k)))).map(Number);
        };
        await until(async () => (await counts()).join() === '30,30', SYNC_MS * 50, 'both buckets synced');
        // …and no more than every hit.
        expect(await counts()).toEqual([30, 30]);
      }
    } finally {
      await generous.close();
    }
  });
});

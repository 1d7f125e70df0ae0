import request from 'supertest';
import { ChildServer, startChildServer } from './support/child-server.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { ADMIN_TOKEN, dropFreshResources, freshEnvironment } from './support/fresh-database.js';
import { Receiver, until } from './support/webhook-receiver.js';
import { describeUnless, UNLESS_REDIS } from './support/skips.js';

// Redis taken away from a running server (a TCP proxy in front of the real one), then given back.
const describeWithRedis = describeUnless(UNLESS_REDIS);

describeWithRedis('when Redis is unreachable (postgres + redis, child process)', () => {
  const receiver = new Receiver();
  let proxy: TcpProxy;
  let env: Record<string, string>;
  let server: ChildServer | undefined;
  let direct: ChildServer | undefined;

  beforeAll(async () => {
    await receiver.start();
    const redis = new URL(process.env.REDIS_URL!);
    proxy = new TcpProxy(redis.hostname, Number(redis.port || 6379));
    await proxy.start();
    env = { ...(await freshEnvironment()), REDIS_URL: `redis://127.0.0.1:${proxy.port}`, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '50' };
  });

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await direct?.stop('SIGKILL');
    await proxy.stop();
    await receiver.stop();
    await dropFreshResources(env);
  });

  it('keeps answering with per-instance limits, gives up enqueueing within seconds, reports Redis down, says so once, and recovers', async () => {
    server = await startChildServer(env);
    const http = () => request(server!.url);
    const key = (await http().post('/v1/admin/accounts').set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ email: 'outage@example.com' }).expect(201)).body
      .apiKey;
    const auth = { authorization: `Bearer ${key}` };
    await http()
      .post('/v1/webhook-endpoints')
      .set(auth)
      .send({ url: `${receiver.url}/hook`, events: ['user.created'] })
      .expect(201);
    const appId = (await http().post('/v1/apps').set(auth).send({ name: 'Outage' }).expect(201)).body.appId;
    await http().get('/health/ready').expect(200);
    // Another instance, whose Redis stays up; and a key the first instance has verified (and cached).
    direct = await startChildServer({ ...env, REDIS_URL: process.env.REDIS_URL! });
    const spare = (await http().post('/v1/api-keys').set(auth).send({ name: 'spare' }).expect(201)).body;
    await http().get('/v1/apps').set('authorization', `Bearer ${spare.key}`).expect(200);

    proxy.cut();
    const timed = async <T>(work: () => Promise<T>) => {
      const started = Date.now();
      const result = await work();
      return { result, ms: Date.now() - started };
    };
    // Reads, bad keys and writes all answer, quickly, with local rate limits.
    for (let i = 0; i < 20; i++) {
      const read = await timed(() => http().get('/v1/apps').set(auth));
      expect(read.result.status).toBe(200);
      expect(read.result.headers['x-ratelimit-limit']).toBe('100');
      expect(read.ms).toBeLessThan(3000);
    }
    const bad = await timed(() => http().get('/v1/apps').set('authorization', 'Bearer sk_bad'));
    expect(bad.result.status).toBe(401);
    expect(bad.ms).toBeLessThan(3000);
    const signup = await timed(() => http().post('/v1/users').set(auth).send({ appId, email: 'during@example.com' }));
    expect(signup.result.status).toBe(201);
    expect(signup.ms).toBeLessThan(3000);
    // The delivery was written (outbox) but could not be queued: it waits, pending, for Redis.
    const ready = await http().get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ error: true, code: 503, message: expect.stringContaining('redis') });
    const endpoint = (await http().get('/v1/webhook-endpoints').set(auth).expect(200)).body.data[0];
    let deliveries: Array<{ id: string; status: string }> = [];
    await until(
      async () => {
        deliveries = (await http().get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`).set(auth).expect(200)).body.data;
        return deliveries.length === 1;
      },
      10_000,
      'the delivery row',
    );
    expect(deliveries[0].status).toBe('pending');
    // A manual retry cannot queue: a clear 503 within seconds.
    const retry = await timed(() => http().post(`/v1/webhook-deliveries/${deliveries[0].id}/retry`).set(auth));
    expect(retry.result.status).toBe(503);
    expect(retry.result.body).toMatchObject({ reason: 'queue_unavailable' });
    expect(retry.ms).toBeLessThan(4000);
    const metrics = await http().get('/metrics').expect(200);
    expect(metrics.text).toMatch(/rate_limit_local_fallback 1/);
    expect(metrics.text).toMatch(/redis_up 0/);

    // Said once, not per request; no "Unhandled error event" from ioredis.
    const output = server.output();
    expect(output.match(/Redis is unreachable: rate limits are counted per instance/g)).toHaveLength(1);
    expect(output).not.toContain('Unhandled error event');

    // Revoked on the other instance while this one cannot hear about it…
    await request(direct.url).delete(`/v1/api-keys/${spare.id}`).set(auth).expect(204);

    proxy.restore();
    await until(async () => (await http().get('/health/ready')).status === 200, 20_000, 'ready again');
    // …so it forgot every cached credential when it reconnected: the revoked key is refused at once, not after 30 s.
    await until(() => /Redis subscriber \(revocations\) is back/.test(server!.output()), 10_000, 'revocations subscriber reconnected');
    await http().get('/v1/apps').set('authorization', `Bearer ${spare.key}`).expect(401);
    // The delivery goes out: queued by hand now, unless the queue client already sent the job it held (then 409: in flight).
    const again = await http().post(`/v1/webhook-deliveries/${deliveries[0].id}/retry`).set(auth);
    expect([202, 409]).toContain(again.status);
    if (again.status === 409) expect(again.body.reason).toBe('webhook_delivery_in_flight');
    await until(() => receiver.userCreatedIds().length >= 1, 15_000, 'the delivery after recovery');
    expect(receiver.at('/hook').map((r) => JSON.parse(r.raw).data.email)).toContain('during@example.com');
    await until(() => /rate limits are shared again/.test(server!.output()), 10_000, 'recovery logged');
  }, 120_000);
});

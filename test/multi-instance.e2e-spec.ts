import pg from 'pg';
import request from 'supertest';
import { ChildServer, startChildServer } from './support/child-server.js';
import { ADMIN_TOKEN, dropFreshResources, freshEnvironment } from './support/fresh-database.js';
import { Receiver, until } from './support/webhook-receiver.js';
import { describeUnless, UNLESS_REDIS } from './support/skips.js';

// Scale-out proof: separate API and worker processes (APP_ROLE) on one PostgreSQL and one Redis.
const describeScaledOut = describeUnless(UNLESS_REDIS);

describeScaledOut('two API processes and two workers (postgres + redis, child processes)', () => {
  const receiver = new Receiver({ answerAfterMs: 20 });
  let receiverUrl = '';
  let env: Record<string, string>;
  const children: ChildServer[] = [];

  beforeAll(async () => {
    await receiver.start();
    receiverUrl = `${receiver.url}/hook`;
    env = { ...(await freshEnvironment({ migrated: false })), WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '50', RATE_LIMIT_MAX: '300' };
  });

  afterAll(async () => {
    await Promise.all(children.map((c) => c.stop('SIGKILL')));
    await receiver.stop();
    await dropFreshResources(env);
  });

  it('migrates once, shares rate limits, delivers each event exactly once, and loses nothing when a worker dies', async () => {
    // Both APIs and both workers start at once on an empty database.
    const [api1, api2, worker1, worker2] = await Promise.all([
      startChildServer({ ...env, APP_ROLE: 'api' }),
      startChildServer({ ...env, APP_ROLE: 'api' }),
      startChildServer({ ...env, APP_ROLE: 'worker' }),
      startChildServer({ ...env, APP_ROLE: 'worker' }),
    ]);
    children.push(api1, api2, worker1, worker2);
    const applied = children.filter((c) => /Applied \d+ migration/.test(c.output()));
    expect(applied).toHaveLength(1);

    // A worker serves health only.
    await request(worker1.url).get('/health/ready').expect(200);
    await request(worker1.url).get('/v1/apps').expect(404);

    const account = await request(api1.url)
      .post('/v1/admin/accounts')
      .set('authorization', `Bearer ${ADMIN_TOKEN}`)
      .send({ email: 'scale@example.com' })
      .expect(201);
    const auth = { authorization: `Bearer ${account.body.apiKey}` };
    await request(api2.url)
      .post('/v1/webhook-endpoints')
      .set(auth)
      .send({ url: receiverUrl, events: ['user.created'] })
      .expect(201);
    const app = await request(api1.url).post('/v1/apps').set(auth).send({ name: 'Scale test' }).expect(201);

    // 200 users through both APIs; one worker is killed halfway.
    const ids: string[] = [];
    for (let batch = 0; batch < 20; batch++) {
      const api = batch % 2 === 0 ? api1 : api2;
      const created = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          request(api.url)
            .post('/v1/users')
            .set(auth)
            .send({ appId: app.body.appId, email: `u${batch * 10 + i}@example.com` })
            .expect(201),
        ),
      );
      ids.push(...created.map((r) => r.body.id as string));
      if (batch === 10) await worker1.stop('SIGKILL');
    }
    expect(ids).toHaveLength(200);

    // Everything arrives (the dead worker's in-flight jobs come back through Bull's stalled-job check).
    await until(() => receiver.missingUsers(ids).length === 0, 90_000, 'all 200 user.created deliveries');
    const db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    try {
      // The receiver counts a delivery before it answers; the row is marked after the answer. A job the
      // killed worker had in hand may have reached the receiver already: its row is marked only when
      // Bull's stalled check hands it to the other worker (lock 15 s + check interval 5 s).
      const statuses = async () => (await db.query(`SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status`)).rows;
      await until(
        async () => JSON.stringify(await statuses()) === JSON.stringify([{ status: 'succeeded', n: 200 }]),
        30_000,
        'every delivery marked succeeded',
      );
    } finally {
      await db.end();
    }
    // Exactly once per endpoint, except for jobs the killed worker had in hand (at least once).
    const received = receiver.userCreatedIds();
    const duplicates = received.length - new Set(received).size;
    expect(duplicates).toBeLessThanOrEqual(20);

    // The rate limit is one count across both APIs: use up what is left through both, then both refuse.
    const remaining = Number((await request(api1.url).get('/v1/apps').set(auth).expect(200)).headers['x-ratelimit-remaining']);
    for (let i = 0; i < remaining; i++)
      await request(i % 2 ? api1.url : api2.url)
        .get('/v1/apps')
        .set(auth)
        .expect(200);
    const limited = await request(api2.url).get('/v1/apps').set(auth).expect(429);
    expect(limited.body.message).toBe('Rate limit reached. Retry in 60 seconds.');
    await request(api1.url).get('/v1/apps').set(auth).expect(429);
  }, 180_000);

  it('delivers exactly once per endpoint with healthy workers', async () => {
    const [api] = children;
    const worker3 = await startChildServer({ ...env, APP_ROLE: 'worker' });
    children.push(worker3);
    const account = await request(api.url)
      .post('/v1/admin/accounts')
      .set('authorization', `Bearer ${ADMIN_TOKEN}`)
      .send({ email: 'once@example.com' })
      .expect(201);
    const auth = { authorization: `Bearer ${account.body.apiKey}` };
    await request(api.url)
      .post('/v1/webhook-endpoints')
      .set(auth)
      .send({ url: receiverUrl, events: ['user.created'] })
      .expect(201);
    const app = await request(api.url).post('/v1/apps').set(auth).send({ name: 'Once' }).expect(201);
    const before = receiver.userCreatedIds().length;
    const ids: string[] = [];
    for (let batch = 0; batch < 5; batch++) {
      const created = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          request(children[batch % 2].url)
            .post('/v1/users')
            .set(auth)
            .send({ appId: app.body.appId, email: `o${batch * 10 + i}@example.com` })
            .expect(201),
        ),
      );
      ids.push(...created.map((r) => r.body.id as string));
    }
    await until(() => receiver.missingUsers(ids).length === 0, 30_000, '50 deliveries');
    await new Promise((r) => setTimeout(r, 500));
    const mine = receiver
      .userCreatedIds()
      .slice(before)
      .filter((id) => ids.includes(id));
    expect(mine).toHaveLength(50);
    expect(new Set(mine).size).toBe(50);
  });
});

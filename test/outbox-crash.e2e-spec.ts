import pg from 'pg';
import request from 'supertest';
import { ChildServer, startChildServer } from './support/child-server.js';
import { ADMIN_TOKEN, dropFreshResources, freshEnvironment } from './support/fresh-database.js';
import { Receiver, until } from './support/webhook-receiver.js';
import { describeUnless, UNLESS_REDIS } from './support/skips.js';

// Real processes killed with SIGKILL mid-burst and restarted: rows in PostgreSQL, jobs in Redis.
const describeOnPostgres = describeUnless(UNLESS_REDIS);

const ROUNDS = 3;
const BURST = 150;

describeOnPostgres('events survive a crash (outbox; postgres + redis, child process, SIGKILL)', () => {
  const receiver = new Receiver();
  let env: Record<string, string>;
  let db: pg.Client;
  let child: ChildServer | undefined;

  beforeAll(async () => {
    await receiver.start();
    env = { ...(await freshEnvironment()), WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '50', RATE_LIMIT_MAX: '1000000' };
  });

  afterAll(async () => {
    await child?.stop('SIGKILL');
    await db?.end();
    await receiver.stop();
    await dropFreshResources(env);
  });

  /** Users without their user.created in the log, and user.created events without their user. */
  async function mismatches(appId: string) {
    const { rows } = await db.query<{ orphan_users: string[]; orphan_events: string[] }>(
      `SELECT
         array(SELECT u.id FROM users u WHERE u.app_id = $1 AND NOT EXISTS
                 (SELECT 1 FROM events e WHERE e.kind = 'user.created' AND e.data->>'id' = u.id)) AS orphan_users,
         array(SELECT e.id FROM events e WHERE e.kind = 'user.created' AND e.data->>'appId' = $1 AND NOT EXISTS
                 (SELECT 1 FROM users u WHERE u.id = e.data->>'id')) AS orphan_events`,
      [appId],
    );
    return rows[0];
  }

  it(`${ROUNDS} rounds: ${BURST} concurrent sign-ups, SIGKILL mid-burst, restart — every user has its event and its delivery`, async () => {
    child = await startChildServer(env);
    db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    const account = await request(child.url)
      .post('/v1/admin/accounts')
      .set('authorization', `Bearer ${ADMIN_TOKEN}`)
      .send({ email: 'crash@example.com' })
      .expect(201);
    const auth = `Bearer ${account.body.apiKey}`;
    await request(child.url)
      .post('/v1/webhook-endpoints')
      .set('authorization', auth)
      .send({ url: `${receiver.url}/hook`, events: ['user.created'] })
      .expect(201);
    const appId = (await request(child.url).post('/v1/apps').set('authorization', auth).send({ name: 'Crash test' }).expect(201)).body.appId as string;

    const leftUndispatched: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const server = child;
      // The burst: the process dies once a third of the answers are out, with the rest in flight.
      const killAfter = Math.floor(BURST / 3) + round * 10;
      let answered = 0;
      const confirmed: string[] = [];
      await Promise.allSettled(
        Array.from({ length: BURST }, async (_, i) => {
          const res = await fetch(`${server.url}/v1/users`, {
            method: 'POST',
            headers: { authorization: auth, 'content-type': 'application/json' },
            body: JSON.stringify({ appId, email: `r${round}-u${i}@example.com` }),
          });
          if (res.status === 201) confirmed.push(((await res.json()) as { id: string }).id);
          if (++answered === killAfter) void server.stop('SIGKILL');
        }),
      );
      await server.stop('SIGKILL');

      // Dead process, database as it left it: each committed user has its event, and no event lacks its user.
      expect(await mismatches(appId)).toEqual({ orphan_users: [], orphan_events: [] });
      const { rows: users } = await db.query<{ id: string }>('SELECT id FROM users WHERE app_id = $1', [appId]);
      const ids = users.map((u) => u.id);
      // Every 201 the clients saw is a committed row.
      expect(ids).toEqual(expect.arrayContaining(confirmed));
      const { rows: pending } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE dispatched_at IS NULL`);
      leftUndispatched.push(pending[0].n);

      // Restarted, the relay dispatches what was left and the receiver hears of every user.
      child = await startChildServer(env);
      await until(() => receiver.missingUsers(ids).length === 0, 120_000, `deliveries for all ${ids.length} users (round ${round + 1})`);
      expect(await mismatches(appId)).toEqual({ orphan_users: [], orphan_events: [] });
      await until(async () => (await db.query(`SELECT 1 FROM events WHERE dispatched_at IS NULL`)).rowCount === 0, 30_000, 'outbox drained');
    }
    // The kills did leave committed events undispatched (so the relay, not the dying process, delivered them).
    expect(Math.max(...leftUndispatched)).toBeGreaterThan(0);
  }, 400_000);
});

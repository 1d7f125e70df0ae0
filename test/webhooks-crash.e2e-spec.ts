import request from 'supertest';
import { ChildServer, startChildServer } from './support/child-server.js';
import { ADMIN_TOKEN, dropFreshResources, freshEnvironment, target } from './support/test-app.js';
import { Receiver } from './support/webhook-receiver.js';

// A real process killed with SIGKILL and restarted: jobs live in Redis and rows in PostgreSQL.
const describeOnPostgres = target === 'postgres' && process.env.REDIS_URL ? describe : describe.skip;

describeOnPostgres('webhooks survive a crash (postgres + redis, child process, SIGKILL)', () => {
  // A slow receiver, so deliveries are still under way when the process dies.
  const receiver = new Receiver({ answerAfterMs: 100 });
  let receiverUrl = '';
  let env: Record<string, string>;
  let child: ChildServer | undefined;

  beforeAll(async () => {
    await receiver.start();
    receiverUrl = `${receiver.url}/hook`;
    env = {
      ...(await freshEnvironment()),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_BASE_MS: '50',
      RATE_LIMIT_MAX: '1000000',
    };
  });

  afterAll(async () => {
    await child?.stop('SIGKILL');
    await receiver.stop();
    await dropFreshResources(env);
  });

  it('delivers every user.created of 50 users after SIGKILL and restart (duplicates allowed, none missing)', async () => {
    child = await startChildServer(env);
    const http = () => request(child!.url);
    const account = await http().post('/v1/admin/accounts').set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ email: 'crash@example.com' }).expect(201);
    const auth = { authorization: `Bearer ${account.body.apiKey}` };
    await http().post('/v1/webhook-endpoints').set(auth).send({ url: receiverUrl, events: ['user.created'] }).expect(201);
    const appRes = await http().post('/v1/apps').set(auth).send({ name: 'Crash test' }).expect(201);
    const ids: string[] = [];
    for (let batch = 0; batch < 5; batch++) {
      const created = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          http().post('/v1/users').set(auth).send({ appId: appRes.body.appId, email: `u${batch * 10 + i}@example.com` }).expect(201),
        ),
      );
      ids.push(...created.map((r) => r.body.id as string));
    }
    expect(new Set(ids).size).toBe(50);
    await child.stop('SIGKILL');
    const deliveredBeforeCrash = new Set(receiver.userCreatedIds()).size;

    child = await startChildServer(env);
    const end = Date.now() + 180_000;
    while (receiver.missingUsers(ids).length > 0) {
      if (Date.now() > end) throw new Error(`missing after restart: ${receiver.missingUsers(ids).length} (before crash: ${deliveredBeforeCrash})`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(receiver.missingUsers(ids)).toEqual([]);
  }, 240_000);
});

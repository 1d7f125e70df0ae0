import { Transactions } from '../src/database/transactions.js';
import { DomainEvents } from '../src/events/domain-events.service.js';
import { EventDispatcher } from '../src/events/event-dispatcher.js';
import { OutboxRelay } from '../src/events/outbox-relay.service.js';
import { EventRecorder, EventRecorderModule, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { target } from './support/test-app.js';
import { appWithReceiver, until } from './support/webhook-receiver.js';

describe(`domain events through the outbox (${target})`, () => {
  const setup = appWithReceiver({ modules: [EventRecorderModule], env: NO_RATE_LIMIT });
  let recorder: EventRecorder;

  beforeAll(async () => {
    recorder = setup.app.server.app.get(EventRecorder);
  });

  const count = async (sql: string, params: unknown[]) => Number((await setup.app.query<{ n: string }>(sql, params))[0].n);

  it('writes a sign-up, its event and nothing else in one transaction: a commit that fails leaves no user, no event, no delivery', async () => {
    const dev = await newAccountClient(setup.app);
    await dev.post('/v1/webhook-endpoints', { url: `${setup.receiver.url}/rollback` }).expect(201);
    const appId = (await dev.post('/v1/apps', { name: 'Rollback' }).expect(201)).body.appId;
    // A deferred constraint trigger fails the commit of this one sign-up, after the user row and
    // its event have both been written inside the transaction.
    await setup.app.query(`CREATE FUNCTION refuse_doomed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.email = 'doomed@example.com' THEN RAISE EXCEPTION 'refused at commit'; END IF; RETURN NULL; END $$`);
    await setup.app.query(
      `CREATE CONSTRAINT TRIGGER refuse_doomed AFTER INSERT ON users DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_doomed()`,
    );
    try {
      const failed = await dev.post('/v1/users', { appId, email: 'doomed@example.com' });
      expect(failed.status).toBe(500);
      expect(failed.body).toMatchObject({ error: true, code: 500, message: 'Internal error; try again later' });
      const kept = (await dev.post('/v1/users', { appId, email: 'kept@example.com' }).expect(201)).body;

      expect(await count(`SELECT count(*) AS n FROM users WHERE app_id = $1`, [appId])).toBe(1);
      expect(await count(`SELECT count(*) AS n FROM events WHERE kind = 'user.created' AND data->>'appId' = $1`, [appId])).toBe(1);
      expect(await count(`SELECT count(*) AS n FROM events WHERE data::text LIKE '%doomed%'`, [])).toBe(0);
      expect((await recorder.of('user.created', dev.accountId)).map((e) => e.data.id)).toEqual([kept.id]);
      await until(() => setup.receiver.at('/rollback').some((r) => JSON.parse(r.raw).event === 'user.created'), 10_000, 'the kept sign-up delivered');
      const delivered = setup.receiver
        .at('/rollback')
        .map((r) => JSON.parse(r.raw))
        .filter((b) => b.event === 'user.created');
      expect(delivered.map((b) => b.data.id)).toEqual([kept.id]);
    } finally {
      await setup.app.query(`DROP TRIGGER refuse_doomed ON users`);
      await setup.app.query(`DROP FUNCTION refuse_doomed()`);
    }
  });

  it('a transaction that throws after raising records nothing and dispatches nothing', async () => {
    const dev = await newAccountClient(setup.app);
    const db = setup.app.server.app.get(Transactions);
    const events = setup.app.server.app.get(DomainEvents);
    await expect(
      db.run(async () => {
        await events.raise('app.deleted', dev.accountId, { appId: 'app_never' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await count(`SELECT count(*) AS n FROM events WHERE account_id = $1`, [dev.accountId])).toBe(0);
    expect(await recorder.of('app.deleted', dev.accountId)).toEqual([]);
    // Raising outside a transaction is a programming error, not a silent second commit.
    await expect(events.raise('app.deleted', dev.accountId, { appId: 'app_never' })).rejects.toThrow(/Transactions\.run/);
  });

  it('stores the event before the answer, dispatches it once, and marks it dispatched', async () => {
    const dev = await newAccountClient(setup.app);
    const created = (await dev.post('/v1/apps', { name: 'Logged' }).expect(201)).body;
    // In the log as soon as the answer is out: it was written in the same transaction as the app.
    const rows = await setup.app.query<{ id: string; kind: string }>(`SELECT id, kind FROM events WHERE account_id = $1`, [dev.accountId]);
    expect(rows).toEqual([{ id: expect.stringMatching(/^evt_/), kind: 'app.created' }]);
    const raised = await recorder.of('app.created', dev.accountId);
    expect(raised).toEqual([expect.objectContaining({ id: rows[0].id, name: 'app.created', data: created })]);
    await setup.app.server.app.get(EventDispatcher).idle();
    expect(
      (await setup.app.query<{ dispatched_at: Date | null }>(`SELECT dispatched_at FROM events WHERE id = $1`, [rows[0].id]))[0].dispatched_at,
    ).not.toBeNull();
  });

  it('with a listener of every event that sets no condition (the recorder), every event goes through the dispatcher', () => {
    expect(setup.app.server.app.get(EventDispatcher).dispatchWhen).toBe('TRUE');
  });

  it('the relay dispatches an event a crash left undispatched, once, even when run twice at the same time', async () => {
    const dev = await newAccountClient(setup.app);
    await dev.post('/v1/webhook-endpoints', { url: `${setup.receiver.url}/relay` }).expect(201);
    // As a process that died between its commit and the dispatch leaves it.
    await setup.app.query(
      `INSERT INTO events (id, account_id, kind, data, created_at) VALUES ('evt_left_behind', $1, 'app.deleted', '{"appId":"app_gone"}', now() - interval '1 minute')`,
      [dev.accountId],
    );
    const relay = setup.app.server.app.get(OutboxRelay);
    await Promise.all([relay.relay(), relay.relay()]);
    await until(() => setup.receiver.at('/relay').length === 1, 10_000, 'relayed delivery');
    await new Promise((r) => setTimeout(r, 300));
    expect(setup.receiver.at('/relay').map((r) => r.headers['x-service-event-id'])).toEqual(['evt_left_behind']);
    expect((await recorder.of('app.deleted', dev.accountId)).map((e) => e.id)).toEqual(['evt_left_behind']);
    expect(await count(`SELECT count(*) AS n FROM webhook_deliveries WHERE event_id = 'evt_left_behind'`, [])).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM events WHERE id = 'evt_left_behind' AND dispatched_at IS NOT NULL`, [])).toBe(1);
  });
});

describe(`events no listener has work for (${target})`, () => {
  // No EventRecorderModule here: the webhook fan-out is the only listener, as in production.
  const setup = appWithReceiver({ env: { ...NO_RATE_LIMIT } });

  const eventsOf = (accountId: string) =>
    setup.app.query<{ id: string; kind: string; created_at: Date; dispatched_at: Date | null }>(
      `SELECT id, kind, created_at, dispatched_at FROM events WHERE account_id = $1 ORDER BY created_at`,
      [accountId],
    );

  it('are written as dispatched when the account has no Active endpoint: no delivery, nothing for the relay', async () => {
    const dev = await newAccountClient(setup.app);
    const { appId } = (await dev.post('/v1/apps', { name: 'Quiet' }).expect(201)).body;
    await dev.post('/v1/apps/deploy', { appId, env: 'production' }).expect(200);
    // Dispatched as they were written, in the same transaction: the same instant, and before the dispatcher ran.
    const events = await eventsOf(dev.accountId);
    expect(events.map((e) => e.kind)).toEqual(['app.created', 'deployment.succeeded']);
    for (const e of events) expect(e.dispatched_at?.getTime()).toBe(e.created_at.getTime());
    await setup.app.server.app.get(EventDispatcher).idle();
    expect(await setup.app.query(`SELECT id FROM webhook_deliveries WHERE account_id = $1`, [dev.accountId])).toEqual([]);
  });

  it('are dispatched as before once the account has an Active endpoint: the endpoint gets the events raised after it', async () => {
    const dev = await newAccountClient(setup.app);
    const { appId } = (await dev.post('/v1/apps', { name: 'Heard' }).expect(201)).body;
    await dev.post('/v1/webhook-endpoints', { url: `${setup.receiver.url}/heard`, events: ['deployment.succeeded'] }).expect(201);
    const { deploymentId } = (await dev.post('/v1/apps/deploy', { appId, env: 'production' }).expect(200)).body;
    await until(() => setup.receiver.at('/heard').length === 1, 10_000, 'the deployment delivered');
    expect(JSON.parse(setup.receiver.at('/heard')[0].raw)).toMatchObject({ event: 'deployment.succeeded', data: { deploymentId, appId } });
    await setup.app.server.app.get(EventDispatcher).idle();
    const [created, deployed] = await eventsOf(dev.accountId);
    // app.created came before the endpoint: written as dispatched. deployment.succeeded went through the dispatcher.
    expect(created.dispatched_at?.getTime()).toBe(created.created_at.getTime());
    expect(deployed.dispatched_at).not.toBeNull();
    expect(deployed.dispatched_at!.getTime()).toBeGreaterThan(deployed.created_at.getTime());
    expect(await setup.app.query(`SELECT event_id FROM webhook_deliveries WHERE account_id = $1`, [dev.accountId])).toEqual([{ event_id: deployed.id }]);
  });

  it("the fan-out's condition, SQL on the event row, is what decides", () => {
    // The suite above adds a recorder that listens to everything without a condition: there, every event is dispatched.
    expect(setup.app.server.app.get(EventDispatcher).dispatchWhen).toMatch(/^\(EXISTS \(SELECT 1 FROM webhook_endpoints w WHERE w\.account_id = e\.account_id/);
  });
});

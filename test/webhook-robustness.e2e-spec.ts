import { newId } from '../src/common/ids.js';
import { Transactions } from '../src/database/transactions.js';
import { DomainEvents } from '../src/events/domain-events.service.js';
import { AttemptRecorder, TryOutcome, UNSTORABLE_DETAILS } from '../src/webhooks/attempt-recorder.js';
import { createAccount, target } from './support/test-app.js';
import { appWithReceiver, until } from './support/webhook-receiver.js';

// A hanging receiver's backlog, against a worker of WEBHOOK_CONCURRENCY slots: enough events that without
// per-endpoint slots they fill every slot and B's test event waits behind all of them (as the review's 300
// did against the default 128 slots), few enough that the run stays cheap.
const EVENTS = 64;
const CONCURRENCY = 32;

describe(`webhook robustness (${target})`, () => {
  const setup = appWithReceiver({
    env: {
      WEBHOOK_TIMEOUT_MS: '250',
      WEBHOOK_CONCURRENCY: String(CONCURRENCY),
    },
  });

  async function endpoint(path: string) {
    const { accountId, apiKey } = await createAccount(setup.app);
    const auth = { authorization: `Bearer ${apiKey}` };
    const res = await setup.app
      .http()
      .post('/v1/webhook-endpoints')
      .set(auth)
      .send({ url: `${setup.receiver.url}${path}` })
      .expect(201);
    return { accountId, auth, id: res.body.id as string };
  }

  const deliveriesOf = (endpointId: string) =>
    setup.app.query<{ id: string; status: string; attempts: number[] }>(
      `SELECT d.id, d.status, coalesce(array_agg(a.attempt ORDER BY a.attempt) FILTER (WHERE a.id IS NOT NULL), '{}') AS attempts
         FROM webhook_deliveries d LEFT JOIN webhook_attempts a ON a.delivery_id = d.id
        WHERE d.endpoint_id = $1 GROUP BY d.id`,
      [endpointId],
    );

  it("does not hold up another account's test event behind a hanging receiver's backlog of events, and loses none of them", async () => {
    setup.receiver.modes.set('/hanging', 'hang');
    const a = await endpoint('/hanging');
    const b = await endpoint('/healthy');
    // EVENTS events in one transaction: one fan-out, EVENTS jobs queued at once, ahead of B's.
    await setup.app.server.app.get(Transactions).run(async () => {
      for (let i = 0; i < EVENTS; i++) {
        await setup.app.server.app
          .get(DomainEvents)
          .raise('user.created', a.accountId, { id: `usr_${i}`, email: `u${i}@example.com`, appId: 'app_1', source: 'api' });
      }
    });
    await until(async () => (await deliveriesOf(a.id)).length === EVENTS, 15_000, "A's deliveries");
    await until(() => setup.receiver.at('/hanging').length > 0, 15_000, "A's first attempt");

    await setup.app.http().post(`/v1/webhook-endpoints/${b.id}/test`).set(b.auth).expect(202);
    await until(() => setup.receiver.at('/healthy').length === 1, 30_000, "B's test event");
    const before = setup.receiver.received.slice(0, setup.receiver.received.indexOf(setup.receiver.at('/healthy')[0]));
    const pendingThen = (await deliveriesOf(a.id)).filter((d) => d.status === 'pending').length;
    expect(JSON.parse(setup.receiver.at('/healthy')[0].raw).event).toBe('webhook.test');

    // Without per-endpoint slots B waits in line behind every queued attempt to A: all of A's
    // events reach A before B's. With them A holds an eighth of the worker, its other jobs go back
    // to the queue, and B's goes in one of the free slots at once, ahead of most of A's backlog.
    const aEventsBefore = new Set(before.filter((r) => r.path === '/hanging').map((r) => JSON.parse(r.raw).id));
    expect(aEventsBefore.size).toBeLessThan((EVENTS * 2) / 3);
    expect(pendingThen).toBeGreaterThan((EVENTS * 2) / 3);

    // Nothing lost: jobs sent back to the queue keep their tries. Once every delivery to A has been
    // tried, A's receiver recovers: each delivery ends succeeded, or failed after all four attempts,
    // its attempts numbered from 1 without a gap.
    await until(async () => (await deliveriesOf(a.id)).every((d) => d.attempts.length > 0), 60_000, 'a first attempt of every delivery to A');
    setup.receiver.modes.set('/hanging', 'ok');
    await until(async () => (await deliveriesOf(a.id)).every((d) => d.status !== 'pending'), 60_000, "A's deliveries to settle");
    const settled = await deliveriesOf(a.id);
    expect(settled).toHaveLength(EVENTS);
    const numbered = (d: { attempts: number[] }) => d.attempts.every((n, i) => n === i + 1);
    expect(settled.filter((d) => !numbered(d) || (d.status === 'failed' && d.attempts.length !== 4))).toEqual([]);
    const succeeded = await setup.app.query<{ event_id: string; attempt: number }>(
      `SELECT d.event_id, a.attempt FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id AND a.status_code = 200 WHERE d.endpoint_id = $1`,
      [a.id],
    );
    expect(succeeded.length).toBe(settled.filter((d) => d.status === 'succeeded').length);
    const answered = new Set(setup.receiver.at('/hanging').map((r) => `${JSON.parse(r.raw).id} ${r.headers['x-service-delivery-attempt']}`));
    expect(succeeded.filter((row) => !answered.has(`${row.event_id} ${row.attempt}`))).toEqual([]);
    const metrics = (await setup.app.http().get('/metrics').expect(200)).text;
    expect(Number(/^webhook_deliveries_deferred_total (\d+)/m.exec(metrics)?.[1])).toBeGreaterThan(0);
  });

  it('records the other attempts of a group when the database refuses one (a NUL in its text), and sets that one aside', async () => {
    const a = await endpoint('/poison');
    const ids = ['del_poison1', 'del_poison2', 'del_poison3'];
    // Deliveries without jobs: only what this test records touches them.
    for (const id of ids) {
      await setup.app.query(`INSERT INTO events (id, account_id, kind, data, created_at, dispatched_at) VALUES ($1, $2, 'user.created', '{}', now(), now())`, [
        `evt_${id}`,
        a.accountId,
      ]);
      await setup.app.query(
        `INSERT INTO webhook_deliveries (id, account_id, endpoint_id, event_id, status, attempt_count) VALUES ($1, $2, $3, $4, 'pending', 0)`,
        [id, a.accountId, a.id, `evt_${id}`],
      );
    }
    const tryOf = (deliveryId: string, responseBody: string, error: string | null): TryOutcome => ({
      attempt: { id: newId('att'), deliveryId, attempt: 1, attemptedAt: new Date(), statusCode: 500, durationMs: 7, responseBody, error },
      delivery: { id: deliveryId, status: 'pending', attemptCount: 1 },
      accountId: a.accountId,
    });
    const recorder = setup.app.server.app.get(AttemptRecorder);
    // One tick: one group.
    const failures = await Promise.all([
      recorder.record(tryOf(ids[0], 'first', null)),
      recorder.record(tryOf(ids[1], 'second', 'TLS: certificate name "evil\u0000.example"')),
      recorder.record(tryOf(ids[2], 'third', null)),
    ]);
    // Nothing for the queue to retry: the group was written, the bad try without its text.
    expect(failures).toEqual([undefined, undefined, undefined]);
    const attempts = await setup.app.query(
      `SELECT delivery_id, attempt, status_code, response_body, error FROM webhook_attempts WHERE delivery_id = ANY($1) ORDER BY delivery_id`,
      [ids],
    );
    expect(attempts).toEqual([
      { delivery_id: ids[0], attempt: 1, status_code: 500, response_body: 'first', error: null },
      { delivery_id: ids[1], attempt: 1, status_code: 500, response_body: null, error: UNSTORABLE_DETAILS },
      { delivery_id: ids[2], attempt: 1, status_code: 500, response_body: 'third', error: null },
    ]);
    const deliveries = await setup.app.query(`SELECT id, attempt_count FROM webhook_deliveries WHERE id = ANY($1) ORDER BY id`, [ids]);
    expect(deliveries).toEqual(ids.map((id) => ({ id, attempt_count: 1 })));
    const metrics = (await setup.app.http().get('/metrics').expect(200)).text;
    expect(metrics).toContain('batch_rows_set_aside_total{writer="webhook_attempts"} 1');
  });
});

import { TypeOrmModule } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { AccountsService } from '../../src/accounts/accounts.service.js';
import { BillingModule } from '../../src/billing/billing.module.js';
import { newId } from '../../src/common/ids.js';
import { EventsModule } from '../../src/events/events.module.js';
import { AttemptRecorder, type TryOutcome, UNSTORABLE_DETAILS } from '../../src/webhooks/attempt-recorder.js';
import { EndpointHealth } from '../../src/webhooks/endpoint-health.js';
import { WebhookDeliveriesRepository } from '../../src/webhooks/webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from '../../src/webhooks/webhook-endpoints.repository.js';
import { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../../src/webhooks/webhook.entities.js';
import { target } from '../support/fresh-database.js';
import { startTestModule, TestModule } from '../support/test-module.js';

describe(`recording webhook delivery attempts, on the database (${target})`, () => {
  let t: TestModule;
  let recorder: AttemptRecorder;

  beforeAll(async () => {
    t = await startTestModule({
      imports: [EventsModule, BillingModule, TypeOrmModule.forFeature([WebhookEndpoint, WebhookDelivery, WebhookAttempt])],
      providers: [AttemptRecorder, EndpointHealth, WebhookDeliveriesRepository, WebhookEndpointsRepository],
    });
    recorder = t.get(AttemptRecorder);
  });

  afterAll(() => t?.close());

  /** An account with an Active endpoint, and `n` pending deliveries to it (one per event: an event goes to an endpoint once). */
  async function arrange(n: number) {
    const accountId = (await t.get(AccountsService).create(`dev-${randomBytes(4).toString('hex')}@example.com`)).id;
    const endpointId = newId('we');
    await t.query(`INSERT INTO webhook_endpoints (id, account_id, url, events, secret) VALUES ($1, $2, 'https://receiver.example/hook', '["*"]', 'sealed')`, [
      endpointId,
      accountId,
    ]);
    const deliveries = Array.from({ length: n }, () => newId('whd'));
    for (const id of deliveries) {
      const eventId = newId('evt');
      await t.query(`INSERT INTO events (id, account_id, kind, data, dispatched_at) VALUES ($1, $2, 'user.created', '{}', now())`, [eventId, accountId]);
      await t.query(`INSERT INTO webhook_deliveries (id, account_id, endpoint_id, event_id) VALUES ($1, $2, $3, $4)`, [id, accountId, endpointId, eventId]);
    }
    return { accountId, endpointId, deliveries };
  }

  function tried(
    accountId: string,
    deliveryId: string,
    attempt: number,
    answer: { status: number | null; body?: string; error?: string },
    outcome: TryOutcome['delivery']['status'],
  ): TryOutcome {
    return {
      accountId,
      attempt: {
        id: newId('wha'),
        deliveryId,
        attempt,
        attemptedAt: new Date(),
        statusCode: answer.status,
        durationMs: 12,
        responseBody: answer.body ?? null,
        error: answer.error ?? null,
      },
      delivery: { id: deliveryId, status: outcome, attemptCount: attempt },
    };
  }

  const attempts = (deliveryIds: string[]) =>
    t.query<{ delivery_id: string; attempt: number; status_code: number | null; response_body: string | null; error: string | null }>(
      `SELECT delivery_id, attempt, status_code, response_body, error FROM webhook_attempts WHERE delivery_id = ANY($1) ORDER BY array_position($1, delivery_id), attempt`,
      [deliveryIds],
    );
  const deliveryStates = (deliveryIds: string[]) =>
    t.query<{ status: string; attempt_count: number }>(
      `SELECT status, attempt_count FROM webhook_deliveries WHERE id = ANY($1) ORDER BY array_position($1, id)`,
      [deliveryIds],
    );
  const metered = async (accountId: string) =>
    (
      await t.query<{ source_id: string; quantity: string }>(
        `SELECT source_id, quantity::text FROM usage_records WHERE account_id = $1 AND meter = 'webhook.deliveries' ORDER BY source_id`,
        [accountId],
      )
    ).map((r) => [r.source_id, r.quantity]);

  it('records concurrent tries together: their attempts, their deliveries’ states, and the meter once per delivery', async () => {
    const { accountId, deliveries } = await arrange(3);
    const [d1, d2, d3] = deliveries;
    const outages = await Promise.all([
      recorder.record(tried(accountId, d1, 1, { status: 200, body: 'ok' }, 'succeeded')),
      recorder.record(tried(accountId, d2, 1, { status: 500, body: 'busy' }, 'pending')),
      recorder.record(tried(accountId, d3, 1, { status: null, error: 'connect ECONNREFUSED' }, 'pending')),
    ]);
    expect(outages).toEqual([undefined, undefined, undefined]);
    expect(await attempts(deliveries)).toEqual([
      { delivery_id: d1, attempt: 1, status_code: 200, response_body: 'ok', error: null },
      { delivery_id: d2, attempt: 1, status_code: 500, response_body: 'busy', error: null },
      { delivery_id: d3, attempt: 1, status_code: null, response_body: null, error: 'connect ECONNREFUSED' },
    ]);
    expect(await deliveryStates(deliveries)).toEqual([
      { status: 'succeeded', attempt_count: 1 },
      { status: 'pending', attempt_count: 1 },
      { status: 'pending', attempt_count: 1 },
    ]);

    // The retry of d2 succeeds: another attempt, the delivery done, and the delivery still metered once.
    await recorder.record(tried(accountId, d2, 2, { status: 204 }, 'succeeded'));
    expect((await attempts([d2])).map((a) => [a.attempt, a.status_code])).toEqual([
      [1, 500],
      [2, 204],
    ]);
    expect(await deliveryStates([d2])).toEqual([{ status: 'succeeded', attempt_count: 2 }]);
    expect(await metered(accountId)).toEqual([...deliveries].sort().map((id) => [id, '1']));
  });

  it('disables the endpoint that answered 410 Gone, with the attempt', async () => {
    const { accountId, endpointId, deliveries } = await arrange(1);
    await recorder.record({ ...tried(accountId, deliveries[0], 1, { status: 410 }, 'failed'), disableEndpoint: endpointId });
    const [endpoint] = await t.query<{ status: string }>(`SELECT status FROM webhook_endpoints WHERE id = $1`, [endpointId]);
    expect(endpoint.status).toBe('Disabled');
    expect(await deliveryStates(deliveries)).toEqual([{ status: 'failed', attempt_count: 1 }]);
  });

  it('records a try whose receiver text the database refuses without that text, and the rest of its group whole', async () => {
    const { accountId, deliveries } = await arrange(2);
    const [clean, poisoned] = deliveries;
    const outages = await Promise.all([
      recorder.record(tried(accountId, clean, 1, { status: 500, body: 'plain text' }, 'pending')),
      recorder.record(tried(accountId, poisoned, 1, { status: 500, body: 'a NUL \u0000 here' }, 'pending')),
    ]);
    expect(outages).toEqual([undefined, undefined]);
    expect(await attempts(deliveries)).toEqual([
      { delivery_id: clean, attempt: 1, status_code: 500, response_body: 'plain text', error: null },
      { delivery_id: poisoned, attempt: 1, status_code: 500, response_body: null, error: UNSTORABLE_DETAILS },
    ]);
    expect(await deliveryStates(deliveries)).toEqual([
      { status: 'pending', attempt_count: 1 },
      { status: 'pending', attempt_count: 1 },
    ]);
    expect(await metered(accountId)).toEqual([...deliveries].sort().map((id) => [id, '1']));
  });
});

import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { verify as libVerify } from '../libs/webhook-signature/index.js';
import { DeliverySweep } from '../src/webhooks/delivery-sweep.service.js';
import { WebhooksService } from '../src/webhooks/webhooks.service.js';
import { raiseEvent } from './support/api-client.js';
import { createAccount, startTestApp, target, TestApp } from './support/test-app.js';
import { appWithReceiver, until } from './support/webhook-receiver.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stripe = new Stripe('sk_test_x');

describe(`webhooks (${target})`, () => {
  const setup = appWithReceiver({
    env: {
      WEBHOOK_TIMEOUT_MS: '3000',
      WEBHOOK_SECRET_KEY: 'test-webhook-secret-key-0123456789abcdef',
    },
  });

  async function account() {
    const { accountId, apiKey } = await createAccount(setup.app);
    const auth = { authorization: `Bearer ${apiKey}` };
    const endpoint = async (path: string, events?: string[]) => {
      const res = await setup.app
        .http()
        .post('/v1/webhook-endpoints')
        .set(auth)
        .send({ url: `${setup.receiver.url}${path}`, ...(events ? { events } : {}) });
      expect(res.status).toBe(201);
      return res.body as { id: string; secret: string; status: string; events: string[] };
    };
    const userCreated = (id = 'usr_1') => raiseEvent(setup.app, 'user.created', accountId, { id, email: `${id}@example.com`, appId: 'app_1', source: 'api' });
    const deliveries = async (endpointId: string) =>
      (await setup.app.http().get(`/v1/webhook-endpoints/${endpointId}/deliveries`).set(auth).expect(200)).body.data as Array<{
        id: string;
        status: string;
        event: string;
        attempts: Array<{ attempt: number; statusCode: number | null; error: string | null; responseBody: string | null; nextAttemptAt: string | null }>;
      }>;
    return { accountId, auth, endpoint, userCreated, deliveries };
  }

  it('manages endpoints: create shows the secret once, list/get/patch/delete, validation', async () => {
    const a = await account();
    const created = await setup.app
      .http()
      .post('/v1/webhook-endpoints')
      .set(a.auth)
      .send({ url: `${setup.receiver.url}/crud`, events: ['user.*'], description: 'sync' })
      .expect(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^we_[0-9A-Z]{26}$/),
      url: `${setup.receiver.url}/crud`,
      events: ['user.*'],
      description: 'sync',
      status: 'Active',
      disabledReason: null,
      // Standard base64 of 32 bytes: what the Standard Webhooks libraries decode.
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const id = created.body.id as string;
    // Encrypted at rest (WEBHOOK_SECRET_KEY is set here).
    const [row] = await setup.app.query<{ secret: string }>('SELECT secret FROM webhook_endpoints WHERE id = $1', [id]);
    expect(row.secret).toMatch(/^enc:v1:/);
    expect(row.secret).not.toContain(created.body.secret.slice(6));
    const got = await setup.app.http().get(`/v1/webhook-endpoints/${id}`).set(a.auth).expect(200);
    expect(got.body.secret).toBeUndefined();
    const list = await setup.app.http().get('/v1/webhook-endpoints').set(a.auth).expect(200);
    expect(list.body).toEqual({ data: [got.body], nextCursor: null });
    const patched = await setup.app
      .http()
      .patch(`/v1/webhook-endpoints/${id}`)
      .set(a.auth)
      .send({ events: ['*'], status: 'Disabled' })
      .expect(200);
    expect(patched.body).toMatchObject({ events: ['*'], status: 'Disabled' });
    const bad = await setup.app
      .http()
      .post('/v1/webhook-endpoints')
      .set(a.auth)
      .send({ url: `${setup.receiver.url}/x`, events: ['user.nope'] })
      .expect(400);
    expect(bad.body).toMatchObject({ error: true, code: 400, message: expect.stringContaining('events') });
    await setup.app.http().patch(`/v1/webhook-endpoints/${id}`).set(a.auth).send({ status: 'Paused' }).expect(400);
    await setup.app.http().delete(`/v1/webhook-endpoints/${id}`).set(a.auth).expect(204);
    await setup.app.http().get(`/v1/webhook-endpoints/${id}`).set(a.auth).expect(404);
    // Another account sees nothing.
    const b = await account();
    await setup.app.http().get(`/v1/webhook-endpoints/${created.body.id}`).set(b.auth).expect(404);
  });

  it('delivers one signed POST per matching endpoint, verifiable by Stripe, by libs/ and by standardwebhooks; app.* gets no user.created', async () => {
    const a = await account();
    const all = await a.endpoint('/all');
    const users = await a.endpoint('/users', ['user.*']);
    const exact = await a.endpoint('/exact', ['user.created']);
    await a.endpoint('/apps', ['app.*']);
    await a.userCreated('usr_fan');
    await until(() => setup.receiver.at('/all').length + setup.receiver.at('/users').length + setup.receiver.at('/exact').length >= 3, 10_000, '3 deliveries');
    await sleep(400);
    expect(setup.receiver.at('/apps')).toHaveLength(0);
    for (const [path, ep] of [
      ['/all', all],
      ['/users', users],
      ['/exact', exact],
    ] as const) {
      const got = setup.receiver.at(path);
      expect(got).toHaveLength(1);
      const { raw, headers } = got[0];
      expect(headers['content-type']).toBe('application/json');
      expect(headers['x-service-delivery-attempt']).toBe('1');
      const body = JSON.parse(raw);
      expect(Object.keys(body)).toEqual(['id', 'event', 'createdAt', 'data']);
      expect(body).toEqual({
        id: expect.stringMatching(/^evt_/),
        event: 'user.created',
        createdAt: expect.any(String),
        data: { id: 'usr_fan', email: 'usr_fan@example.com', appId: 'app_1', source: 'api' },
      });
      expect(headers['x-service-event-id']).toBe(body.id);
      const signature = headers['x-service-signature'] as string;
      expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(stripe.webhooks.constructEvent(raw, signature, ep.secret)).toEqual(body);
      expect(() => libVerify(raw, signature, ep.secret)).not.toThrow();
      expect(() => stripe.webhooks.constructEvent(raw, signature, 'whsec_wrong')).toThrow();
      // The Standard Webhooks headers, with the same secret, verified by that standard's own library.
      expect(headers['webhook-id']).toBe(body.id);
      expect(headers['webhook-timestamp']).toBe(/^t=(\d+)/.exec(signature)![1]);
      expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      expect(new Webhook(ep.secret).verify(raw, headers as Record<string, string>)).toEqual(body);
      // A tampered body fails both schemes.
      const tampered = raw.replace('usr_fan@example.com', 'evil@example.com');
      expect(tampered).not.toBe(raw);
      expect(() => stripe.webhooks.constructEvent(tampered, signature, ep.secret)).toThrow();
      expect(() => libVerify(tampered, signature, ep.secret)).toThrow();
      expect(() => new Webhook(ep.secret).verify(tampered, headers as Record<string, string>)).toThrow('No matching signature');
    }
    // One event, the same id everywhere; the log shows it.
    const eventId = JSON.parse(setup.receiver.at('/all')[0].raw).id;
    expect(JSON.parse(setup.receiver.at('/users')[0].raw).id).toBe(eventId);
    const events = await setup.app.http().get('/v1/events?kind=user.created').set(a.auth).expect(200);
    expect(events.body.data).toEqual([{ id: eventId, event: 'user.created', createdAt: expect.any(String), data: expect.any(Object) }]);
    await setup.app.http().get(`/v1/events/${eventId}`).set(a.auth).expect(200);
    await setup.app.http().get('/v1/events?kind=nope').set(a.auth).expect(400);
    // The OpenAPI document describes the routes.
    const doc = await setup.app.http().get('/docs/openapi.json').expect(200);
    for (const path of ['/v1/webhook-endpoints', '/v1/webhook-endpoints/{id}/rotate-secret', '/v1/webhook-deliveries/{id}/retry', '/v1/events/{id}']) {
      expect(doc.body.paths[path]).toBeDefined();
    }
    const createdDelivery = async () => (await a.deliveries(all.id)).find((d) => d.event === 'user.created');
    await until(async () => (await createdDelivery())?.status === 'succeeded', 5000, 'succeeded');
    const delivery = await createdDelivery();
    expect(delivery).toMatchObject({
      event: 'user.created',
      status: 'succeeded',
      nextAttemptAt: null,
      payload: JSON.parse(setup.receiver.at('/all')[0].raw),
      attempts: [{ attempt: 1, statusCode: 200, responseBody: 'thanks', error: null, nextAttemptAt: null }],
    });
  });

  it('keeps the connection to a receiver alive between deliveries', async () => {
    const a = await account();
    await a.endpoint('/kept-alive', ['user.created']);
    for (let i = 1; i <= 4; i++) {
      await a.userCreated(`usr_keep${i}`);
      await until(() => setup.receiver.at('/kept-alive').length === i, 10_000, `delivery ${i}`);
    }
    const got = setup.receiver.at('/kept-alive');
    expect(got.map((r) => r.headers.connection)).toEqual(['keep-alive', 'keep-alive', 'keep-alive', 'keep-alive']);
    // One after the other, so each found the previous one's connection free: one connection for all four.
    expect(new Set(got.map((r) => r.remotePort)).size).toBe(1);
  });

  it('retries a 500 receiver 4 times with growing gaps, then failed; a manual retry after recovery succeeds', async () => {
    const a = await account();
    setup.receiver.modes.set('/fail', 'fail');
    const ep = await a.endpoint('/fail', ['user.created']);
    await a.userCreated('usr_fail');
    await until(async () => (await a.deliveries(ep.id))[0]?.status === 'failed', 15_000, 'failed');
    await sleep(500);
    const got = setup.receiver.at('/fail');
    expect(got.map((r) => r.headers['x-service-delivery-attempt'])).toEqual(['1', '2', '3', '4']);
    expect(new Set(got.map((r) => r.headers['x-service-event-id'])).size).toBe(1);
    const gaps = got.slice(1).map((r, i) => r.at - got[i].at);
    expect(gaps[2]).toBeGreaterThan(gaps[0]);
    expect(gaps[2]).toBeGreaterThanOrEqual(90);
    const [delivery] = await a.deliveries(ep.id);
    expect(delivery.attempts.map((x) => [x.attempt, x.statusCode])).toEqual([
      [1, 500],
      [2, 500],
      [3, 500],
      [4, 500],
    ]);
    expect(delivery.attempts[0].responseBody).toHaveLength(1024);
    // Each failed try but the last said when the next was due.
    expect(delivery.attempts.map((x) => x.nextAttemptAt !== null)).toEqual([true, true, true, false]);

    setup.receiver.modes.set('/fail', 'ok');
    const retried = await setup.app.http().post(`/v1/webhook-deliveries/${delivery.id}/retry`).set(a.auth).expect(202);
    expect(retried.body.id).toBe(delivery.id);
    await until(async () => (await a.deliveries(ep.id))[0]?.status === 'succeeded', 10_000, 'succeeded after retry');
    expect(setup.receiver.at('/fail')).toHaveLength(5);
    expect(setup.receiver.at('/fail')[4].headers['x-service-delivery-attempt']).toBe('5');
    const other = await account();
    await setup.app.http().post(`/v1/webhook-deliveries/${delivery.id}/retry`).set(other.auth).expect(404);
  });

  it('refuses a manual retry while an attempt is under way (409), so none is silently dropped', async () => {
    const a = await account();
    setup.receiver.modes.set('/slow', 'hang');
    const ep = await a.endpoint('/slow', ['user.created']);
    await a.userCreated('usr_slow');
    await until(() => setup.receiver.at('/slow').length === 1, 10_000, 'the first attempt');
    const [delivery] = await a.deliveries(ep.id);
    expect(delivery.status).toBe('pending');
    const refused = await setup.app.http().post(`/v1/webhook-deliveries/${delivery.id}/retry`).set(a.auth).expect(409);
    expect(refused.body).toMatchObject({
      error: true,
      code: 409,
      message: `Webhook delivery ${delivery.id} has an attempt under way; retry once it has ended`,
    });
    // The attempt under way times out (WEBHOOK_TIMEOUT_MS) and the queue's own retry succeeds.
    setup.receiver.modes.set('/slow', 'ok');
    await until(async () => (await a.deliveries(ep.id))[0]?.status === 'succeeded', 15_000, 'succeeded on the queue retry');
    expect((await a.deliveries(ep.id))[0].attempts.map((x) => x.attempt)).toEqual([1, 2]);
  });
  it('disables an endpoint that answers 410 after one attempt', async () => {
    const a = await account();
    setup.receiver.modes.set('/gone', 'gone');
    const ep = await a.endpoint('/gone');
    await a.userCreated('usr_gone');
    await until(async () => (await a.deliveries(ep.id))[0]?.status === 'failed', 10_000, 'failed');
    await sleep(400);
    expect(setup.receiver.at('/gone')).toHaveLength(1);
    const got = await setup.app.http().get(`/v1/webhook-endpoints/${ep.id}`).set(a.auth).expect(200);
    expect(got.body.status).toBe('Disabled');
    // Disabled: no further deliveries.
    await a.userCreated('usr_gone2');
    await sleep(300);
    expect(setup.receiver.at('/gone')).toHaveLength(1);
  });

  it('signs with both secrets during a rotation; test events go to that endpoint only', async () => {
    const a = await account();
    const ep = await a.endpoint('/rotate');
    await a.endpoint('/rotate-other');
    const rotated = await setup.app.http().post(`/v1/webhook-endpoints/${ep.id}/rotate-secret`).set(a.auth).expect(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(ep.secret);
    const test = await setup.app.http().post(`/v1/webhook-endpoints/${ep.id}/test`).set(a.auth).expect(202);
    expect(test.body).toMatchObject({ event: 'webhook.test', status: 'pending', endpointId: ep.id });
    await until(() => setup.receiver.at('/rotate').length === 1, 10_000, 'test delivery');
    await sleep(300);
    expect(setup.receiver.at('/rotate-other')).toHaveLength(0);
    const { raw, headers } = setup.receiver.at('/rotate')[0];
    const signature = headers['x-service-signature'] as string;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(JSON.parse(raw).event).toBe('webhook.test');
    expect(headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    for (const secret of [ep.secret, rotated.body.secret]) {
      expect(stripe.webhooks.constructEvent(raw, signature, secret)).toMatchObject({ event: 'webhook.test' });
      expect(() => libVerify(raw, signature, secret)).not.toThrow();
      expect(new Webhook(secret).verify(raw, headers as Record<string, string>)).toMatchObject({ event: 'webhook.test' });
    }
  });

  it('does not let a hanging endpoint delay another', async () => {
    const a = await account();
    setup.receiver.modes.set('/hang', 'hang');
    const hang = await a.endpoint('/hang');
    await a.endpoint('/fast');
    for (let i = 0; i < 5; i++) await a.userCreated(`usr_h${i}`);
    await until(() => setup.receiver.at('/fast').length === 5, 5000, '5 fast deliveries');
    await until(() => setup.receiver.at('/hang').length >= 1, 5000, 'the hanging endpoint asked');
    // The five arrived while every attempt at the hanging endpoint still waited for its answer (an attempt is recorded
    // once it ends, at WEBHOOK_TIMEOUT_MS, 3 s, at the earliest): none waited behind it. Ordered by the database, not a
    // wall-clock bound (a bound of 1 s failed on a busy CI machine at 1,015 ms).
    const hangAttempts = await setup.app.query(
      `SELECT count(*)::int AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.endpoint_id = $1`,
      [hang.id],
    );
    expect(hangAttempts).toEqual([{ n: 0 }]);
  });

  it('re-queues pending deliveries that have no live job (recovery sweep)', async () => {
    const a = await account();
    const ep = await a.endpoint('/sweep');
    // A delivery written without its job, as after a crash between the write and the enqueue.
    await setup.app.query(
      `INSERT INTO events (id, account_id, kind, data, created_at, dispatched_at) VALUES ('evt_sweep1', $1, 'user.created', '{"id":"usr_s"}', now(), now())`,
      [a.accountId],
    );
    await setup.app.query(
      `INSERT INTO webhook_deliveries (id, account_id, endpoint_id, event_id, status, attempt_count) VALUES ('del_sweep1', $1, $2, 'evt_sweep1', 'pending', 0)`,
      [a.accountId, ep.id],
    );
    await sleep(300);
    expect(setup.receiver.at('/sweep')).toHaveLength(0);
    await setup.app.server.app.get(DeliverySweep).sweep(new Date(Date.now() + 1000));
    await until(() => setup.receiver.at('/sweep').length === 1, 10_000, 'swept delivery');
    expect(setup.receiver.at('/sweep')[0].headers['x-service-event-id']).toBe('evt_sweep1');
    const metrics = await setup.app.http().get('/metrics').expect(200);
    expect(metrics.text).toContain('webhook_delivery_attempts_total{outcome="succeeded"}');
    expect(metrics.text).toContain('webhook_queue_depth');
  });

  it('stores signing secrets encrypted, and encrypts secrets an older version stored in plain when a worker starts', async () => {
    const a = await account();
    const ep = await a.endpoint('/sealed');
    const [row] = await setup.app.query<{ secret: string }>(`SELECT secret FROM webhook_endpoints WHERE id = $1`, [ep.id]);
    expect(row.secret).toMatch(/^enc:v1:/);
    expect(row.secret).not.toContain(ep.secret);
    // As a version that allowed running without a key left it:
    await setup.app.query(`UPDATE webhook_endpoints SET secret = $2 WHERE id = $1`, [ep.id, ep.secret]);
    await setup.app.server.app.get(WebhooksService).onApplicationBootstrap();
    const [after] = await setup.app.query<{ secret: string }>(`SELECT secret FROM webhook_endpoints WHERE id = $1`, [ep.id]);
    expect(after.secret).toMatch(/^enc:v1:/);
    await a.userCreated('usr_sealed');
    await until(() => setup.receiver.at('/sealed').length === 1, 5000, 'delivery signed with the re-sealed secret');
    const delivered = setup.receiver.at('/sealed')[0];
    expect(() => stripe.webhooks.constructEvent(delivered.raw, delivered.headers['x-service-signature'] as string, ep.secret)).not.toThrow();
  });

  it('answers a test send with a delivery whose status agrees with its attempts', async () => {
    const a = await account();
    const ep = await a.endpoint('/consistent');
    for (let i = 0; i < 30; i++) {
      const res = await setup.app.http().post(`/v1/webhook-endpoints/${ep.id}/test`).set(a.auth).expect(202);
      const succeeded = res.body.attempts.some((t: { statusCode: number | null }) => t.statusCode === 200);
      expect({ status: res.body.status, succeeded }).toEqual({ status: succeeded ? 'succeeded' : 'pending', succeeded });
    }
  });

  describe('without WEBHOOK_ALLOW_PRIVATE', () => {
    let strict: TestApp;
    beforeAll(async () => {
      strict = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'false', RATE_LIMIT_MAX: '100000', LOG_LEVEL: 'warn' } });
    });
    afterAll(() => strict.close());

    it.each([
      'https://10.0.0.1/',
      'https://localhost/',
      'http://example.com/hook',
      'https://[::1]/',
      'https://[::127.0.0.1]/',
      'https://169.254.169.254/latest',
      `https://127.0.0.1:8443/`,
      'http://127.0.0.1:8080/',
    ])('rejects %s with 400 that says how to allow it in development', async (url) => {
      const { apiKey } = await createAccount(strict);
      const res = await strict.http().post('/v1/webhook-endpoints').set('authorization', `Bearer ${apiKey}`).send({ url });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: true, code: 400, reason: 'webhook_url_refused', message: expect.stringMatching(/^url /) });
      if (!url.includes('localhost')) expect(res.body.message).toContain('WEBHOOK_ALLOW_PRIVATE=true');
    });

    it('re-checks the address at send time: attempt error "blocked address"', async () => {
      const { accountId, apiKey } = await createAccount(strict);
      const auth = { authorization: `Bearer ${apiKey}` };
      // Rows that slipped past the create-time check (e.g. DNS that now answers a private address).
      for (const [id, url] of [
        ['we_blocked_literal', 'https://127.0.0.1:9/'],
        ['we_blocked_dns', 'https://localhost:9/'],
      ]) {
        await strict.query(`INSERT INTO webhook_endpoints (id, account_id, url, events, status, secret) VALUES ($1, $2, $3, '["*"]', 'Active', 'whsec_x')`, [
          id,
          accountId,
          url,
        ]);
      }
      await raiseEvent(strict, 'user.created', accountId, { id: 'usr_b', email: 'b@example.com', appId: 'app_1', source: 'api' });
      for (const id of ['we_blocked_literal', 'we_blocked_dns']) {
        let attempts: Array<{ error: string | null; statusCode: number | null }> = [];
        await until(
          async () => {
            const res = await strict.http().get(`/v1/webhook-endpoints/${id}/deliveries`).set(auth).expect(200);
            attempts = res.body.data[0]?.attempts ?? [];
            return attempts.length > 0;
          },
          10_000,
          `attempt on ${id}`,
        );
        expect(attempts[0]).toMatchObject({ error: 'blocked address', statusCode: null });
      }
    });
  });
});

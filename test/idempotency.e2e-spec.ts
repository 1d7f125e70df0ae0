import { randomUUID } from 'node:crypto';
import { RequestMethod } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { IdempotencyInterceptor } from '../src/common/idempotency/idempotency.interceptor.js';
import { IdempotencyService } from '../src/common/idempotency/idempotency.service.js';
import { ApiClient, EventRecorder, EventRecorderModule, expectErrorBody, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

describe(`Idempotency-Key (${target})`, () => {
  let app: TestApp;
  let events: EventRecorder;
  let dev: ApiClient;

  beforeAll(async () => {
    app = await startTestApp({ env: NO_RATE_LIMIT, modules: [EventRecorderModule] });
    events = app.server.app.get(EventRecorder);
    dev = await newAccountClient(app);
  });
  afterAll(() => app.close());

  const newApp = async () => (await dev.post('/v1/apps', { name: 'Idempotent' }).expect(201)).body.appId as string;
  const count = async (sql: string, params: unknown[]) => Number((await app.query<{ n: string }>(sql, params))[0].n);

  it('ten concurrent deploys with one key make one deployment; a later replay returns the stored response', async () => {
    const appId = await newApp();
    const key = randomUUID();
    const body = { appId, env: 'production' };
    const results = await Promise.all(Array.from({ length: 10 }, () => dev.post('/v1/apps/deploy', body, { 'Idempotency-Key': key })));

    const ok = results.filter((r) => r.status === 200);
    const inFlight = results.filter((r) => r.status === 409);
    expect(ok.length + inFlight.length).toBe(10);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((r) => r.body.deploymentId)).size).toBe(1);
    for (const r of inFlight) {
      expectErrorBody(r.body, 409, 'Idempotency-Key is in flight');
      expect(r.headers['retry-after']).toBe('1');
    }
    expect(await count('SELECT count(*) AS n FROM deployments WHERE app_id = $1', [appId])).toBe(1);
    const [deployment] = await app.query<{ id: string }>('SELECT id FROM deployments WHERE app_id = $1', [appId]);
    expect(ok[0].body.deploymentId).toBe(deployment.id);
    expect((await events.of('deployment.succeeded')).filter((e) => e.data.appId === appId)).toHaveLength(1);

    // Exactly one of them ran; the others that got 200 were replays.
    expect(ok.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(ok.length - 1);

    const replay = await dev.post('/v1/apps/deploy', { env: 'production', appId }, { 'Idempotency-Key': key }).expect(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(ok.find((r) => r.headers['idempotent-replayed'] === undefined)!.text);
    expect(await count('SELECT count(*) AS n FROM deployments WHERE app_id = $1', [appId])).toBe(1);
    expect((await events.of('deployment.succeeded')).filter((e) => e.data.appId === appId)).toHaveLength(1);

    const [row] = await app.query('SELECT account_id, method, path, status_code, response_body FROM idempotency_keys WHERE key = $1', [key]);
    expect(row).toEqual({ account_id: dev.accountId, method: 'POST', path: '/v1/apps/deploy', status_code: 200, response_body: replay.text });
  });

  it('replays a create with its 201 and body, and does not create twice', async () => {
    const key = randomUUID();
    const first = await dev.post('/v1/apps', { name: 'Once', description: 'only once' }, { 'idempotency-key': key }).expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await dev.post('/v1/apps', { description: 'only once', name: 'Once' }, { 'idempotency-key': key }).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await count(`SELECT count(*) AS n FROM apps WHERE account_id = $1 AND name = 'Once'`, [dev.accountId])).toBe(1);
    expect((await events.of('app.created')).filter((e) => e.data.name === 'Once')).toHaveLength(1);

    // Without a key, every request counts.
    await dev.post('/v1/apps', { name: 'Twice' }).expect(201);
    await dev.post('/v1/apps', { name: 'Twice' }).expect(201);
    expect(await count(`SELECT count(*) AS n FROM apps WHERE account_id = $1 AND name = 'Twice'`, [dev.accountId])).toBe(2);
  });

  it('answers 409 for the same key with another body or on another route', async () => {
    const key = randomUUID();
    const appId = await newApp();
    await dev.post('/v1/apps/deploy', { appId, env: 'production' }, { 'Idempotency-Key': key }).expect(200);
    const otherBody = await dev.post('/v1/apps/deploy', { appId, env: 'staging' }, { 'Idempotency-Key': key }).expect(409);
    expectErrorBody(otherBody.body, 409, 'Idempotency-Key was already used with a different request body');
    const otherRoute = await dev.post('/v1/users', { appId, email: 'x@example.com' }, { 'Idempotency-Key': key }).expect(409);
    expectErrorBody(otherRoute.body, 409, 'Idempotency-Key was already used for another request (POST /v1/apps/deploy)');
    expect(await count('SELECT count(*) AS n FROM deployments WHERE app_id = $1', [appId])).toBe(1);
    expect(await count('SELECT count(*) AS n FROM users WHERE app_id = $1', [appId])).toBe(0);
  });

  it('keeps keys per account', async () => {
    const key = randomUUID();
    const other = await newAccountClient(app);
    const mine = await dev.post('/v1/apps', { name: 'Same key' }, { 'Idempotency-Key': key }).expect(201);
    const theirs = await other.post('/v1/apps', { name: 'Same key' }, { 'Idempotency-Key': key }).expect(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.appId).not.toBe(mine.body.appId);
  });

  it('does not keep the key of a failed request, so a corrected retry can use it', async () => {
    const key = randomUUID();
    const appId = await newApp();
    expectErrorBody((await dev.post('/v1/apps/deploy', { appId, env: 'Prod!' }, { 'Idempotency-Key': key }).expect(400)).body, 400, 'env');
    expect(await count('SELECT count(*) AS n FROM idempotency_keys WHERE key = $1', [key])).toBe(0);
    const fixed = await dev.post('/v1/apps/deploy', { appId, env: 'prod' }, { 'Idempotency-Key': key }).expect(200);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();

    // A 409 from the service (duplicate e-mail) is not stored either.
    const userKey = randomUUID();
    await dev.post('/v1/users', { appId, email: 'dup@example.com' }).expect(201);
    await dev.post('/v1/users', { appId, email: 'dup@example.com' }, { 'Idempotency-Key': userKey }).expect(409);
    expect(await count('SELECT count(*) AS n FROM idempotency_keys WHERE key = $1', [userKey])).toBe(0);
  });

  it('makes concurrent sign-ups with one key create one user', async () => {
    const appId = await newApp();
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 6 }, () => dev.post('/v1/users', { appId, email: 'race@example.com' }, { 'Idempotency-Key': key })));
    expect(results.every((r) => r.status === 201 || (r.status === 409 && /in flight/.test(r.body.message)))).toBe(true);
    expect(new Set(results.filter((r) => r.status === 201).map((r) => r.body.id)).size).toBe(1);
    expect(await count('SELECT count(*) AS n FROM users WHERE app_id = $1', [appId])).toBe(1);
    expect((await events.of('user.created')).filter((e) => e.data.appId === appId)).toHaveLength(1);
  });

  it('rejects a malformed key with 400 naming the header', async () => {
    // (Non-ASCII keys cannot even be sent by the HTTP client; the unit spec covers the pattern.)
    for (const key of ['x'.repeat(256), 'has space', '']) {
      const res = await dev.post('/v1/apps', { name: 'Bad key' }, { 'Idempotency-Key': key });
      expect(res.status).toBe(400);
      expectErrorBody(res.body, 400, 'Idempotency-Key must be 1-255 visible ASCII characters');
    }
    expect(await count(`SELECT count(*) AS n FROM apps WHERE account_id = $1 AND name = 'Bad key'`, [dev.accountId])).toBe(0);
  });

  it('forgets keys after 24 h: the purge deletes them, and an expired key is new again', async () => {
    const expired = randomUUID();
    const fresh = randomUUID();
    const appId = await newApp();
    await dev.post('/v1/apps/deploy', { appId, env: 'production' }, { 'Idempotency-Key': expired }).expect(200);
    await dev.post('/v1/apps/deploy', { appId, env: 'production' }, { 'Idempotency-Key': fresh }).expect(200);
    await app.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = $1`, [expired]);

    // Before the purge runs, an expired key no longer conflicts: another body is a new request.
    const reused = await dev.post('/v1/apps/deploy', { appId, env: 'staging' }, { 'Idempotency-Key': expired }).expect(200);
    expect(reused.headers['idempotent-replayed']).toBeUndefined();
    expect(reused.body.env).toBe('staging');

    await app.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = $1`, [expired]);
    const purged = await app.server.app.get(IdempotencyService).purgeExpired();
    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await app.query('SELECT key FROM idempotency_keys WHERE key = ANY($1)', [[expired, fresh]])).toEqual([{ key: fresh }]);
  });

  it('binds its interceptor to every POST route, first, and to no other route', () => {
    const bound = { post: 0, other: 0 };
    for (const controller of app.server.app.get(DiscoveryService).getControllers()) {
      const prototype = (controller.metatype as { prototype: Record<string, object> }).prototype;
      for (const name of app.server.app.get(MetadataScanner).getAllMethodNames(prototype)) {
        const method = Reflect.getMetadata(METHOD_METADATA, prototype[name]) as RequestMethod | undefined;
        if (method === undefined) continue;
        const interceptors = (Reflect.getMetadata(INTERCEPTORS_METADATA, prototype[name]) as unknown[] | undefined) ?? [];
        if (method === RequestMethod.POST) {
          expect(interceptors[0]).toBe(app.server.app.get(IdempotencyInterceptor));
          bound.post++;
        } else {
          expect(interceptors.some((i) => i instanceof IdempotencyInterceptor)).toBe(false);
          bound.other++;
        }
      }
    }
    expect(bound.post).toBeGreaterThanOrEqual(10);
    expect(bound.other).toBeGreaterThanOrEqual(10);
  });

  it('documents the header on every authenticated POST', async () => {
    const doc = (await app.http().get('/docs/openapi.json').expect(200)).body;
    const posts = Object.entries(doc.paths as Record<string, { post?: { security?: object[] } }>)
      .filter(([, item]) => item.post?.security?.some((s) => 'bearer' in s))
      .map(([path]) => path);
    expect(posts).toEqual(
      expect.arrayContaining([
        '/v1/apps',
        '/v1/apps/deploy',
        '/v1/users',
        '/v1/api-keys',
        '/v1/service-accounts',
        '/v1/webhook-endpoints',
        '/v1/webhook-endpoints/{id}/test',
        '/v1/webhook-endpoints/{id}/rotate-secret',
        '/v1/webhook-deliveries/{id}/retry',
        '/v1/ai/generate',
      ]),
    );
    for (const path of posts) {
      const op = doc.paths[path].post;
      expect(op.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false })]));
      expect(op.responses['409'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorBody');
    }
  });

  describe('on every POST, not only apps, deployments and users', () => {
    const replayOf = async (path: string, body: object | undefined, key: string) => {
      const first = await dev.post(path, body, { 'Idempotency-Key': key });
      const again = await dev.post(path, body, { 'Idempotency-Key': key });
      return { first, again };
    };

    it('creates one API key for a retried creation, and does not keep the key shown once', async () => {
      const key = randomUUID();
      const { first, again } = await replayOf('/v1/api-keys', { name: 'retried', scopes: ['apps:read'] }, key);
      expect(first.status).toBe(201);
      expect(again.status).toBe(409);
      expectErrorBody(again.body, 409, 'the original response held a secret and is not kept');
      expect(again.body.reason).toBe('idempotent_response_not_kept');
      expect(await count(`SELECT count(*) AS n FROM api_keys WHERE account_id = $1 AND name = 'retried'`, [dev.accountId])).toBe(1);
      const stored = await app.query<{ response_body: string }>(`SELECT response_body FROM idempotency_keys WHERE key = $1`, [key]);
      expect(stored[0].response_body).not.toContain(first.body.key);
    });

    it('creates one service account, and one webhook endpoint, per key; their secrets are not kept', async () => {
      const saKey = randomUUID();
      const sa = await replayOf('/v1/service-accounts', { name: 'retried-sa', scopes: ['apps:read'] }, saKey);
      expect([sa.first.status, sa.again.status]).toEqual([201, 409]);
      expect(await count(`SELECT count(*) AS n FROM service_accounts WHERE account_id = $1 AND name = 'retried-sa'`, [dev.accountId])).toBe(1);

      const weKey = randomUUID();
      const we = await replayOf('/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/retried', description: 'retried' }, weKey);
      expect([we.first.status, we.again.status]).toEqual([201, 409]);
      expect(await count(`SELECT count(*) AS n FROM webhook_endpoints WHERE account_id = $1 AND description = 'retried'`, [dev.accountId])).toBe(1);
      for (const k of [saKey, weKey]) {
        const rows = await app.query<{ response_body: string }>(`SELECT response_body FROM idempotency_keys WHERE key = $1`, [k]);
        expect(rows[0].response_body).not.toMatch(/secret/i);
      }

      // Rotating twice with one key rotates once: the first answer's secret is the one in force.
      const rotate = await replayOf(`/v1/webhook-endpoints/${we.first.body.id}/rotate-secret`, undefined, randomUUID());
      expect([rotate.first.status, rotate.again.status]).toEqual([200, 409]);
      const rows = await app.query<{ previous_secret: string | null }>(`SELECT previous_secret FROM webhook_endpoints WHERE id = $1`, [we.first.body.id]);
      expect(rows[0].previous_secret).not.toBeNull();
    });

    it('sends one test event and queues one manual retry per key, replaying the stored answer', async () => {
      const endpoint = (await dev.post('/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/test-retried' }).expect(201)).body;
      const test = await replayOf(`/v1/webhook-endpoints/${endpoint.id}/test`, undefined, randomUUID());
      expect(test.first.status).toBe(202);
      expect(test.again.status).toBe(202);
      expect(test.again.headers['idempotent-replayed']).toBe('true');
      expect(test.again.body.id).toBe(test.first.body.id);
      expect(await count(`SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = $1`, [endpoint.id])).toBe(1);
    });

    it('keeps a long query string out of the stored path, and tells requests with another query apart', async () => {
      const key = randomUUID();
      const long = 'x'.repeat(2100);
      const first = await dev.post(`/v1/apps?x=${long}`, { name: 'Long query' }, { 'Idempotency-Key': key });
      expect(first.status).toBe(201);
      const again = await dev.post(`/v1/apps?x=${long}`, { name: 'Long query' }, { 'Idempotency-Key': key }).expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expectErrorBody((await dev.post(`/v1/apps?x=other`, { name: 'Long query' }, { 'Idempotency-Key': key }).expect(409)).body, 409, 'different request body');
      expect(await count(`SELECT count(*) AS n FROM apps WHERE account_id = $1 AND name = 'Long query'`, [dev.accountId])).toBe(1);
    });
  });
});

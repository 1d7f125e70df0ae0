import { randomUUID } from 'node:crypto';
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

  it('documents the header on every POST of apps, deployments and users', async () => {
    const doc = (await app.http().get('/docs/openapi.json').expect(200)).body;
    for (const path of ['/v1/apps', '/v1/apps/deploy', '/v1/users']) {
      const op = doc.paths[path].post;
      expect(op.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false })]));
      expect(op.responses['409'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorBody');
    }
  });
});

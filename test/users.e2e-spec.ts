import { ApiClient, EventRecorder, EventRecorderModule, expectErrorBody, newAccountClient, NO_RATE_LIMIT, scopedClient } from './support/api-client.js';
import { startTestApp, target, TestApp } from './support/test-app.js';
import { Receiver, until } from './support/webhook-receiver.js';

describe(`users (${target})`, () => {
  let app: TestApp;
  let events: EventRecorder;
  let dev: ApiClient;
  let appId: string;

  beforeAll(async () => {
    app = await startTestApp({ env: NO_RATE_LIMIT, modules: [EventRecorderModule] });
    events = app.server.app.get(EventRecorder);
    dev = await newAccountClient(app);
    appId = (await dev.post('/v1/apps', { name: 'Sign-ups' }).expect(201)).body.appId;
  });
  afterAll(() => app.close());

  /** Every row of the tables this feature writes that still holds the text anywhere in it. */
  /** Every table of the schema whose rows mention `text`. */
  const rowsHolding = async (text: string) => {
    const found: string[] = [];
    const tables = await app.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
    for (const { name: table } of tables) {
      const rows = await app.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} t WHERE lower(t::text) LIKE '%' || lower($1) || '%'`, [text]);
      if (Number(rows[0].n) > 0) found.push(`${table}: ${rows[0].n}`);
    }
    return found;
  };

  it('signs a person up with a normalised e-mail and raises user.created once', async () => {
    const res = await dev.post('/v1/users', { appId, email: '  Ada.Lovelace@Example.COM ' }).expect(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^usr_[0-9A-Z]{26}$/), appId, email: 'ada.lovelace@example.com', createdAt: expect.any(String) });
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
    expect(await app.query('SELECT account_id, app_id, email FROM users WHERE id = $1', [res.body.id])).toEqual([
      { account_id: dev.accountId, app_id: appId, email: 'ada.lovelace@example.com' },
    ]);
    const raised = (await events.of('user.created')).filter((e) => e.data.id === res.body.id);
    expect(raised).toHaveLength(1);
    expect(raised[0].accountId).toBe(dev.accountId);
    expect(raised[0].data).toEqual({ id: res.body.id, email: 'ada.lovelace@example.com', appId, source: 'api' });

    await dev.get(`/v1/users/${res.body.id}`).expect(200, res.body);
  });

  it('refuses the same e-mail twice in one app (409), but not in another app', async () => {
    await dev.post('/v1/users', { appId, email: 'grace@example.com' }).expect(201);
    const dup = await dev.post('/v1/users', { appId, email: ' GRACE@example.com' }).expect(409);
    expectErrorBody(dup.body, 409, `email is already signed up to app ${appId}`);
    expect(dup.body.message).not.toContain('grace');
    const second = (await dev.post('/v1/apps', { name: 'Second app' }).expect(201)).body.appId;
    await dev.post('/v1/users', { appId: second, email: 'grace@example.com' }).expect(201);
    expect(await app.query('SELECT app_id FROM users WHERE email = $1 ORDER BY app_id', ['grace@example.com'])).toHaveLength(2);
  });

  it('rejects bad sign-ups with 400 naming the field', async () => {
    const other = await newAccountClient(app);
    const theirs = (await other.post('/v1/apps', { name: 'Theirs' }).expect(201)).body.appId;
    const cases: Array<[object, string]> = [
      [{ email: 'a@example.com' }, 'appId must be a string'],
      [{ appId: 7, email: 'a@example.com' }, 'appId must be a string'],
      [{ appId: 'app_00000000000000000000000000', email: 'a@example.com' }, 'appId "app_00000000000000000000000000" is not one of your apps'],
      [{ appId: theirs, email: 'a@example.com' }, `appId "${theirs}" is not one of your apps`],
      [{ appId }, 'email must be an e-mail address'],
      [{ appId, email: 'not-an-email' }, 'email must be an e-mail address'],
      [{ appId, email: 'two@@example.com' }, 'email must be an e-mail address'],
      [{ appId, email: 42 }, 'email must be a string'],
      [{ appId, email: `${'x'.repeat(320)}@example.com` }, 'email must be at most 320 characters long'],
      [{ appId, email: 'a@example.com', name: 'Ada' }, 'property name should not exist'],
    ];
    for (const [body, message] of cases) {
      const res = await dev.post('/v1/users', body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expectErrorBody(res.body, 400, message);
    }
    expect(await app.query('SELECT id FROM users WHERE app_id = $1', [theirs])).toEqual([]);
  });

  it('lists users newest first, by app or for the whole account', async () => {
    const listed = (await dev.post('/v1/apps', { name: 'Listed' }).expect(201)).body.appId;
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await dev.post('/v1/users', { appId: listed, email: `u${i}@example.com` }).expect(201)).body.id);

    const first = await dev.get(`/v1/users?appId=${listed}&limit=3`).expect(200);
    expect(first.body.data.map((u: { id: string }) => u.id)).toEqual(created.slice(2).reverse());
    expect(first.body.data[0]).toEqual({ id: created[4], appId: listed, email: 'u4@example.com', createdAt: expect.any(String) });
    const second = await dev.get(`/v1/users?appId=${listed}&limit=3&cursor=${first.body.nextCursor}`).expect(200);
    expect(second.body.data.map((u: { id: string }) => u.id)).toEqual(created.slice(0, 2).reverse());
    expect(second.body.nextCursor).toBeNull();

    const all = await dev.get('/v1/users?limit=100').expect(200);
    expect(all.body.data.slice(0, 5).map((u: { id: string }) => u.id)).toEqual([...created].reverse());
    expect(all.body.data.some((u: { appId: string }) => u.appId === appId)).toBe(true);

    const other = await newAccountClient(app);
    expect((await other.get('/v1/users').expect(200)).body).toEqual({ data: [], nextCursor: null });
    expectErrorBody((await other.get(`/v1/users?appId=${listed}`).expect(400)).body, 400, `appId "${listed}" is not one of your apps`);
    expectErrorBody((await dev.get('/v1/users?limit=0').expect(400)).body, 400, 'limit');
    expectErrorBody((await dev.get('/v1/users?app=x').expect(400)).body, 400, 'property app should not exist');
  });

  it("answers 404 for another account's user", async () => {
    const user = (await dev.post('/v1/users', { appId, email: 'private@example.com' }).expect(201)).body;
    const other = await newAccountClient(app);
    expectErrorBody((await other.get(`/v1/users/${user.id}`).expect(404)).body, 404, `User ${user.id} not found`);
    expectErrorBody((await other.delete(`/v1/users/${user.id}`).expect(404)).body, 404, `User ${user.id} not found`);
    await dev.get(`/v1/users/${user.id}`).expect(200);
    await dev.get('/v1/users/usr_00000000000000000000000000').expect(404);
  });

  it('erases a user: no row holds the e-mail afterwards, and user.deleted carries no e-mail', async () => {
    const email = 'erase.me@example.com';
    const key = 'signup-erase-me';
    const user = (await dev.post('/v1/users', { appId, email }, { 'idempotency-key': key }).expect(201)).body;
    // Three rows hold the e-mail now: the user, its user.created in the event log, and the stored response of the idempotent sign-up.
    expect(await rowsHolding(email)).toEqual(['events: 1', 'idempotency_keys: 1', 'users: 1']);

    await dev.delete(`/v1/users/${user.id}`).expect(204);
    expect(await rowsHolding(email)).toEqual([]);
    expect(await app.query('SELECT id FROM users WHERE id = $1', [user.id])).toEqual([]);
    await dev.get(`/v1/users/${user.id}`).expect(404);
    await dev.delete(`/v1/users/${user.id}`).expect(404);

    const deleted = (await events.of('user.deleted')).filter((e) => e.data.id === user.id);
    expect(deleted).toHaveLength(1);
    expect(deleted[0].data).toEqual({ id: user.id, appId });

    // The same person may sign up again.
    await dev.post('/v1/users', { appId, email }).expect(201);
  });

  it('erases every user of a deleted app as completely as one by one, and tells receivers', async () => {
    const receiver = new Receiver();
    await receiver.start();
    try {
      await dev.post('/v1/webhook-endpoints', { url: `${receiver.url}/erasure`, events: ['user.*', 'app.deleted'] }).expect(201);
      const doomedApp = (await dev.post('/v1/apps', { name: 'Doomed' }).expect(201)).body.appId;
      const emails = ['first.doomed@example.com', 'second.doomed@example.com'];
      const users = [];
      for (const [i, email] of emails.entries()) {
        users.push((await dev.post('/v1/users', { appId: doomedApp, email }, { 'idempotency-key': `doomed-${i}` }).expect(201)).body);
      }
      for (const email of emails) expect(await rowsHolding(email)).toEqual(['events: 1', 'idempotency_keys: 1', 'users: 1']);

      await dev.delete(`/v1/apps/${doomedApp}`).expect(204);
      for (const email of emails) expect(await rowsHolding(email)).toEqual([]);
      // A replay of the stored sign-up no longer answers the e-mail: the key is forgotten, so the request runs anew.
      const replay = await dev.post('/v1/users', { appId: doomedApp, email: emails[0] }, { 'idempotency-key': 'doomed-0' });
      expect(replay.status).toBe(400);
      expect(replay.text).not.toContain(emails[0]);

      const deleted = (await events.of('user.deleted')).filter((e) => e.data.appId === doomedApp).map((e) => e.data.id);
      expect(deleted.sort()).toEqual(users.map((u) => u.id).sort());
      await until(() => receiver.at('/erasure').filter((r) => JSON.parse(r.raw).event === 'user.deleted').length === 2, 10_000, 'two user.deleted deliveries');
      const bodies = receiver.at('/erasure').map((r) => JSON.parse(r.raw));
      expect(
        bodies
          .filter((b) => b.event === 'user.deleted')
          .map((b) => b.data)
          .sort((a, b) => a.id.localeCompare(b.id)),
      ).toEqual(users.map((u) => ({ id: u.id, appId: doomedApp })).sort((a, b) => a.id.localeCompare(b.id)));
      await until(() => receiver.at('/erasure').some((r) => JSON.parse(r.raw).event === 'app.deleted'), 10_000, 'app.deleted delivery');
    } finally {
      await receiver.stop();
    }
  });

  it('needs users:read to read and users:write to write', async () => {
    const reader = await scopedClient(app, dev, ['users:read']);
    const writer = await scopedClient(app, dev, ['users:write']);
    expectErrorBody((await reader.post('/v1/users', { appId, email: 'r@example.com' }).expect(403)).body, 403, 'users:write');
    const user = (await writer.post('/v1/users', { appId, email: 'w@example.com' }).expect(201)).body;
    expectErrorBody((await writer.get('/v1/users').expect(403)).body, 403, 'users:read');
    await writer.get(`/v1/users/${user.id}`).expect(403);
    await reader.get(`/v1/users/${user.id}`).expect(200);
    await reader.delete(`/v1/users/${user.id}`).expect(403);
    await writer.delete(`/v1/users/${user.id}`).expect(204);
  });

  it('documents the users routes', async () => {
    const doc = (await app.http().get('/docs/openapi.json').expect(200)).body;
    const create = doc.paths['/v1/users'].post;
    expect(create.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/CreateUserDto');
    expect(create.responses['201'].content['application/json'].schema.$ref).toBe('#/components/schemas/UserDto');
    expect(create.responses['409'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorBody');
    expect(doc.paths['/v1/users'].get.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['appId', 'limit', 'cursor']));
    expect(doc.paths['/v1/users/{id}'].delete.responses['204']).toBeDefined();
    expect(doc.components.schemas.CreateUserDto.properties.email).toMatchObject({ format: 'email', example: 'ada@example.com' });
  });
});

import { ApiClient, expectErrorBody, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

/** Client input that used to reach PostgreSQL or Fastify's router and come back as a 500 or a foreign body. */
describe(`client input is a 400 envelope, never a 500 (${target})`, () => {
  let app: TestApp;
  let dev: ApiClient;
  let appId: string;

  beforeAll(async () => {
    app = await startTestApp({ env: NO_RATE_LIMIT });
    dev = await newAccountClient(app);
    appId = (await dev.post('/v1/apps', { name: 'Inputs' }).expect(201)).body.appId;
  });
  afterAll(() => app.close());

  const expect400Naming = (res: { status: number; body: Record<string, unknown> }, field: string) => {
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 400, `${field} must not contain NUL characters`);
  };

  it('refuses NUL characters in body fields, path ids, query values and served paths, naming the field', async () => {
    expect400Naming(await dev.post('/v1/apps', { name: 'bad\u0000name' }), 'name');
    expect400Naming(await dev.patch(`/v1/apps/${appId}`, { description: 'x\u0000' }), 'description');
    expect400Naming(await dev.post('/v1/apps/deploy', { appId: `${appId}\u0000`, env: 'production' }), 'appId');
    expect400Naming(await dev.post('/v1/users', { appId: '\u0000', email: 'a@example.com' }), 'appId');
    expect400Naming(await dev.post('/v1/api-keys', { name: 'ci\u0000', scopes: ['apps:read'] }), 'name');
    expect400Naming(await dev.post('/v1/webhook-endpoints', { url: 'https://example.com/\u0000' }), 'url');
    expect400Naming(await dev.get('/v1/apps/app_%00'), 'appId');
    expect400Naming(await dev.get('/v1/users?appId=%00'), 'appId');
    const served = await app.http().get('/sites/dep_%00/');
    expect(served.status).toBe(400);
    expect(await app.query(`SELECT count(*)::int AS n FROM apps WHERE name LIKE 'bad%'`)).toEqual([{ n: 0 }]);
  });

  it('refuses lone surrogates like NUL characters, in one check of every field, key and body type', async () => {
    const expectNamed = (res: { status: number; body: Record<string, unknown> }, message: string) => {
      expect(res.status).toBe(400);
      expectErrorBody(res.body, 400, message);
      expect(res.body).toMatchObject({ reason: 'invalid_parameter', details: [res.body.message] });
    };
    expectNamed(await dev.post('/v1/apps', { name: 'a\ud800b' }), 'name must not contain lone surrogates (not well-formed Unicode)');
    expectNamed(await dev.patch(`/v1/apps/${appId}`, { description: 'x\udc00' }), 'description must not contain lone surrogates');
    expectNamed(await dev.post('/v1/api-keys', { name: 'ci', scopes: ['apps:read', '\ud83d'] }), 'scopes[1] must not contain lone surrogates');
    const beacon = { appId, name: 'click', url: 'https://x.example/' };
    expectNamed(
      await app
        .http()
        .post('/collect')
        .send({ ...beacon, props: { 'k\ud800': 'v' } }),
      'props must not have keys with lone surrogates',
    );
    // JSON sent as text is parsed before the check, like JSON sent as JSON: its escapes are seen too.
    for (const [url, flaw] of [
      ['https://x.example/\ud800', 'lone surrogates'],
      ['https://x.example/\u0000', 'NUL characters'],
    ]) {
      const res = await app
        .http()
        .post('/collect')
        .set('content-type', 'text/plain')
        .send(JSON.stringify({ ...beacon, url }));
      expectNamed(res, `url must not contain ${flaw}`);
    }
    // A surrogate pair is a character like any other.
    const smile = await dev.post('/v1/apps', { name: 'Smile \ud83d\ude00' }).expect(201);
    expect(await app.query('SELECT name FROM apps WHERE id = $1', [smile.body.appId])).toEqual([{ name: 'Smile 😀' }]);
    expect(await app.query(`SELECT count(*)::int AS n FROM apps WHERE name LIKE 'a%b'`)).toEqual([{ n: 0 }]);
  });

  it('refuses a cursor that decodes to a date outside years 1-9999', async () => {
    for (const when of ['-000001-01-01T00:00:00.000Z', '+010000-01-01T00:00:00.000Z']) {
      const cursor = Buffer.from(JSON.stringify([when, 'app_1'])).toString('base64url');
      const res = await dev.get(`/v1/apps?cursor=${cursor}`);
      expect(res.status).toBe(400);
      expectErrorBody(res.body, 400, 'cursor is invalid');
      expect(res.body.reason).toBe('invalid_cursor');
    }
  });

  it('refuses AI usage dates outside years 1-9999 or not on the calendar', async () => {
    for (const [query, field] of [
      ['from=0000-01-01&to=0000-01-02', 'from'],
      ['to=0000-12-31', 'to'],
      ['from=2026-02-31', 'from'],
    ]) {
      const res = await dev.get(`/v1/ai/usage?${query}`);
      expect(res.status).toBe(400);
      expectErrorBody(res.body, 400, `${field} must be a date`);
    }
  });

  it("answers the router's own errors in the envelope and echoes nothing of the path", async () => {
    const longPath = `/v1/apps/${'secret'.repeat(2000)}`;
    const tooLong = await dev.get(longPath);
    expect(tooLong.status).toBe(414);
    expect(tooLong.body).toMatchObject({ error: true, code: 414, reason: 'uri_too_long' });
    expect(tooLong.text).not.toContain('secretsecret');
    expect(tooLong.headers['x-request-id']).toBeDefined();

    const badEscape = await dev.get('/v1/users/%ZZsecret');
    expect(badEscape.status).toBe(400);
    expect(badEscape.body).toMatchObject({ error: true, code: 400, message: 'The request path has a malformed percent-escape' });
    expect(badEscape.text).not.toContain('secret');

    const unknown = await dev.get('/v1/no-such-route-secret?token=secret');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: true, code: 404, reason: 'route_not_found' });
    expect(unknown.text).not.toContain('secret');
  });
});

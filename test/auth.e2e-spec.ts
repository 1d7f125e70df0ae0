import { Controller, Get, Module } from '@nestjs/common';
import { ClientCredentials } from 'simple-oauth2';
import { CurrentPrincipal, Scopes } from '../src/common/request-context/request-context.decorators.js';
import { ApiKeysRepository } from '../src/auth/repositories/api-keys.repository.js';
import type { Principal } from '../src/common/request-context/principal.js';
import { createAccount, createServiceAccount, startTestApp, target, TestApp } from './support/test-app.js';

// Routes guarded by scopes that no auth route uses, to test scope checks in isolation.
@Controller('scope-probe')
class ScopeProbeController {
  @Get('apps')
  @Scopes('apps:read')
  apps(@CurrentPrincipal() principal: Principal) {
    return { accountId: principal.accountId, kind: principal.kind };
  }

  @Get('users')
  @Scopes('users:read')
  users() {
    return { ok: true };
  }
}
@Module({ controllers: [ScopeProbeController] })
class ScopeProbeModule {}

const TOKEN_TTL_SECONDS = 3;

describe(`authentication (${target})`, () => {
  let app: TestApp;
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    app = await startTestApp({ modules: [ScopeProbeModule], env: { OAUTH_TOKEN_TTL_SECONDS: String(TOKEN_TTL_SECONDS) } });
  });
  afterAll(() => app.close());

  describe('API keys', () => {
    it('the first key of an account works, lists its keys, and is shown only once', async () => {
      const account = await createAccount(app);
      expect(account.apiKey).toMatch(/^sk_[0-9A-Za-z]{40}$/);
      const list = await app.http().get('/v1/api-keys').set(bearer(account.apiKey)).expect(200);
      expect(list.body.data).toHaveLength(1);
      expect(list.body.data[0]).toMatchObject({ name: 'default', scopes: ['*'], prefix: account.apiKey.slice(0, 6), last4: account.apiKey.slice(-4) });
      expect(JSON.stringify(list.body)).not.toContain(account.apiKey);
      const probe = await app.http().get('/v1/scope-probe/apps').set(bearer(account.apiKey)).expect(200);
      expect(probe.body).toEqual({ accountId: account.accountId, kind: 'api_key' });
    });

    it('a revoked key gets 401 on the very next request', async () => {
      const account = await createAccount(app);
      const created = await app
        .http()
        .post('/v1/api-keys')
        .set(bearer(account.apiKey))
        .send({ name: 'temp', scopes: ['apps:read'] })
        .expect(201);
      expect(created.body.key).toMatch(/^sk_/);
      await app.http().get('/v1/scope-probe/apps').set(bearer(created.body.key)).expect(200);
      await app.http().delete(`/v1/api-keys/${created.body.id}`).set(bearer(account.apiKey)).expect(204);
      const res = await app.http().get('/v1/scope-probe/apps').set(bearer(created.body.key)).expect(401);
      expect(res.body).toMatchObject({ error: true, code: 401, message: 'Invalid, expired or revoked credential' });
      expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
    });

    it("never shows one account another account's data (404, not 403)", async () => {
      const alice = await createAccount(app);
      const bob = await createAccount(app);
      const aliceKey = await app.http().post('/v1/api-keys').set(bearer(alice.apiKey)).send({ name: 'alice-2' }).expect(201);
      await app.http().delete(`/v1/api-keys/${aliceKey.body.id}`).set(bearer(bob.apiKey)).expect(404);
      const bobList = await app.http().get('/v1/api-keys').set(bearer(bob.apiKey)).expect(200);
      expect(bobList.body.data.map((k: { id: string }) => k.id)).not.toContain(aliceKey.body.id);
      await app.http().get('/v1/scope-probe/apps').set(bearer(aliceKey.body.key)).expect(200);
    });

    it('reads credentials from the Authorization header only, never the query string or the body', async () => {
      const account = await createAccount(app);
      const fromQuery = await app.http().get(`/v1/scope-probe/apps?access_token=${account.apiKey}`);
      expect(fromQuery.status).toBe(401);
      expect(fromQuery.body).toMatchObject({ error: true, code: 401, reason: 'missing_credential' });
      const twice = await app.http().get('/v1/scope-probe/apps?access_token=a&access_token=b');
      expect(twice.status).toBe(401);
      const inBody = await app.http().post('/v1/apps').send({ access_token: {} });
      expect(inBody.status).toBe(401);
      const keyInBody = await app.http().post('/v1/apps').send({ access_token: account.apiKey, name: 'x' });
      expect(keyInBody.status).toBe(401);
      // With the header, an access_token field is just an unknown field.
      const both = await app.http().post('/v1/apps').set(bearer(account.apiKey)).send({ access_token: account.apiKey, name: 'x' });
      expect(both.status).toBe(400);
    });

    it('answers 401 with WWW-Authenticate for a missing header, wrong scheme or unknown key', async () => {
      const missing = await app.http().get('/v1/api-keys').expect(401);
      expect(missing.body).toMatchObject({ error: true, code: 401 });
      expect(missing.headers['www-authenticate']).toMatch(/^Bearer realm="platform"$/);
      const basic = await app.http().get('/v1/api-keys').set('authorization', 'Basic dXNlcjpwYXNz').expect(401);
      expect(basic.headers['www-authenticate']).not.toContain('invalid_token');
      const unknown = await app
        .http()
        .get('/v1/api-keys')
        .set(bearer(`sk_${'A'.repeat(40)}`))
        .expect(401);
      expect(unknown.headers['www-authenticate']).toContain('error="invalid_token"');
    });

    it('answers 403 naming the missing scope, and never grants more than the creator holds', async () => {
      const account = await createAccount(app);
      const readOnly = await app
        .http()
        .post('/v1/api-keys')
        .set(bearer(account.apiKey))
        .send({ name: 'ro', scopes: ['apps:read'] })
        .expect(201);
      const res = await app.http().get('/v1/scope-probe/users').set(bearer(readOnly.body.key)).expect(403);
      expect(res.body).toEqual(expect.objectContaining({ error: true, code: 403, message: 'This credential lacks the scope users:read' }));
      const escalate = await app
        .http()
        .post('/v1/api-keys')
        .set(bearer(readOnly.body.key))
        .send({ name: 'x', scopes: ['*'] })
        .expect(403);
      expect(escalate.body.message).toContain('keys:write');
      const bad = await app
        .http()
        .post('/v1/api-keys')
        .set(bearer(account.apiKey))
        .send({ name: '', scopes: ['apps:read', 'root'] })
        .expect(400);
      expect(bad.body.message).toContain('name');
      expect(bad.body.message).toContain('scopes must each be one of');
    });
  });

  describe('service accounts and OAuth 2.0 client credentials', () => {
    let account: { accountId: string; apiKey: string };
    let client: { clientId: string; clientSecret: string; id: string };

    beforeAll(async () => {
      account = await createAccount(app);
      const res = await app
        .http()
        .post('/v1/service-accounts')
        .set(bearer(account.apiKey))
        .send({ name: 'deployer', scopes: ['apps:read', 'keys:write'] })
        .expect(201);
      client = res.body;
      expect(client.clientId).toMatch(/^cid_/);
      expect(client.clientSecret).toMatch(/^cs_[0-9A-Za-z]{40}$/);
    });

    const oauthClient = (secret = client.clientSecret, authorizationMethod: 'header' | 'body' = 'header') =>
      new ClientCredentials({
        client: { id: client.clientId, secret },
        auth: { tokenHost: app.url, tokenPath: '/v1/oauth/token' },
        options: { authorizationMethod },
      });

    it('issues a token through a real OAuth client library, usable within its scopes only', async () => {
      const token = await oauthClient().getToken({ scope: 'apps:read' });
      expect(token.token).toMatchObject({ token_type: 'Bearer', expires_in: TOKEN_TTL_SECONDS, scope: 'apps:read' });
      const accessToken = token.token.access_token as string;
      expect(accessToken).toMatch(/^at_/);
      const probe = await app.http().get('/v1/scope-probe/apps').set(bearer(accessToken)).expect(200);
      expect(probe.body).toEqual({ accountId: account.accountId, kind: 'access_token' });
      const outside = await app.http().get('/v1/scope-probe/users').set(bearer(accessToken)).expect(403);
      expect(outside.body.message).toBe('This credential lacks the scope users:read');
      // keys:write is the service account's, but this token did not ask for it.
      await app.http().get('/v1/api-keys').set(bearer(accessToken)).expect(403);
    });

    it('takes credentials in the body and JSON bodies too, and defaults to every scope', async () => {
      const viaBody = await oauthClient(client.clientSecret, 'body').getToken({});
      expect(viaBody.token.scope).toBe('apps:read keys:write');
      const json = await app
        .http()
        .post('/v1/oauth/token')
        .send({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret, scope: 'keys:write' })
        .expect(200);
      expect(json.body).toMatchObject({ token_type: 'Bearer', scope: 'keys:write' });
    });

    it('an expired token gets 401', async () => {
      const token = await oauthClient().getToken({ scope: 'apps:read' });
      const accessToken = token.token.access_token as string;
      await app.http().get('/v1/scope-probe/apps').set(bearer(accessToken)).expect(200);
      await new Promise((r) => setTimeout(r, TOKEN_TTL_SECONDS * 1000 + 300));
      const res = await app.http().get('/v1/scope-probe/apps').set(bearer(accessToken)).expect(401);
      expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
    });

    it('introspects (RFC 7662) and revokes (RFC 7009)', async () => {
      const { token } = await oauthClient().getToken({ scope: 'apps:read' });
      const accessToken = token.access_token as string;
      const active = await app.http().post('/v1/oauth/introspect').set(bearer(account.apiKey)).type('form').send({ token: accessToken }).expect(200);
      expect(active.body).toMatchObject({ active: true, scope: 'apps:read', client_id: client.clientId, token_type: 'Bearer', sub: account.accountId });
      expect(active.body.exp - active.body.iat).toBe(TOKEN_TTL_SECONDS);

      await app.http().post('/v1/oauth/revoke').set(bearer(account.apiKey)).type('form').send({ token: accessToken }).expect(200, {});
      await app.http().get('/v1/scope-probe/apps').set(bearer(accessToken)).expect(401);
      await app.http().post('/v1/oauth/introspect').set(bearer(account.apiKey)).send({ token: accessToken }).expect(200, { active: false });
      await app.http().post('/v1/oauth/introspect').set(bearer(account.apiKey)).send({ token: 'at_unknown' }).expect(200, { active: false });
      await app.http().post('/v1/oauth/revoke').set(bearer(account.apiKey)).send({ token: 'at_unknown' }).expect(200, {});

      // Another account's token is not active for this one.
      const other = await createAccount(app);
      await app
        .http()
        .post('/v1/oauth/introspect')
        .set(bearer(other.apiKey))
        .send({ token: (await oauthClient().getToken({})).token.access_token })
        .expect(200, { active: false });
    });

    it('rejects a bad secret (401 invalid_client), an unknown grant (400) and a scope it lacks (400)', async () => {
      const badSecret = await app
        .http()
        .post('/v1/oauth/token')
        .auth(client.clientId, 'cs_wrong')
        .type('form')
        .send({ grant_type: 'client_credentials' })
        .expect(401);
      expect(badSecret.body).toMatchObject({ error: 'invalid_client', code: 401 });
      expect(typeof badSecret.body.message).toBe('string');
      expect(badSecret.body.error_description).toBe(badSecret.body.message);
      await expect(oauthClient('cs_wrong').getToken({})).rejects.toThrow(/401|Unauthorized/);

      const password = await app
        .http()
        .post('/v1/oauth/token')
        .type('form')
        .send({ grant_type: 'password', client_id: client.clientId, client_secret: client.clientSecret, username: 'a', password: 'b' })
        .expect(400);
      expect(password.body).toMatchObject({ error: 'unsupported_grant_type', code: 400 });

      const scope = await app
        .http()
        .post('/v1/oauth/token')
        .type('form')
        .send({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret, scope: 'users:write' })
        .expect(400);
      expect(scope.body).toMatchObject({ error: 'invalid_scope', code: 400 });
    });

    it('refuses a parameter sent twice (an array) with 400 invalid_request, in form and JSON bodies', async () => {
      const form = await app
        .http()
        .post('/v1/oauth/token')
        .type('form')
        .send(`grant_type=client_credentials&client_id=a&client_id=b&client_secret=${client.clientSecret}`);
      expect(form.status).toBe(400);
      expect(form.body).toMatchObject({ error: 'invalid_request', code: 400, message: 'client_id must be given once, as a string' });
      const json = await app
        .http()
        .post('/v1/oauth/token')
        .send({ grant_type: 'client_credentials', client_id: [client.clientId], client_secret: [client.clientSecret] });
      expect(json.status).toBe(400);
      expect(json.body).toMatchObject({ error: 'invalid_request', code: 400, error_description: 'client_id, client_secret must be given once, as a string' });
    });

    it('lets a token mint no credential: no API key, no service account (they would outlive it)', async () => {
      const { token } = await oauthClient().getToken({ scope: 'keys:write' });
      const accessToken = token.access_token as string;
      const key = await app.http().post('/v1/api-keys').set(bearer(accessToken)).send({ name: 'forever' }).expect(403);
      expect(key.body).toMatchObject({ code: 403, reason: 'token_cannot_create_credentials' });
      await app
        .http()
        .post('/v1/service-accounts')
        .set(bearer(accessToken))
        .send({ name: 'forever', scopes: ['keys:write'] })
        .expect(403);
      expect(await app.query(`SELECT count(*)::int AS n FROM api_keys WHERE name = 'forever'`)).toEqual([{ n: 0 }]);
      // It may still list the account's keys (keys:write), and look at itself without keys:write.
      await app.http().get('/v1/api-keys').set(bearer(accessToken)).expect(200);
      const narrow = (await oauthClient().getToken({ scope: 'apps:read' })).token.access_token as string;
      await app.http().post('/v1/oauth/introspect').set(bearer(narrow)).send({ token: narrow }).expect(200);
      // …but not at another token of the account: that needs keys:write.
      const denied = await app.http().post('/v1/oauth/introspect').set(bearer(narrow)).send({ token: accessToken }).expect(403);
      expect(denied.body.message).toBe('This credential lacks the scope keys:write');
      await app.http().post('/v1/oauth/revoke').set(bearer(narrow)).send({ token: accessToken }).expect(403);
      await app.http().get('/v1/api-keys').set(bearer(accessToken)).expect(200);
      // A token may revoke itself.
      await app.http().post('/v1/oauth/revoke').set(bearer(narrow)).send({ token: narrow }).expect(200, {});
      await app.http().get('/v1/scope-probe/apps').set(bearer(narrow)).expect(401);
    });

    it('revoking the service account revokes its tokens at once', async () => {
      const res = await app
        .http()
        .post('/v1/service-accounts')
        .set(bearer(account.apiKey))
        .send({ name: 'short-lived', scopes: ['apps:read'] })
        .expect(201);
      const token = await app
        .http()
        .post('/v1/oauth/token')
        .auth(res.body.clientId, res.body.clientSecret)
        .type('form')
        .send({ grant_type: 'client_credentials' })
        .expect(200);
      await app.http().get('/v1/scope-probe/apps').set(bearer(token.body.access_token)).expect(200);
      await app.http().delete(`/v1/service-accounts/${res.body.id}`).set(bearer(account.apiKey)).expect(204);
      await app.http().get('/v1/scope-probe/apps').set(bearer(token.body.access_token)).expect(401);
      await app
        .http()
        .post('/v1/oauth/token')
        .auth(res.body.clientId, res.body.clientSecret)
        .type('form')
        .send({ grant_type: 'client_credentials' })
        .expect(401);
    });
  });

  it('guards the event log, which carries e-mails, with events:read (webhooks:read is not enough)', async () => {
    const owner = await createAccount(app);
    const mint = async (scopes: string[]) =>
      (
        await app
          .http()
          .post('/v1/api-keys')
          .set(bearer(owner.apiKey))
          .send({ name: scopes.join(','), scopes })
          .expect(201)
      ).body.key as string;
    const webhooksReader = await mint(['webhooks:read']);
    const denied = await app.http().get('/v1/events').set(bearer(webhooksReader)).expect(403);
    expect(denied.body.message).toBe('This credential lacks the scope events:read');
    await app.http().get('/v1/events/evt_x').set(bearer(webhooksReader)).expect(403);
    await app
      .http()
      .get('/v1/events')
      .set(bearer(await mint(['events:read'])))
      .expect(200);
    await app.http().get('/v1/events').set(bearer(owner.apiKey)).expect(200); // '*' holds it
  });

  it('never re-caches a key that was revoked while its verification was reading it', async () => {
    const owner = await createAccount(app);
    const created = (await app.http().post('/v1/api-keys').set(bearer(owner.apiKey)).send({ name: 'racing' }).expect(201)).body;
    const repository = app.server.app.get(ApiKeysRepository);
    const read = repository.findActiveByHash.bind(repository);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let reading!: () => void;
    const readDone = new Promise<void>((r) => (reading = r));
    // The verification reads the (still active) row, then waits while the key is revoked.
    repository.findActiveByHash = async (hash: string) => {
      const row = await read(hash);
      if (row?.id === created.id) {
        reading();
        await gate;
      }
      return row;
    };
    try {
      const inFlight = app
        .http()
        .get('/v1/scope-probe/apps')
        .set(bearer(created.key))
        .then((r) => r.status);
      await readDone;
      await app.http().delete(`/v1/api-keys/${created.id}`).set(bearer(owner.apiKey)).expect(204);
      release();
      // That request read the key before it was revoked; it may pass. The next one must not.
      expect(await inFlight).toBe(200);
    } finally {
      repository.findActiveByHash = read;
    }
    await app.http().get('/v1/scope-probe/apps').set(bearer(created.key)).expect(401);
  });

  it('stores no raw key, client secret or access token', async () => {
    const account = await createAccount(app);
    const key = (await app.http().post('/v1/api-keys').set(bearer(account.apiKey)).send({ name: 'scan' }).expect(201)).body.key as string;
    const sa = await createServiceAccount(app, account.apiKey, 'scan', ['apps:read']);
    const token = (
      await app.http().post('/v1/oauth/token').auth(sa.clientId, sa.clientSecret).type('form').send({ grant_type: 'client_credentials' }).expect(200)
    ).body.access_token as string;
    const secrets = [account.apiKey, key, sa.clientSecret, token];

    const tables = await app.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    let scanned = 0;
    for (const { table_name } of tables) {
      const rows = await app.query(`SELECT * FROM "${table_name}"`);
      const dump = JSON.stringify(rows);
      scanned += rows.length;
      for (const secret of secrets) expect({ table: table_name, leaked: dump.includes(secret) }).toEqual({ table: table_name, leaked: false });
    }
    expect(scanned).toBeGreaterThan(5);
    const keyRow = await app.query<{ key_hash: string }>('SELECT key_hash FROM api_keys WHERE last4 = $1', [key.slice(-4)]);
    expect(keyRow[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

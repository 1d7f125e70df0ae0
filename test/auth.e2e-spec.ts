import { Controller, Get, Module } from '@nestjs/common';
import { ClientCredentials } from 'simple-oauth2';
import { CurrentPrincipal, Scopes } from '../src/auth/auth.decorators.js';
import type { Principal } from '../src/auth/principal.js';
import { createAccount, startTestApp, target, TestApp } from './support/test-app.js';

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

  it('stores no raw key, client secret or access token', async () => {
    const account = await createAccount(app);
    const key = (await app.http().post('/v1/api-keys').set(bearer(account.apiKey)).send({ name: 'scan' }).expect(201)).body.key as string;
    const sa = (
      await app
        .http()
        .post('/v1/service-accounts')
        .set(bearer(account.apiKey))
        .send({ name: 'scan', scopes: ['apps:read'] })
        .expect(201)
    ).body;
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

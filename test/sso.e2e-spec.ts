import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { MfaService } from '../src/mfa/mfa.service.js';
import { PortalAuthService } from '../src/portal/portal-auth.service.js';
import { NotFoundError, PlatformClient, ValidationError } from '../libs/sdk/src/index.js';
import { errorEnvelope, NO_RATE_LIMIT } from './support/api-client.js';
import { addMember } from './support/members.js';
import { OidcTestProvider } from './support/oidc-provider.js';
import { csrfOf, PORTAL_PASSWORD, portalSession } from './support/portal-session.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

const CLIENT_ID = 'platform-portal';
const CLIENT_SECRET = 'a client secret of the platform at the provider';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const hex = () => randomBytes(4).toString('hex');

describe(`single sign-on: settings API, SSO required, the flow's guards (${target})`, () => {
  let app: TestApp;
  let provider: OidcTestProvider;

  beforeAll(async () => {
    app = await startTestApp({ env: NO_RATE_LIMIT });
    provider = await OidcTestProvider.start({
      clients: [{ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUris: [`${app.url}/portal/sso/callback`] }],
    });
  });
  afterAll(async () => {
    await app?.close();
    await provider?.stop();
  });

  /** A new account signed in to the portal (its owner, password PORTAL_PASSWORD), whose e-mail is in a domain of its own. */
  const account = async () => {
    const domain = `acme-${hex()}.test`;
    const email = `owner@${domain}`;
    return { ...(await portalSession(app, email)), domain, email };
  };
  const settings = (domain: string, extra: Record<string, unknown> = {}) => ({
    issuer: provider.issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    domains: [domain],
    defaultRole: 'developer',
    ...extra,
  });
  const putSso = (key: string, body: object, status: number) => app.http().put('/v1/sso').set(bearer(key)).send(body).expect(status);
  const loginForm = async () => {
    const res = await app.http().get('/portal/login').expect(200);
    return { csrf: csrfOf(res.text), cookie: String(res.headers['set-cookie']).split(';')[0] };
  };
  const passwordSignIn = async (email: string, status: number, password = PORTAL_PASSWORD) => {
    const form = await loginForm();
    return app.http().post('/portal/login').set('cookie', form.cookie).type('form').send({ _csrf: form.csrf, email, password }).expect(status);
  };
  const sessionCookieOf = (res: { headers: Record<string, unknown> }) =>
    ([] as string[]).concat((res.headers['set-cookie'] as string[] | undefined) ?? []).find((c) => c.startsWith('portal_session=') && !c.includes('Max-Age=0'));

  it('PUT /v1/sso saves the settings once discovery answered; the secret is sealed at rest and never answered; GET and DELETE', async () => {
    const a = await account();
    await app.http().get('/v1/sso').set(bearer(a.apiKey)).expect(404);
    const put = await putSso(a.apiKey, settings(a.domain, { required: true }), 200);
    const expected = {
      issuer: provider.issuer,
      clientId: CLIENT_ID,
      clientSecretSet: true,
      domains: [a.domain],
      defaultRole: 'developer',
      required: true,
      redirectUri: `${app.url}/portal/sso/callback`,
      updatedAt: expect.any(String),
    };
    expect(put.body).toEqual(expected);
    expect(JSON.stringify(put.body)).not.toContain(CLIENT_SECRET);
    await expect(app.http().get('/v1/sso').set(bearer(a.apiKey)).expect(200)).resolves.toMatchObject({ body: expected });
    const [row] = await app.query<{ sso_client_secret: string; sso_domains: string[] }>(
      'SELECT sso_client_secret, sso_domains FROM account_security WHERE account_id = $1',
      [a.accountId],
    );
    expect(row.sso_client_secret).toMatch(/^enc:v1:/);
    expect(row.sso_client_secret).not.toContain(CLIENT_SECRET);
    expect(row.sso_domains).toEqual([a.domain]);

    // Without a secret the stored one is kept (it is write-only).
    const { clientSecret: _omitted, ...withoutSecret } = settings(a.domain, { defaultRole: 'viewer' });
    await putSso(a.apiKey, withoutSecret, 200);
    const [kept] = await app.query<{ sso_client_secret: string; sso_default_role: string }>(
      'SELECT sso_client_secret, sso_default_role FROM account_security WHERE account_id = $1',
      [a.accountId],
    );
    expect(kept).toEqual({ sso_client_secret: row.sso_client_secret, sso_default_role: 'viewer' });

    await app.http().delete('/v1/sso').set(bearer(a.apiKey)).expect(204);
    await app.http().get('/v1/sso').set(bearer(a.apiKey)).expect(404);
    const again = await app.http().delete('/v1/sso').set(bearer(a.apiKey)).expect(404);
    expect(again.body).toEqual(errorEnvelope(again, 404, 'sso_not_configured', 'Single sign-on is not set up for this account'));
  });

  it('refuses a plain-http issuer off this machine, an issuer that does not answer, bad fields, an owner default role, and a domain of another account', async () => {
    const a = await account();
    const insecure = await putSso(a.apiKey, settings(a.domain, { issuer: 'http://idp.example.com' }), 400);
    expect(insecure.body).toMatchObject({ reason: 'sso_issuer_insecure', message: expect.stringContaining('https') });

    const unreachable = await putSso(a.apiKey, settings(a.domain, { issuer: 'http://127.0.0.1:9/nothing-here' }), 422);
    expect(unreachable.body).toMatchObject({
      reason: 'sso_discovery_failed',
      message: expect.stringContaining("The issuer's OpenID configuration could not be read"),
    });

    // A path of the provider with no discovery document under it.
    const wrongIssuer = await putSso(a.apiKey, settings(a.domain, { issuer: `${provider.issuer}/elsewhere` }), 422);
    expect(wrongIssuer.body).toMatchObject({ reason: 'sso_discovery_failed' });

    const firstWithoutSecret = await putSso(a.apiKey, settings(a.domain, { clientSecret: undefined }), 400);
    expect(firstWithoutSecret.body).toMatchObject({ reason: 'sso_client_secret_required' });
    const owner = await putSso(a.apiKey, settings(a.domain, { defaultRole: 'owner', domains: ['Not A Domain'] }), 400);
    expect(owner.body.message).toContain('defaultRole must be one of: admin, developer, viewer');
    expect(owner.body.message).toContain('each of domains must be a lower-case domain name');
    await expect(app.query('SELECT 1 FROM account_security WHERE account_id = $1 AND sso_issuer IS NOT NULL', [a.accountId])).resolves.toEqual([]);

    await putSso(a.apiKey, settings(a.domain), 200);
    const b = await account();
    const taken = await putSso(b.apiKey, settings(b.domain, { domains: [b.domain, a.domain] }), 409);
    expect(taken.body).toMatchObject({
      reason: 'sso_domain_taken',
      message: `The domain ${a.domain} is an allowed domain of another account's single sign-on already`,
    });
  });

  it('reading takes members:read, changing members:write: a developer reads, cannot change', async () => {
    const a = await account();
    await putSso(a.apiKey, settings(a.domain), 200);
    const developer = await addMember(app, a.apiKey, `dev@${a.domain}`, 'developer');
    await app.http().get('/v1/sso').set(bearer(developer.apiKey)).expect(200);
    const refused = await putSso(developer.apiKey, settings(a.domain), 403);
    expect(refused.body.message).toContain('members:write');
    await app.http().delete('/v1/sso').set(bearer(developer.apiKey)).expect(403);
  });

  it('SSO required: the right password of a member who is not an owner is refused (page, no session, audit entry); an owner without MFA too; an owner with MFA signs in with password and code', async () => {
    const a = await account();
    await putSso(a.apiKey, settings(a.domain, { required: true }), 200);
    const [login] = await app.query<{ id: string }>('SELECT id FROM members WHERE account_id = $1', [a.accountId]);

    // The owner, no MFA: refused.
    const noMfa = await passwordSignIn(a.email, 403);
    expect(noMfa.text).toContain('Your account requires single sign-on: passwords are turned off.');
    expect(noMfa.text).toContain('href="/portal/sso"');
    expect(sessionCookieOf(noMfa)).toBeUndefined();
    // A wrong password says what it always says (nothing about SSO).
    const wrong = await passwordSignIn(a.email, 401, 'not the password at all');
    expect(wrong.text).not.toContain('single sign-on');

    // Demoted to admin (another owner made first): refused, whatever MFA.
    const other = await addMember(app, a.apiKey, `second-owner@${a.domain}`, 'owner');
    await app.http().patch(`/v1/members/${login.id}`).set(bearer(other.apiKey)).send({ role: 'admin' }).expect(200);
    expect(sessionCookieOf(await passwordSignIn(a.email, 403))).toBeUndefined();

    // Owner again, with MFA on: the recovery path (password, then MFA) stays open.
    await app.http().patch(`/v1/members/${login.id}`).set(bearer(other.apiKey)).send({ role: 'owner' }).expect(200);
    const mfa = app.server.app.get(MfaService);
    const enrolment = await mfa.start(login.id, a.email);
    const now = Date.now();
    const code = new TOTP({ secret: Secret.fromBase32(enrolment.secret), digits: 6, period: 30 }).generate({ timestamp: now });
    const recoveryCodes = await mfa.confirm(a.accountId, { type: 'member', id: login.id, label: a.email, ip: null }, login.id, code, now);
    const form = await loginForm();
    const password = await app
      .http()
      .post('/portal/login')
      .set('cookie', form.cookie)
      .type('form')
      .send({ _csrf: form.csrf, email: a.email, password: PORTAL_PASSWORD })
      .expect(303);
    expect(password.headers.location).toBe('/portal/login/code');
    expect(sessionCookieOf(password)).toBeUndefined();
    const cookies = `${form.cookie}; ${String(password.headers['set-cookie']).split(';')[0]}`;
    const codePage = await app.http().get('/portal/login/code').set('cookie', cookies).expect(200);
    const second = await app
      .http()
      .post('/portal/login/code')
      .set('cookie', cookies)
      .type('form')
      .send({ _csrf: csrfOf(codePage.text), code: recoveryCodes[0] })
      .expect(303);
    expect(second.headers.location).toBe('/portal/');
    expect(sessionCookieOf(second)).toBeDefined();

    const failures = await app.query<{ actor_id: string }>(`SELECT actor_id FROM audit_log WHERE account_id = $1 AND action = 'sign_in.failed'`, [a.accountId]);
    expect(failures.map((f) => f.actor_id)).toEqual([login.id, login.id, login.id]);

    // SSO off again: the password works for every member as before.
    await app.http().delete('/v1/sso').set(bearer(a.apiKey)).expect(204);
    await app.server.app.get(MfaService).remove(a.accountId, { type: 'member', id: login.id, label: a.email, ip: null }, login.id);
    expect(sessionCookieOf(await passwordSignIn(a.email, 303))).toBeDefined();
  });

  /** The provider's URL the page of `/portal/sso/start` sends the browser to (a meta refresh and a link: the portal's CSP allows forms no redirect elsewhere). */
  const providerUrlOf = (html: string) => {
    const href = /<a id="continue" href="([^"]+)"/.exec(html)?.[1];
    if (!href) throw new Error('no link to the provider on the page');
    const url = href.replaceAll('&amp;', '&').replaceAll('&#39;', "'");
    expect(html).toContain(`<meta http-equiv="refresh" content="0;url=${href}">`);
    return new URL(url);
  };

  it('"Sign in with SSO" sends the browser to the provider with PKCE (S256), state and nonce, the flow sealed in a cookie; an unknown domain is a page', async () => {
    const a = await account();
    await putSso(a.apiKey, settings(a.domain), 200);
    const unknown = await app
      .http()
      .get('/portal/sso/start')
      .query({ email: `x@nowhere-${hex()}.test` })
      .expect(404);
    expect(unknown.text).toContain('No account signs in with single sign-on for this e-mail domain');
    expect(unknown.headers['set-cookie']).toBeUndefined();

    const start = await app
      .http()
      .get('/portal/sso/start')
      .query({ email: `Alice@${a.domain.toUpperCase()}` })
      .expect(200);
    const location = providerUrlOf(start.text);
    expect(`${location.origin}${location.pathname}`).toBe(`${provider.issuer}/auth`);
    const q = Object.fromEntries(location.searchParams);
    expect(q).toEqual({
      client_id: CLIENT_ID,
      redirect_uri: `${app.url}/portal/sso/callback`,
      response_type: 'code',
      scope: 'openid email',
      state: expect.stringMatching(/^[\w-]{43}$/),
      nonce: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
      login_hint: `alice@${a.domain}`,
    });
    const cookie = String(start.headers['set-cookie']);
    expect(cookie).toMatch(/^portal_sso=enc%3Av1%3A[^;]+; Path=\/portal; HttpOnly; SameSite=Lax; Max-Age=600$/);
    // Nothing of the flow readable in the cookie.
    expect(cookie).not.toContain(q.state);
    expect(cookie).not.toContain(q.nonce);
  });

  it('the callback refuses an answer this browser did not ask for: no flow cookie, or another state (CSRF) — a page, no session', async () => {
    const a = await account();
    await putSso(a.apiKey, settings(a.domain), 200);
    const none = await app.http().get('/portal/sso/callback').query({ code: 'stolen', state: 'x' }).expect(400);
    expect(none.text).toContain('Single sign-on refused');
    expect(none.text).toContain('This sign-in was not started in this browser or took longer than 10 minutes');
    expect(sessionCookieOf(none)).toBeUndefined();

    const start = await app
      .http()
      .get('/portal/sso/start')
      .query({ email: `alice@${a.domain}` })
      .expect(200);
    const flow = String(start.headers['set-cookie']).split(';')[0];
    const forged = await app.http().get('/portal/sso/callback').set('cookie', flow).query({ code: 'attackers-code', state: 'attackers-state' }).expect(400);
    expect(forged.text).toContain('state mismatch');
    expect(sessionCookieOf(forged)).toBeUndefined();
    // The flow cookie is used once, whatever the outcome.
    expect(String(forged.headers['set-cookie'])).toContain('portal_sso=; Path=/portal; HttpOnly; SameSite=Lax; Max-Age=0');

    // The provider's own refusal (the person cancelled), with this browser's state: a page naming the error.
    const state = providerUrlOf(start.text).searchParams.get('state')!;
    const denied = await app.http().get('/portal/sso/callback').set('cookie', flow).query({ error: 'access_denied', state }).expect(400);
    expect(denied.text).toContain('The identity provider refused the sign-in (access_denied)');
  });

  it('the settings page: an admin saves them (the secret never shown back), a viewer only reads them', async () => {
    const a = await account();
    const page = await app.http().get('/portal/sso/settings').set('cookie', a.cookie).expect(200);
    expect(page.text).toContain(`${app.url}/portal/sso/callback`);
    const saved = await app
      .http()
      .post('/portal/sso/settings')
      .set('cookie', a.cookie)
      .type('form')
      .send({
        _csrf: a.csrf,
        issuer: provider.issuer,
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        domains: `${a.domain}, sub.${a.domain}`,
        defaultRole: 'viewer',
        required: 'on',
      })
      .expect(200);
    expect(saved.text).toContain('Saved: the issuer answered its discovery document.');
    expect(saved.text).not.toContain(CLIENT_SECRET);
    await expect(app.http().get('/v1/sso').set(bearer(a.apiKey))).resolves.toMatchObject({
      body: { domains: [a.domain, `sub.${a.domain}`], defaultRole: 'viewer', required: true },
    });
    const insecure = await app
      .http()
      .post('/portal/sso/settings')
      .set('cookie', a.cookie)
      .type('form')
      .send({ _csrf: a.csrf, issuer: 'http://idp.example.com', clientId: CLIENT_ID, domains: a.domain, defaultRole: 'viewer' })
      .expect(400);
    expect(insecure.text).toContain('issuer must be an https URL');

    // A viewer (a session started for them as any sign-in would) reads the settings, without a form; posting one is refused.
    const viewer = await addMember(app, a.apiKey, `viewer@${a.domain}`, 'viewer');
    const viewerSession = await app.server.app.get(PortalAuthService).startSession(a.accountId, viewer.memberId);
    const read = await app.http().get('/portal/sso/settings').set('cookie', `portal_session=${viewerSession}`).expect(200);
    expect(read.text).toContain(provider.issuer);
    expect(read.text).not.toContain('<form method="post" action="/portal/sso/settings">');
    const refused = await app
      .http()
      .post('/portal/sso/settings/delete')
      .set('cookie', `portal_session=${viewerSession}`)
      .type('form')
      .send({ _csrf: csrfOf(read.text) })
      .expect(403);
    expect(refused.text).toContain('Your role, viewer, does not allow inviting, changing and removing members (members:write).');
    await app.http().get('/v1/sso').set(bearer(a.apiKey)).expect(200);
  });

  it('the TypeScript SDK: sso.configure, get, remove', async () => {
    const a = await account();
    const client = new PlatformClient({ apiKey: a.apiKey, baseUrl: app.url });
    await expect(client.sso.get()).rejects.toBeInstanceOf(NotFoundError);
    const insecure = client.sso.configure({
      issuer: 'http://idp.example.com',
      clientId: CLIENT_ID,
      clientSecret: 's',
      domains: [a.domain],
      defaultRole: 'viewer',
    });
    await expect(insecure).rejects.toBeInstanceOf(ValidationError);
    await expect(insecure).rejects.toMatchObject({ status: 400, reason: 'sso_issuer_insecure' });
    const saved = await client.sso.configure({
      issuer: provider.issuer,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      domains: [a.domain],
      defaultRole: 'admin',
    });
    expect(saved).toMatchObject({ issuer: provider.issuer, domains: [a.domain], defaultRole: 'admin', required: false, clientSecretSet: true });
    await expect(client.sso.get()).resolves.toEqual(saved);
    await client.sso.remove();
    await expect(client.sso.remove()).rejects.toBeInstanceOf(NotFoundError);
  });
});

import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { DomainRecheck } from '../src/domains/domain-recheck.service.js';
import { MfaService } from '../src/mfa/mfa.service.js';
import { PortalAuthService } from '../src/portal/portal-auth.service.js';
import { AuthError, NotFoundError, PlatformClient } from '../libs/sdk/src/index.js';
import { errorEnvelope, NO_RATE_LIMIT } from './support/api-client.js';
import { addMember, memberSession, postPortalForm } from './support/members.js';
import { type OidcTestAccount, OidcTestProvider } from './support/oidc-provider.js';
import { csrfOf, PORTAL_PASSWORD, portalSession } from './support/portal-session.js';
import { TestDnsServer } from './support/dns-server.js';
import { proveSsoDomains, removeSso, saveSso, type SsoFields, type SsoOwner } from './support/sso-settings.js';
import { ADMIN_TOKEN, startTestApp, target, TestApp } from './support/test-app.js';
import { until } from './support/webhook-receiver.js';

const CLIENT_ID = 'platform-portal';
const CLIENT_SECRET = 'a client secret of the platform at the provider';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const hex = () => randomBytes(4).toString('hex');

describe(`single sign-on: settings API, SSO required, the flow's guards (${target})`, () => {
  let app: TestApp;
  let provider: OidcTestProvider;
  const dns = new TestDnsServer();

  beforeAll(async () => {
    await dns.start();
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, DNS_SERVERS: dns.address } });
    provider = await OidcTestProvider.start({
      clients: [{ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUris: [`${app.url}/portal/sso/callback`] }],
    });
  });
  afterAll(async () => {
    await app?.close();
    await provider?.stop();
    await dns.stop();
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
  /**
   * Saves the settings as the account's owner signed in to the portal: no API key or token may (owner_member_required).
   * Saved, its domains are proven too (`prove: false` leaves them pending; see the DNS proof test).
   */
  const putSso = async (owner: SsoOwner, body: SsoFields, status: number, prove = true) => {
    const saved = await saveSso(app, owner, body, status);
    if (status === 200 && prove) await proveSsoDomains(app, owner.apiKey, dns);
    return saved;
  };
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

  it('saves the settings once discovery answered (the portal, as an owner); the secret is sealed at rest and never answered; GET, and turning it off', async () => {
    const a = await account();
    await app.http().get('/v1/sso').set(bearer(a.apiKey)).expect(404);
    const put = await putSso(a, settings(a.domain, { required: true }), 200, false);
    const expected = {
      issuer: provider.issuer,
      clientId: CLIENT_ID,
      clientSecretSet: true,
      domains: [a.domain],
      domainProofs: [
        {
          domain: a.domain,
          status: 'pending',
          verification: { type: 'TXT', name: `_platform-sso-challenge.${a.domain}`, value: expect.stringMatching(/^[A-Za-z0-9]{32}$/) },
          lastCheck: null,
          verifiedAt: null,
          nextCheckAt: null,
          proofMissingSince: null,
        },
      ],
      defaultRole: 'developer',
      required: true,
      redirectUri: `${app.url}/portal/sso/callback`,
      updatedAt: expect.any(String),
    };
    expect(put.body).toEqual(expected);
    expect(JSON.stringify(put.body)).not.toContain(CLIENT_SECRET);
    expect(put.text).not.toContain(CLIENT_SECRET);
    const [row] = await app.query<{ sso_client_secret: string; sso_domains: string[] }>(
      'SELECT sso_client_secret, sso_domains FROM account_security WHERE account_id = $1',
      [a.accountId],
    );
    expect(row.sso_client_secret).toMatch(/^enc:v1:/);
    expect(row.sso_client_secret).not.toContain(CLIENT_SECRET);
    expect(row.sso_domains).toEqual([a.domain]);

    // Without a secret the stored one is kept (it is write-only).
    const { clientSecret: _omitted, ...withoutSecret } = settings(a.domain, { defaultRole: 'viewer' });
    await putSso(a, withoutSecret, 200);
    const [kept] = await app.query<{ sso_client_secret: string; sso_default_role: string }>(
      'SELECT sso_client_secret, sso_default_role FROM account_security WHERE account_id = $1',
      [a.accountId],
    );
    expect(kept).toEqual({ sso_client_secret: row.sso_client_secret, sso_default_role: 'viewer' });

    // Another client id or issuer without a secret: refused, the stored secret is never sent to them.
    const secretRequired =
      'clientSecret is required when single sign-on is set up the first time, and whenever issuer or clientId changes (the stored secret is never sent elsewhere)';
    const otherClient = await putSso(a, { ...withoutSecret, clientId: 'another-client' }, 400);
    expect(otherClient.text).toContain(secretRequired);
    const otherIssuer = await putSso(a, { ...withoutSecret, issuer: provider.issuer.replace('127.0.0.1', 'localhost') }, 400);
    expect(otherIssuer.text).toContain(secretRequired);
    await expect(app.http().get('/v1/sso').set(bearer(a.apiKey))).resolves.toMatchObject({ body: { clientId: CLIENT_ID, issuer: provider.issuer } });

    expect((await removeSso(app, a.cookie, 200)).text).toContain('Single sign-on is off');
    await app.http().get('/v1/sso').set(bearer(a.apiKey)).expect(404);
    expect((await removeSso(app, a.cookie, 404)).text).toContain('Single sign-on is not set up for this account');
  });

  it("no API key or access token changes single sign-on, not even the owner's: PUT and DELETE /v1/sso answer 403 owner_member_required", async () => {
    const a = await account();
    await putSso(a, settings(a.domain), 200);
    const put = await app
      .http()
      .put('/v1/sso')
      .set(bearer(a.apiKey))
      .send(settings(a.domain, { defaultRole: 'viewer' }))
      .expect(403);
    expect(put.body).toEqual({
      ...errorEnvelope(
        put,
        403,
        'owner_member_required',
        "Only an owner signed in to the portal may make, demote or remove an owner, or change the account's single sign-on: no API key or access token may, whoever created it",
      ),
      credential: 'api_key',
    });
    const removed = await app.http().delete('/v1/sso').set(bearer(a.apiKey)).expect(403);
    expect(removed.body.reason).toBe('owner_member_required');
    await expect(app.http().get('/v1/sso').set(bearer(a.apiKey))).resolves.toMatchObject({ status: 200, body: { defaultRole: 'developer' } });
  });

  it('refuses a plain-http issuer off this machine, an issuer that does not answer, bad fields, an owner default role, and a domain of another account', async () => {
    const a = await account();
    const insecure = await putSso(a, settings(a.domain, { issuer: 'http://idp.example.com' }), 400);
    expect(insecure.text).toContain('issuer must be an https URL without credentials');

    const unreachable = await putSso(a, settings(a.domain, { issuer: 'http://127.0.0.1:9/nothing-here' }), 422);
    expect(unreachable.text).toContain("The issuer's OpenID configuration could not be read");
    // One generic message: never the network's error (a prober would read what is behind an address).
    expect(unreachable.text).not.toMatch(/ECONNREFUSED|fetch failed|connect /);

    // A path of the provider with no discovery document under it.
    const wrongIssuer = await putSso(a, settings(a.domain, { issuer: `${provider.issuer}/elsewhere` }), 422);
    expect(wrongIssuer.text).toContain("The issuer's OpenID configuration could not be read");

    const firstWithoutSecret = await putSso(a, settings(a.domain, { clientSecret: undefined }), 400);
    expect(firstWithoutSecret.text).toContain('clientSecret is required when single sign-on is set up the first time');
    const owner = await putSso(a, settings(a.domain, { defaultRole: 'owner', domains: ['not_a_domain'] }), 400);
    expect(owner.text).toContain('defaultRole must be one of: admin, developer, viewer');
    expect(owner.text).toContain('each of domains must be a lower-case domain name');
    await expect(app.query('SELECT 1 FROM account_security WHERE account_id = $1 AND sso_issuer IS NOT NULL', [a.accountId])).resolves.toEqual([]);

    const gmail = await putSso(a, settings(a.domain, { domains: [a.domain, 'gmail.com'] }), 400);
    expect(gmail.text).toContain(
      "The domain gmail.com is a public mail provider's: anyone can have an address there, so no account's single sign-on may claim it",
    );
    await putSso(a, settings(a.domain, { domains: ['mail.outlook.com'] }), 400);
    await putSso(a, settings(a.domain), 200);
    const b = await account();
    const taken = await putSso(b, settings(b.domain, { domains: [b.domain, a.domain] }), 409);
    expect(taken.text).toContain(`The domain ${a.domain} is a proven domain of another account's single sign-on already`);
  });

  /** The settings page as a member who is not an owner (a session started for them as any sign-in would): read without a form; its delete form posted anyway (403). */
  const settingsPageOf = async (accountId: string, memberId: string) => {
    const session = `portal_session=${await app.server.app.get(PortalAuthService).startSession(accountId, memberId)}`;
    const read = await app.http().get('/portal/sso/settings').set('cookie', session).expect(200);
    expect(read.text).not.toContain('<form method="post" action="/portal/sso/settings">');
    const refused = await app
      .http()
      .post('/portal/sso/settings/delete')
      .set('cookie', session)
      .type('form')
      .send({ _csrf: csrfOf(read.text) })
      .expect(403);
    return { read, refused };
  };

  /** The sign-in's code step: the code posted with the ticket and pre-session cookies and the code page's CSRF token. */
  const postCode = (cookies: string, codePage: string, code: string, status: number) =>
    app
      .http()
      .post('/portal/login/code')
      .set('cookie', cookies)
      .type('form')
      .send({ _csrf: csrfOf(codePage), code })
      .expect(status);

  it('reading takes members:read; changing takes an owner in the portal: an admin or a developer reads, cannot change (API and page); each change audited', async () => {
    const a = await account();
    await putSso(a, settings(a.domain), 200);
    const developer = await addMember(app, a.apiKey, `dev@${a.domain}`, 'developer');
    await app.http().get('/v1/sso').set(bearer(developer.apiKey)).expect(200);
    const refused = await app.http().put('/v1/sso').set(bearer(developer.apiKey)).send(settings(a.domain)).expect(403);
    expect(refused.body.message).toContain('members:write');
    await app.http().delete('/v1/sso').set(bearer(developer.apiKey)).expect(403);

    // An admin could otherwise point the owner's sign-in at a provider the admin runs.
    const admin = await addMember(app, a.apiKey, `admin@${a.domain}`, 'admin');
    await app.http().get('/v1/sso').set(bearer(admin.apiKey)).expect(200);
    const notOwner = await app
      .http()
      .put('/v1/sso')
      .set(bearer(admin.apiKey))
      .send(settings(a.domain, { defaultRole: 'admin' }))
      .expect(403);
    expect(notOwner.body).toMatchObject({ reason: 'owner_member_required', credential: 'api_key' });
    const notOwnerDelete = await app.http().delete('/v1/sso').set(bearer(admin.apiKey)).expect(403);
    expect(notOwnerDelete.body).toMatchObject({ reason: 'owner_member_required' });
    const { refused: portalRefused } = await settingsPageOf(a.accountId, admin.memberId);
    expect(portalRefused.text).toContain('Your role, admin, does not allow managing owners');
    await expect(app.http().get('/v1/sso').set(bearer(a.apiKey))).resolves.toMatchObject({ status: 200, body: { defaultRole: 'developer' } });

    await removeSso(app, a.cookie, 200);
    const audited = await app.query<{ action: string; actor_type: string; target_type: string; target_id: string }>(
      `SELECT action, actor_type, target_type, target_id FROM audit_log WHERE account_id = $1 AND action LIKE 'sso.%' ORDER BY created_at`,
      [a.accountId],
    );
    expect(audited.map((e) => [e.action, e.actor_type, e.target_type, e.target_id])).toEqual([
      ['sso.configured', 'member', 'account', a.accountId],
      ['sso.domain_verified', 'credential', 'account', a.accountId], // the domain's proof, checked with the owner's key
      ['sso.removed', 'member', 'account', a.accountId],
    ]);
  });

  it('turning "SSO required" on ends the portal sessions of members other than owners (not when it stays on)', async () => {
    const a = await account();
    await putSso(a, settings(a.domain), 200);
    const dev = await addMember(app, a.apiKey, `dev@${a.domain}`, 'developer');
    const auth = app.server.app.get(PortalAuthService);
    const devSession = await auth.startSession(a.accountId, dev.memberId);
    await app.http().get('/portal/').set('cookie', `portal_session=${devSession}`).expect(200);
    await putSso(a, settings(a.domain, { required: true }), 200);
    expect((await app.http().get('/portal/').set('cookie', `portal_session=${devSession}`)).headers.location).toBe('/portal/login');
    await app.http().get('/portal/').set('cookie', a.cookie).expect(200);
    // Saved again with SSO required still on: a session started since (through SSO) stays.
    const later = await auth.startSession(a.accountId, dev.memberId);
    await putSso(a, settings(a.domain, { required: true, defaultRole: 'viewer' }), 200);
    await app.http().get('/portal/').set('cookie', `portal_session=${later}`).expect(200);
  });

  it("the operator's re-issued invite checks what a password sign-in does: refused when SSO is required (no session, audited), the code step for an owner with MFA", async () => {
    const a = await account();
    await putSso(a, settings(a.domain, { required: true }), 200);
    const [owner] = await app.query<{ id: string }>('SELECT id FROM members WHERE account_id = $1', [a.accountId]);
    const acceptInvite = async (status: number) => {
      const issued = await app.http().post(`/v1/admin/accounts/${a.accountId}/invite`).set(bearer(ADMIN_TOKEN)).expect(201);
      const path = new URL(issued.body.portalInviteUrl as string).pathname;
      const page = await app.http().get(path).expect(200);
      const pre = String(page.headers['set-cookie']).split(';')[0];
      return app
        .http()
        .post(path)
        .set('cookie', pre)
        .type('form')
        .send({ _csrf: csrfOf(page.text), password: 'a new owner password', confirm: 'a new owner password' })
        .expect(status);
    };
    const failedBefore = (await app.query(`SELECT 1 FROM audit_log WHERE account_id = $1 AND action = 'sign_in.failed'`, [a.accountId])).length;
    const refused = await acceptInvite(403);
    expect(refused.text).toContain('Your account requires single sign-on: passwords are turned off.');
    expect(sessionCookieOf(refused)).toBeUndefined();
    expect((await app.query(`SELECT 1 FROM audit_log WHERE account_id = $1 AND action = 'sign_in.failed'`, [a.accountId])).length).toBe(failedBefore + 1);

    await enrolMfa(a.accountId, owner.id, a.email);
    const withMfa = await acceptInvite(303);
    expect(withMfa.headers.location).toBe('/portal/login/code');
    expect(sessionCookieOf(withMfa)).toBeUndefined();
  });

  it('an invitation into an SSO-required account sets no password: the join page points to SSO, the form is refused; the invitee joins through the provider', async () => {
    const a = await account();
    await putSso(a, settings(a.domain, { required: true }), 200);
    const invitee = `new-dev@${a.domain}`;
    const invited = await app.http().post('/v1/members/invitations').set(bearer(a.apiKey)).send({ email: invitee, role: 'developer' }).expect(201);
    const path = new URL(invited.body.invitationUrl as string).pathname;
    const page = await app.http().get(path).expect(403);
    expect(page.text).toContain('This account requires single sign-on: no password is set here.');
    expect(page.text).toContain('href="/portal/sso"');
    expect(page.text).not.toContain('name="password"');
    // The form posted anyway (its token from another page): refused, nobody joins.
    const login = await app.http().get('/portal/login').expect(200);
    const posted = await app
      .http()
      .post(path)
      .set('cookie', String(login.headers['set-cookie']).split(';')[0])
      .type('form')
      .send({ _csrf: csrfOf(login.text), email: invitee, password: 'a password of my own', confirm: 'a password of my own' })
      .expect(403);
    expect(sessionCookieOf(posted)).toBeUndefined();
    await expect(app.query('SELECT 1 FROM members WHERE email = $1', [invitee])).resolves.toEqual([]);

    const joined = await ssoSignIn(invitee, 303);
    expect(sessionCookieOf(joined)).toBeDefined();
    await expect(app.query('SELECT role FROM members WHERE email = $1', [invitee])).resolves.toEqual([{ role: 'developer' }]);
  });

  it('SSO required: the right password of a member who is not an owner is refused (page, no session, audit entry); an owner without MFA too; an owner with MFA signs in with password and code', async () => {
    const a = await account();
    await putSso(a, settings(a.domain, { required: true }), 200);
    const [login] = await app.query<{ id: string }>('SELECT id FROM members WHERE account_id = $1', [a.accountId]);

    // The owner, no MFA: refused.
    const noMfa = await passwordSignIn(a.email, 403);
    expect(noMfa.text).toContain('Your account requires single sign-on: passwords are turned off.');
    expect(noMfa.text).toContain('href="/portal/sso"');
    expect(sessionCookieOf(noMfa)).toBeUndefined();
    // A wrong password gets the same answer: the page tells nothing of whether the password was right.
    const wrong = await passwordSignIn(a.email, 403, 'not the password at all');
    expect(wrong.text).toContain('Your account requires single sign-on: passwords are turned off.');

    // Demoted to admin (another owner made first, in the portal): refused, whatever MFA.
    const other = await addMember(app, { cookie: a.cookie }, `second-owner@${a.domain}`, 'owner');
    const otherSession = await memberSession(app, a.accountId, other.memberId);
    expect((await postPortalForm(app, otherSession, `/portal/members/${login.id}/role`, { role: 'admin' })).status).toBe(303);
    expect(sessionCookieOf(await passwordSignIn(a.email, 403))).toBeUndefined();

    // Owner again, with MFA on: the recovery path (password, then MFA) stays open.
    expect((await postPortalForm(app, otherSession, `/portal/members/${login.id}/role`, { role: 'owner' })).status).toBe(303);
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
    const second = await postCode(cookies, codePage.text, recoveryCodes[0], 303);
    expect(second.headers.location).toBe('/portal/');
    expect(sessionCookieOf(second)).toBeDefined();

    const failures = await app.query<{ actor_id: string }>(`SELECT actor_id FROM audit_log WHERE account_id = $1 AND action = 'sign_in.failed'`, [a.accountId]);
    expect(failures.map((f) => f.actor_id)).toEqual([login.id, login.id, login.id]);

    // SSO off again (by the other owner, in the portal): the password works for every member as before.
    await removeSso(app, otherSession, 200);
    await app.server.app.get(MfaService).remove(a.accountId, { type: 'member', id: login.id, label: a.email, ip: null }, login.id);
    expect(sessionCookieOf(await passwordSignIn(a.email, 303))).toBeDefined();
  });

  /** "Sign in with SSO": the page (its CSRF token, bound to the pre-session cookie), then its form posted with `email`. */
  const startSso = async (email: string, status: number) => {
    const page = await app.http().get('/portal/sso').expect(200);
    const pre = String(page.headers['set-cookie']).split(';')[0];
    return app
      .http()
      .post('/portal/sso/start')
      .set('cookie', pre)
      .type('form')
      .send({ _csrf: csrfOf(page.text), email })
      .expect(status);
  };

  /** The provider's URL the page of `/portal/sso/start` sends the browser to (a meta refresh and a link: the portal's CSP allows forms no redirect elsewhere). */
  const providerUrlOf = (html: string) => {
    const href = /<a id="continue" href="([^"]+)"/.exec(html)?.[1];
    if (!href) throw new Error('no link to the provider on the page');
    const url = href.replaceAll('&amp;', '&').replaceAll('&#39;', "'");
    expect(html).toContain(`<meta http-equiv="refresh" content="0;url=${href}">`);
    return new URL(url);
  };

  it('routes sign-ins only for domains proven with a TXT record: another account listing a victim’s domain routes nothing; the first to prove it owns it', async () => {
    const victimDomain = `corp-${hex()}.test`;
    const attacker = await account();
    // The attacker lists the victim's domain: saved, pending, with the TXT record it would have to create.
    const saved = await putSso(attacker, settings(attacker.domain, { domains: [attacker.domain, victimDomain] }), 200, false);
    const pending = (saved.body.domainProofs as Array<{ domain: string; status: string; verification: { name: string; value: string } }>).find(
      (d) => d.domain === victimDomain,
    )!;
    expect(pending).toMatchObject({ status: 'pending', verification: { type: 'TXT', name: `_platform-sso-challenge.${victimDomain}` } });
    expect(saved.text).toContain(`_platform-sso-challenge.${victimDomain}`); // the portal page shows the record
    // Before any proof, "Sign in with SSO" for either domain goes nowhere: no flow cookie, the unknown-domain page.
    for (const email of [`alice@${victimDomain}`, `bob@${attacker.domain}`]) {
      const refused = await startSso(email, 404);
      expect(refused.text).toContain('No account signs in with single sign-on for this e-mail domain');
      expect(String(refused.headers['set-cookie'] ?? '')).not.toContain('portal_sso=');
    }
    // Verifying without the record: still pending, the check says what was found.
    const unproven = await app.http().post(`/v1/sso/domains/${victimDomain}/verify`).set(bearer(attacker.apiKey)).expect(200);
    expect(unproven.body.domainProofs.find((d: { domain: string }) => d.domain === victimDomain)).toMatchObject({
      status: 'pending',
      lastCheck: { result: 'no_record' },
    });
    expect((await app.http().post('/v1/sso/domains/other.test/verify').set(bearer(attacker.apiKey)).expect(404)).body.reason).toBe('sso_domain_not_listed');

    // The victim's own account lists it too (a listing claims nothing, so nothing is refused) and proves it.
    const victim = { ...(await portalSession(app, `owner@${victimDomain}`)), domain: victimDomain };
    await putSso(victim, settings(victimDomain), 200);
    const routed = await startSso(`alice@${victimDomain}`, 200);
    expect(providerUrlOf(routed.text).searchParams.get('login_hint')).toBe(`alice@${victimDomain}`);
    expect(await app.query(`SELECT account_id, status FROM sso_domain_proofs WHERE domain = $1 ORDER BY status`, [victimDomain])).toEqual([
      { account_id: attacker.accountId, status: 'pending' },
      { account_id: victim.accountId, status: 'verified' },
    ]);
    // The attacker's record at the name too, later: the domain is the victim's (409), and a new listing is refused.
    dns.set(`_platform-sso-challenge.${victimDomain}`, { txt: [pending.verification.value] });
    const late = await app.http().post(`/v1/sso/domains/${victimDomain}/verify`).set(bearer(attacker.apiKey)).expect(409);
    expect(late.body).toMatchObject({ reason: 'sso_domain_taken' });
    const other = await account();
    const taken = await putSso(other, settings(other.domain, { domains: [other.domain, victimDomain] }), 409);
    expect(taken.text).toContain(`The domain ${victimDomain} is a proven domain of another account's single sign-on already`);
    const audit = (await app.http().get('/v1/audit-log?action=sso.domain_verified').set(bearer(victim.apiKey)).expect(200)).body.data;
    expect(audit).toHaveLength(1);
  });

  it('re-checks a proven domain daily and on demand; its record gone for the grace period, it lapses (audited): it routes nothing, and whoever proves it next owns it', async () => {
    type Proof = {
      domain: string;
      status: string;
      verification: { value: string };
      verifiedAt: string;
      nextCheckAt: string | null;
      proofMissingSince: string | null;
    };
    const owner = await account();
    await putSso(owner, settings(owner.domain), 200);
    const record = `_platform-sso-challenge.${owner.domain}`;
    const proofIn = (body: { domainProofs: Proof[] }) => body.domainProofs.find((d) => d.domain === owner.domain)!;
    const verify = (key: string, status = 200) => app.http().post(`/v1/sso/domains/${owner.domain}/verify`).set(bearer(key)).expect(status);
    const proven = proofIn((await app.http().get('/v1/sso').set(bearer(owner.apiKey)).expect(200)).body);
    // Checked again a day after the proof, like a verified custom domain.
    expect(proven).toMatchObject({ status: 'verified', proofMissingSince: null });
    expect(Date.parse(proven.nextCheckAt!) - Date.parse(proven.verifiedAt)).toBe(24 * 3600_000);
    await startSso(`alice@${owner.domain}`, 200);

    // The record goes: a check on demand starts the grace period (hourly checks from then); the domain still routes
    // sign-ins, and stays the owner's (another account's listing is refused).
    dns.set(record, undefined);
    const missing = proofIn((await verify(owner.apiKey)).body);
    expect(missing).toMatchObject({ status: 'verified', proofMissingSince: expect.any(String), lastCheck: { result: 'no_record' } });
    expect(Date.parse(missing.nextCheckAt!) - Date.parse(missing.proofMissingSince!)).toBe(3600_000);
    await startSso(`alice@${owner.domain}`, 200);
    const rival = await account();
    await putSso(rival, settings(rival.domain, { domains: [rival.domain, owner.domain] }), 409);
    // Back in time: the grace period ends.
    dns.set(record, { txt: [proven.verification.value] });
    expect(proofIn((await verify(owner.apiKey)).body)).toMatchObject({ status: 'verified', proofMissingSince: null, lastCheck: { result: 'verified' } });

    // Gone again, for the whole grace period (72 hours by default): the worker's scheduled check (the custom domains' job) lapses it.
    dns.set(record, undefined);
    await app.query(
      `UPDATE sso_domain_proofs SET proof_missing_since = now() - interval '73 hours', next_check_at = now() - interval '1 second' WHERE account_id = $1 AND domain = $2`,
      [owner.accountId, owner.domain],
    );
    const lapsedRow = async () =>
      (
        await app.query<{ status: string; next_check_at: Date | null }>(
          `SELECT status, next_check_at FROM sso_domain_proofs WHERE account_id = $1 AND domain = $2`,
          [owner.accountId, owner.domain],
        )
      )[0];
    await app.server.app.get(DomainRecheck).runDue();
    await until(async () => (await lapsedRow()).status === 'lapsed', 10_000, 'the SSO domain lapsed');
    expect(await lapsedRow()).toEqual({ status: 'lapsed', next_check_at: null });
    expect(proofIn((await app.http().get('/v1/sso').set(bearer(owner.apiKey)).expect(200)).body)).toMatchObject({ status: 'lapsed', nextCheckAt: null });
    const refused = await startSso(`alice@${owner.domain}`, 404);
    expect(refused.text).toContain('No account signs in with single sign-on for this e-mail domain');
    const audit = (await app.http().get('/v1/audit-log?action=sso.domain_lapsed').set(bearer(owner.apiKey)).expect(200)).body.data;
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'sso.domain_lapsed',
        actor: { type: 'operator', id: 'system', label: 'scheduled DNS check' },
        target: { type: 'account', id: owner.accountId },
      }),
    ]);

    // Free: another account lists it and proves it with its own record; it routes there, and the former owner's record
    // back at the name proves nothing any more (409, the row stays lapsed).
    const listed = await putSso(rival, settings(rival.domain, { domains: [rival.domain, owner.domain] }), 200, false);
    const rivalProof = proofIn(listed.body as { domainProofs: Proof[] });
    dns.set(record, { txt: [rivalProof.verification.value] });
    expect(proofIn((await verify(rival.apiKey)).body)).toMatchObject({ status: 'verified' });
    dns.set(record, { txt: [rivalProof.verification.value, proven.verification.value] });
    expect((await verify(owner.apiKey, 409)).body.reason).toBe('sso_domain_taken');
    expect(await app.query(`SELECT account_id, status FROM sso_domain_proofs WHERE domain = $1 ORDER BY status`, [owner.domain])).toEqual([
      { account_id: owner.accountId, status: 'lapsed' },
      { account_id: rival.accountId, status: 'verified' },
    ]);
    await startSso(`alice@${owner.domain}`, 200);
  });

  it('"Sign in with SSO" sends the browser to the provider with PKCE (S256), state and nonce, the flow sealed in a cookie; an unknown domain is a page', async () => {
    const a = await account();
    await putSso(a, settings(a.domain), 200);
    const unknown = await startSso(`x@nowhere-${hex()}.test`, 404);
    expect(unknown.text).toContain('No account signs in with single sign-on for this e-mail domain');
    expect(String(unknown.headers['set-cookie'] ?? '')).not.toContain('portal_sso=');

    // Without the page's CSRF token (a link or form of another site): no sign-in starts.
    const forgedStart = await app
      .http()
      .post('/portal/sso/start')
      .type('form')
      .send({ email: `alice@${a.domain}` });
    expect(forgedStart.status).toBe(403);
    expect(String(forgedStart.headers['set-cookie'] ?? '')).not.toContain('portal_sso=');
    const linked = await app
      .http()
      .get('/portal/sso/start')
      .query({ email: `alice@${a.domain}` });
    expect(linked.status).not.toBe(200);
    expect(String(linked.headers['set-cookie'] ?? '')).not.toContain('portal_sso=');

    const start = await startSso(`Alice@${a.domain.toUpperCase()}`, 200);
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

  /** "Sign in with SSO" as `email`, the provider's forms as `login`, over HTTP; answers the portal's answer to the callback. */
  const ssoSignIn = async (email: string, status: number, at: OidcTestAccount = { email }) => {
    const login = at.login ?? at.email;
    provider.addAccount(at);
    const start = await startSso(email, 200);
    const flow = ([] as string[])
      .concat(start.headers['set-cookie'])
      .find((c) => c.startsWith('portal_sso='))!
      .split(';')[0];
    const back = await provider.signInOverHttp(providerUrlOf(start.text).href, login);
    expect(`${back.origin}${back.pathname}`).toBe(`${app.url}/portal/sso/callback`);
    return app.http().get(`${back.pathname}${back.search}`).set('cookie', flow).expect(status);
  };
  const enrolMfa = async (accountId: string, memberId: string, email: string) => {
    const mfa = app.server.app.get(MfaService);
    const enrolment = await mfa.start(memberId, email);
    const code = new TOTP({ secret: Secret.fromBase32(enrolment.secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() });
    return mfa.confirm(accountId, { type: 'member', id: memberId, label: email, ip: null }, memberId, code);
  };

  it('a member with MFA who signs in through the provider still types a code: no session before it, then one (over HTTP)', async () => {
    const a = await account();
    await putSso(a, settings(a.domain), 200);
    const [owner] = await app.query<{ id: string }>('SELECT id FROM members WHERE account_id = $1', [a.accountId]);
    const recoveryCodes = await enrolMfa(a.accountId, owner.id, a.email);

    const callback = await ssoSignIn(a.email, 303);
    expect(callback.headers.location).toBe('/portal/login/code');
    expect(sessionCookieOf(callback)).toBeUndefined();
    const ticket = ([] as string[])
      .concat(callback.headers['set-cookie'])
      .find((c) => c.startsWith('portal_mfa='))!
      .split(';')[0];
    // Only the invite's sign-in so far: none for the provider's step.
    await expect(app.query(`SELECT 1 FROM audit_log WHERE account_id = $1 AND action = 'sign_in.succeeded'`, [a.accountId])).resolves.toHaveLength(1);

    const codePage = await app.http().get('/portal/login/code').set('cookie', ticket).expect(200);
    const pre = String(codePage.headers['set-cookie']).split(';')[0];
    const cookies = `${ticket}; ${pre}`;
    const wrong = await postCode(cookies, codePage.text, '000000', 401);
    expect(sessionCookieOf(wrong)).toBeUndefined();
    const passed = await postCode(cookies, codePage.text, recoveryCodes[0], 303);
    expect(passed.headers.location).toBe('/portal/');
    expect(sessionCookieOf(passed)).toBeDefined();
    const signIns = await app.query<{ action: string }>(`SELECT action FROM audit_log WHERE account_id = $1 AND action LIKE 'sign_in.%' ORDER BY created_at`, [
      a.accountId,
    ]);
    expect(signIns.map((e) => e.action)).toEqual(['sign_in.succeeded', 'sign_in.failed', 'sign_in.succeeded']);
  });

  it('links a member to the provider identity (iss + sub) of their first SSO sign-in: another subject with the same e-mail is refused; an existing member links only through a verified e-mail', async () => {
    const a = await account();
    await putSso(a, settings(a.domain), 200);
    const bob = await addMember(app, a.apiKey, `bob@${a.domain}`, 'developer');
    const failures = async () =>
      (await app.query(`SELECT 1 FROM audit_log WHERE account_id = $1 AND action = 'sign_in.failed' AND actor_id = $2`, [a.accountId, bob.memberId])).length;

    // No email_verified claim: an existing member is not linked on the provider's silence.
    const unverified = await ssoSignIn(bob.email, 403, { email: bob.email, emailVerified: null, sub: 'bob-at-idp' });
    expect(unverified.text).toContain('an existing member is linked to single sign-on only through a verified address');
    expect(sessionCookieOf(unverified)).toBeUndefined();
    expect(await failures()).toBe(1);
    await expect(app.query('SELECT 1 FROM member_sso_identities WHERE member_id = $1', [bob.memberId])).resolves.toEqual([]);

    const linked = await ssoSignIn(bob.email, 303, { email: bob.email, sub: 'bob-at-idp' });
    expect(linked.headers.location).toBe('/portal/');
    expect(sessionCookieOf(linked)).toBeDefined();
    await expect(app.query('SELECT issuer, subject FROM member_sso_identities WHERE member_id = $1', [bob.memberId])).resolves.toEqual([
      { issuer: provider.issuer, subject: 'bob-at-idp' },
    ]);

    // Someone else at the provider who got bob's e-mail (a renamed or recycled mailbox): refused, page and audit entry.
    const impostor = await ssoSignIn(bob.email, 403, { email: bob.email, sub: 'mallory-at-idp' });
    expect(impostor.text).toContain('Single sign-on refused');
    expect(impostor.text).toContain('its subject differs from the one linked at the first single sign-on');
    expect(sessionCookieOf(impostor)).toBeUndefined();
    expect(await failures()).toBe(2);
    // Bob himself again: in.
    expect(sessionCookieOf(await ssoSignIn(bob.email, 303, { email: bob.email, sub: 'bob-at-idp' }))).toBeDefined();

    // A new member may join without the claim (never with email_verified: false), and is linked at once.
    const carol = `carol@${a.domain}`;
    expect(sessionCookieOf(await ssoSignIn(carol, 303, { email: carol, emailVerified: null, sub: 'carol-at-idp' }))).toBeDefined();
    const [joined] = await app.query<{ id: string; subject: string }>(
      'SELECT m.id, i.subject FROM members m JOIN member_sso_identities i ON i.member_id = m.id WHERE m.email = $1',
      [carol],
    );
    expect(joined.subject).toBe('carol-at-idp');
    // Bob's provider identity cannot sign in as carol either (the identity is bob's).
    await ssoSignIn(carol, 403, { email: carol, sub: 'bob-at-idp' });
  });

  it('refuses an e-mail that is not plain ASCII (the Kelvin sign lower-cases to "k"): no member made', async () => {
    const a = await account();
    await putSso(a, settings(a.domain), 200);
    await addMember(app, a.apiKey, `kate@${a.domain}`, 'admin');
    const kelvin = `\u212Aate@${a.domain}`;
    expect(kelvin.toLowerCase()).toBe(`kate@${a.domain}`);
    const refused = await ssoSignIn(`kate@${a.domain}`, 403, { email: kelvin, login: `kelvin@${a.domain}` });
    expect(refused.text).toContain('The e-mail address the identity provider gave is not plain ASCII');
    expect(sessionCookieOf(refused)).toBeUndefined();
    await expect(
      app.query('SELECT 1 FROM member_sso_identities i JOIN members m ON m.id = i.member_id WHERE m.account_id = $1', [a.accountId]),
    ).resolves.toEqual([]);
  });

  it('the callback refuses an answer this browser did not ask for: no flow cookie, or another state (CSRF) — a page, no session', async () => {
    const a = await account();
    await putSso(a, settings(a.domain), 200);
    const none = await app.http().get('/portal/sso/callback').query({ code: 'stolen', state: 'x' }).expect(400);
    expect(none.text).toContain('Single sign-on refused');
    expect(none.text).toContain('This sign-in was not started in this browser or took longer than 10 minutes');
    expect(sessionCookieOf(none)).toBeUndefined();

    const start = await startSso(`alice@${a.domain}`, 200);
    const flow = ([] as string[])
      .concat(start.headers['set-cookie'])
      .find((c) => c.startsWith('portal_sso='))!
      .split(';')[0];
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

  it('the settings page: an owner saves them (the secret never shown back), a viewer only reads them', async () => {
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
    const { read, refused } = await settingsPageOf(a.accountId, viewer.memberId);
    expect(read.text).toContain(provider.issuer);
    expect(refused.text).toContain('Your role, viewer, does not allow managing owners and the account’s security settings (owners:manage).');
    await app.http().get('/v1/sso').set(bearer(a.apiKey)).expect(200);
  });

  it('the TypeScript SDK: sso.get reads; sso.configure and sso.remove are refused to every key (AuthError, owner_member_required)', async () => {
    const a = await account();
    const client = new PlatformClient({ apiKey: a.apiKey, baseUrl: app.url });
    await expect(client.sso.get()).rejects.toBeInstanceOf(NotFoundError);
    const configure = client.sso.configure({
      issuer: provider.issuer,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      domains: [a.domain],
      defaultRole: 'admin',
    });
    await expect(configure).rejects.toBeInstanceOf(AuthError);
    await expect(configure).rejects.toMatchObject({ status: 403, reason: 'owner_member_required' });
    await putSso(a, settings(a.domain, { defaultRole: 'admin' }), 200);
    await expect(client.sso.get()).resolves.toMatchObject({
      issuer: provider.issuer,
      domains: [a.domain],
      defaultRole: 'admin',
      required: false,
      clientSecretSet: true,
    });
    await expect(client.sso.remove()).rejects.toMatchObject({ status: 403, reason: 'owner_member_required' });
    await expect(client.sso.get()).resolves.toMatchObject({ defaultRole: 'admin' });
  });

  it('the way back in when every owner is locked out: no key may turn SSO off, the operator may (DELETE /v1/admin/accounts/:id/sso, audited)', async () => {
    const a = await account();
    await putSso(a, settings(a.domain, { required: true }), 200);
    // The provider is gone and the only owner has no MFA: their password is refused, and their keys may not help.
    expect(sessionCookieOf(await passwordSignIn(a.email, 403))).toBeUndefined();
    expect((await app.http().delete('/v1/sso').set(bearer(a.apiKey)).expect(403)).body.reason).toBe('owner_member_required');

    await app.http().delete(`/v1/admin/accounts/${a.accountId}/sso`).expect(401);
    await app.http().delete(`/v1/admin/accounts/${a.accountId}/sso`).set(bearer(ADMIN_TOKEN)).expect(204);
    await app.http().get('/v1/sso').set(bearer(a.apiKey)).expect(404);
    expect(sessionCookieOf(await passwordSignIn(a.email, 303))).toBeDefined();
    const audited = await app.query<{ actor_type: string; actor_id: string }>(
      `SELECT actor_type, actor_id FROM audit_log WHERE account_id = $1 AND action = 'sso.removed'`,
      [a.accountId],
    );
    expect(audited).toEqual([{ actor_type: 'operator', actor_id: 'operator' }]);
    const again = await app.http().delete(`/v1/admin/accounts/${a.accountId}/sso`).set(bearer(ADMIN_TOKEN)).expect(404);
    expect(again.body.reason).toBe('sso_not_configured');
    await app.http().delete('/v1/admin/accounts/acc_unknown/sso').set(bearer(ADMIN_TOKEN)).expect(404);

    // The SDK's operator method does the same.
    await putSso(a, settings(a.domain), 200);
    await new PlatformClient({ apiKey: ADMIN_TOKEN, baseUrl: app.url }).admin.removeSso(a.accountId);
    await app.http().get('/v1/sso').set(bearer(a.apiKey)).expect(404);
  });
});

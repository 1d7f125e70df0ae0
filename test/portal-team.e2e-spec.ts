import { Secret, TOTP } from 'otpauth';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { MemberPasswords1764000000000 } from '../src/database/migrations/1764000000000-member-passwords.js';
import { NO_RATE_LIMIT } from './support/api-client.js';
import { csrfOf, portalSession, PORTAL_PASSWORD, type PortalSession } from './support/portal-session.js';
import { SmtpTestServer } from './support/smtp-server.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

const DEV = 'dev@team.test';
const VIEWER = 'viewer@team.test';
const OWNER = 'owner@team.test';
const DEV_PASSWORD = 'the developer passphrase';
const VIEWER_PASSWORD = 'the viewer passphrase!';

const codeAt = (secret: string, at: number) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at });
const cookieOf = (res: Response, name: string) =>
  ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith(`${name}=`) && !c.startsWith(`${name}=;`))
    ?.split(';')[0];

describe(`portal teams: per-member sign-in, joining, roles, members, audit log, MFA (${target})`, () => {
  let app: TestApp;
  let smtp: SmtpTestServer;
  let owner: PortalSession;
  /** Session cookies by member e-mail (the latest). */
  const sessions: Record<string, string> = {};

  beforeAll(async () => {
    smtp = await SmtpTestServer.start();
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, SMTP_URL: smtp.url, SMTP_FROM: 'Platform <no-reply@example.test>' } });
    owner = await portalSession(app, OWNER);
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.stop();
  });

  const auditCount = async (action: string, targetId?: string) =>
    (
      await app.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM audit_log WHERE account_id = $1 AND action = $2 AND ($3::text IS NULL OR target_id = $3)`,
        [owner.accountId, action, targetId ?? null],
      )
    )[0].n;
  const memberId = async (email: string) => (await app.query<{ id: string }>(`SELECT id FROM members WHERE email = $1`, [email]))[0]?.id;
  const get = (path: string, cookie: string) => app.http().get(path).set('cookie', cookie);
  const post = async (path: string, cookie: string, form: Record<string, string | string[]>) => {
    const csrf = csrfOf((await get('/portal/account', cookie)).text);
    return app
      .http()
      .post(path)
      .set('cookie', cookie)
      .type('form')
      .send({ _csrf: csrf, ...form });
  };
  const alive = async (cookie: string) => (await get('/portal/account', cookie)).status === 200;

  /** The login form, then its post: the answer (a 303 with a session, or to the code page; a 401). */
  async function signIn(email: string, password: string): Promise<Response> {
    const form = await app.http().get('/portal/login').expect(200);
    return app
      .http()
      .post('/portal/login')
      .set('cookie', cookieOf(form, 'portal_pre')!)
      .type('form')
      .send({ _csrf: csrfOf(form.text), email, password });
  }

  /** Invites through the members page (the link e-mailed), joins through the e-mailed link; answers the new member's session cookie. */
  async function inviteAndJoin(email: string, role: string, password: string): Promise<string> {
    const invited = await post('/portal/members/invitations', owner.cookie, { email, role });
    expect(invited.status).toBe(200);
    expect(invited.headers['cache-control']).toBe('no-store');
    expect(invited.text).toContain(`The link was e-mailed to ${email}`);
    const mail = await smtp.nextTo(email);
    expect(mail.subject).toContain(OWNER);
    expect(mail.text).toContain(`as ${role}`);
    const path = new URL(/https?:\/\/\S+\/portal\/join\/[\w-]+/.exec(mail.text)![0]).pathname;
    const page = await app.http().get(path).expect(200);
    expect(page.text).toContain(`<strong>${OWNER}</strong> as <strong>${role}</strong>`);
    const joined = await app
      .http()
      .post(path)
      .set('cookie', cookieOf(page, 'portal_pre')!)
      .type('form')
      .send({ _csrf: csrfOf(page.text), email, password, confirm: password })
      .expect(303);
    expect(joined.headers.location).toBe('/portal/');
    return cookieOf(joined, 'portal_session')!;
  }

  it('joins through the e-mailed link with the invited e-mail only, once, and signs in with a password of its own', async () => {
    await post('/portal/members/invitations', owner.cookie, { email: DEV, role: 'developer' }).then((r) => expect(r.status).toBe(200));
    const mail = await smtp.nextTo(DEV);
    const path = new URL(/https?:\/\/\S+\/portal\/join\/[\w-]+/.exec(mail.text)![0]).pathname;
    const page = await app.http().get(path).expect(200);
    const send = (email: string) =>
      app
        .http()
        .post(path)
        .set('cookie', cookieOf(page, 'portal_pre')!)
        .type('form')
        .send({ _csrf: csrfOf(page.text), email, password: DEV_PASSWORD, confirm: DEV_PASSWORD });
    const wrong = await send('someone-else@team.test');
    expect(wrong.status).toBe(403);
    expect(wrong.text).toContain('This invitation is for another e-mail address');
    expect(await memberId(DEV)).toBeUndefined();
    const joined = await send(` ${DEV.toUpperCase()} `);
    expect(joined.status).toBe(303);
    sessions[DEV] = cookieOf(joined, 'portal_session')!;
    expect(await alive(sessions[DEV])).toBe(true);
    // Once only.
    expect((await send(DEV)).status).toBe(404);
    expect((await app.http().get(path)).text).toContain('Invitation not valid');

    const signedIn = await signIn(DEV, DEV_PASSWORD);
    expect(signedIn.status).toBe(303);
    expect(await alive(cookieOf(signedIn, 'portal_session')!)).toBe(true);
    expect((await signIn(DEV, PORTAL_PASSWORD)).status).toBe(401);
    // Each member has a password of their own; the owner's still works.
    const rows = await app.query<{ member_id: string }>(`SELECT member_id FROM portal_passwords WHERE account_id = $1 ORDER BY member_id`, [owner.accountId]);
    expect(rows.map((r) => r.member_id).sort()).toEqual([await memberId(DEV), await memberId(OWNER)].sort());
    expect((await signIn(OWNER, PORTAL_PASSWORD)).status).toBe(303);
    expect(await auditCount('member.invited')).toBe(1);
    expect(await auditCount('member.joined', await memberId(DEV))).toBe(1);

    // Through the API too: e-mailed, so the answer holds no link.
    const api = await app
      .http()
      .post('/v1/members/invitations')
      .set('authorization', `Bearer ${owner.apiKey}`)
      .send({ email: 'api-invite@team.test', role: 'viewer' })
      .expect(201);
    expect(api.body).toMatchObject({ email: 'api-invite@team.test', role: 'viewer', emailed: true, invitationUrl: null });
    expect((await smtp.nextTo('api-invite@team.test')).text).toMatch(/\/portal\/join\/[\w-]+/);
    expect(await auditCount('member.invited', api.body.id)).toBe(1);
  });

  it("ends only that member's sessions on a password change and on signing out everywhere", async () => {
    const second = cookieOf(await signIn(DEV, DEV_PASSWORD), 'portal_session')!;
    const changed = await post('/portal/account/password', sessions[DEV], {
      current: DEV_PASSWORD,
      password: `${DEV_PASSWORD} 2`,
      confirm: `${DEV_PASSWORD} 2`,
    });
    expect(changed.status).toBe(303);
    expect(await alive(sessions[DEV])).toBe(true);
    expect(await alive(second)).toBe(false);
    expect(await alive(owner.cookie)).toBe(true);
    expect((await signIn(DEV, `${DEV_PASSWORD} 2`)).status).toBe(303);
    expect((await signIn(OWNER, PORTAL_PASSWORD)).status).toBe(303);

    expect((await post('/portal/account/sign-out-everywhere', sessions[DEV], {})).status).toBe(303);
    expect(await alive(sessions[DEV])).toBe(false);
    expect(await alive(owner.cookie)).toBe(true);
    sessions[DEV] = cookieOf(await signIn(DEV, `${DEV_PASSWORD} 2`), 'portal_session')!;
  });

  it("resets a member's own password by e-mail, ending that member's sessions only", async () => {
    const form = await app.http().get('/portal/forgot-password').expect(200);
    await app
      .http()
      .post('/portal/forgot-password')
      .set('cookie', cookieOf(form, 'portal_pre')!)
      .type('form')
      .send({ _csrf: csrfOf(form.text), email: DEV })
      .expect(303);
    const mail = await smtp.nextTo(DEV);
    const path = new URL(/https?:\/\/\S+\/portal\/reset-password\/[\w-]+/.exec(mail.text)![0]).pathname;
    expect(await app.query(`SELECT member_id FROM portal_password_resets WHERE used_at IS NULL`)).toEqual([{ member_id: await memberId(DEV) }]);
    const page = await app.http().get(path).expect(200);
    const next = `${DEV_PASSWORD} reset`;
    await app
      .http()
      .post(path)
      .set('cookie', cookieOf(page, 'portal_pre')!)
      .type('form')
      .send({ _csrf: csrfOf(page.text), password: next, confirm: next })
      .expect(303);
    expect(await alive(sessions[DEV])).toBe(false);
    expect(await alive(owner.cookie)).toBe(true);
    expect((await signIn(DEV, next)).status).toBe(303);
    expect((await signIn(OWNER, PORTAL_PASSWORD)).status).toBe(303);
    sessions[DEV] = cookieOf(await signIn(DEV, next), 'portal_session')!;
  });

  it('lets each role do exactly what the permission table allows, in the portal and with a key it creates', async () => {
    sessions[VIEWER] = await inviteAndJoin(VIEWER, 'viewer', VIEWER_PASSWORD);
    const viewer = sessions[VIEWER];
    const dev = sessions[DEV];

    // Navigation: only what the role may open.
    const viewerApps = await get('/portal/apps', viewer).expect(200);
    expect(viewerApps.text).not.toContain('href="/portal/service-accounts"');
    expect(viewerApps.text).toContain('href="/portal/members"');
    expect(viewerApps.text).toContain('href="/portal/audit-log"');
    expect((await get('/portal/apps', owner.cookie)).text).toContain('href="/portal/service-accounts"');

    // A viewer: refused creating an app, service accounts, inviting; the 403 page names the role and what it lacks.
    const createApp = await post('/portal/apps', viewer, { name: 'viewer app' });
    expect(createApp.status).toBe(403);
    expect(createApp.text).toContain('Your role, viewer, does not allow creating and changing apps, landing pages and domains (apps:write)');
    expect((await get('/portal/service-accounts', viewer)).status).toBe(403);
    expect((await post('/portal/members/invitations', viewer, { email: 'x@team.test', role: 'viewer' })).status).toBe(403);
    expect((await get('/portal/members', viewer).expect(200)).text).not.toContain('Invite a member');

    // A viewer's key: read scopes only (the form offers no other; one asked for anyway is refused).
    const keysPage = await get('/portal/api-keys', viewer).expect(200);
    expect(keysPage.text).toContain('value="apps:read"');
    expect(keysPage.text).not.toContain('value="apps:write"');
    const tooMuch = await post('/portal/api-keys', viewer, { name: 'viewer write', scopes: ['apps:read', 'apps:write'] });
    expect(tooMuch.status).toBe(403);
    expect(tooMuch.text).toContain('The role viewer does not allow apps:write');
    const viewerKey = /id="new-key" readonly value="([^"]+)"/.exec(
      (await post('/portal/api-keys', viewer, { name: 'viewer read', scopes: 'apps:read' })).text,
    )![1];
    await app.http().get('/v1/apps').set('authorization', `Bearer ${viewerKey}`).expect(200);
    const refused = await app.http().post('/v1/apps').set('authorization', `Bearer ${viewerKey}`).send({ name: 'nope' }).expect(403);
    expect(refused.body.reason).toBe('missing_scope');

    // A developer: creates and deploys an app; refused members and service accounts; keys up to its role.
    const created = await post('/portal/apps', dev, { name: 'dev app' });
    expect(created.status).toBe(303);
    const appId = created.headers.location.split('/').pop()!;
    const deployed = await post(`/portal/apps/${appId}/deploy`, dev, { env: 'production' });
    expect(deployed.status).toBe(303);
    expect(await app.query(`SELECT count(*)::int AS n FROM deployments WHERE app_id = $1`, [appId])).toEqual([{ n: 1 }]);
    const invite = await post('/portal/members/invitations', dev, { email: 'y@team.test', role: 'viewer' });
    expect(invite.status).toBe(403);
    expect(invite.text).toContain('Your role, developer, does not allow inviting, changing and removing members (members:write)');
    expect((await get('/portal/service-accounts', dev)).text).toContain('(keys:write)');
    expect((await get('/portal/apps', dev)).text).not.toContain('href="/portal/service-accounts"');
    const devKey = /id="new-key" readonly value="([^"]+)"/.exec(
      (await post('/portal/api-keys', dev, { name: 'dev deploy', scopes: ['apps:read', 'apps:write', 'deployments:write'] })).text,
    )![1];
    await app.http().post('/v1/apps').set('authorization', `Bearer ${devKey}`).send({ name: 'dev api app' }).expect(201);
    expect((await app.http().get('/v1/members').set('authorization', `Bearer ${devKey}`).expect(403)).body.reason).toBe('missing_scope');
    // A developer sees and revokes its own keys only; the owner sees every key.
    const devKeys = await get('/portal/api-keys', dev).expect(200);
    expect(devKeys.text).toContain('dev deploy');
    expect(devKeys.text).not.toContain('viewer read');
    expect((await get('/portal/api-keys', owner.cookie)).text).toContain('viewer read');
    const viewerKeyId = (await app.query<{ id: string }>(`SELECT id FROM api_keys WHERE name = 'viewer read'`))[0].id;
    expect((await post(`/portal/api-keys/${viewerKeyId}/revoke`, dev, {})).status).toBe(303);
    expect(await app.query(`SELECT revoked_at IS NULL AS active FROM api_keys WHERE id = $1`, [viewerKeyId])).toEqual([{ active: true }]);
    expect(await auditCount('api_key.revoked', viewerKeyId)).toBe(0);
  });

  it('changes a role and removes a member from the members page, one audit entry each; the last owner stays', async () => {
    const viewerId = (await memberId(VIEWER))!;
    const page = await get('/portal/members', owner.cookie).expect(200);
    expect(page.text).toContain(VIEWER);
    expect((await post(`/portal/members/${viewerId}/role`, owner.cookie, { role: 'developer' })).status).toBe(303);
    expect(await app.query(`SELECT role FROM members WHERE id = $1`, [viewerId])).toEqual([{ role: 'developer' }]);
    expect(await auditCount('member.role_changed', viewerId)).toBe(1);
    expect((await post('/portal/apps', sessions[VIEWER], { name: 'now allowed' })).status).toBe(303);

    const ownerId = (await memberId(OWNER))!;
    const last = await post(`/portal/members/${ownerId}/remove`, owner.cookie, {});
    expect(last.status).toBe(409);
    expect(last.text).toContain('at least one owner');

    expect((await post(`/portal/members/${viewerId}/remove`, owner.cookie, {})).status).toBe(303);
    expect(await memberId(VIEWER)).toBeUndefined();
    expect(await alive(sessions[VIEWER])).toBe(false);
    expect(await auditCount('member.removed', viewerId)).toBe(1);
  });

  it('shows the audit log filtered and paged, and exports the filtered entries as a CSV safe to open in a spreadsheet', async () => {
    // A member whose e-mail a spreadsheet would run as a formula.
    const formula = '=1+2@team.test';
    await inviteAndJoin(formula, 'viewer', 'a formula passphrase');
    const joined = await app.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE account_id = $1 AND action = 'member.joined'`, [
      owner.accountId,
    ]);
    const page = await get('/portal/audit-log?action=member.joined', owner.cookie).expect(200);
    expect(page.text.match(/<code>member\.joined<\/code><\/th>/g)?.length).toBe(joined[0].n);
    expect(page.text).not.toContain('<code>member.invited</code></th>');
    expect(page.text).toContain('href="/portal/audit-log.csv?action=member.joined"');

    const csv = await get('/portal/audit-log.csv?action=member.joined', owner.cookie).expect(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(csv.headers['cache-control']).toBe('no-store');
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,at,actor_type,actor_id,actor_label,action,target_type,target_id,ip');
    expect(lines).toHaveLength(joined[0].n + 1);
    expect(lines.every((l, i) => i === 0 || l.includes(',member.joined,member,'))).toBe(true);
    const formulaLine = lines.find((l) => l.includes('1+2@team.test'))!;
    expect(formulaLine.split(',')[4]).toBe("'=1+2@team.test");

    // Filters by actor and time; a bad one is said on the page.
    const devId = (await memberId(DEV))!;
    const byActor = (await get(`/portal/audit-log.csv?actor=${devId}`, owner.cookie).expect(200)).text.trimEnd().split('\r\n');
    expect(byActor.length).toBeGreaterThan(1);
    expect(byActor.slice(1).every((l) => l.split(',')[3] === devId)).toBe(true);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await get(`/portal/audit-log.csv?from=${tomorrow}`, owner.cookie).expect(200)).text.trimEnd().split('\r\n')).toHaveLength(1);
    const bad = await get('/portal/audit-log?from=yesterday', owner.cookie);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('from must be an ISO 8601 date-time');
  });

  it('enrols in MFA with a server-drawn QR code, then signs in with a code: a reused code refused, a recovery code once', async () => {
    const ownerId = (await memberId(OWNER))!;
    // Changing two-factor sign-in needs the password typed within 5 minutes (sudo mode): this session may be older.
    const confirmPassword = async () =>
      expect((await post('/portal/account/confirm-password', owner.cookie, { password: PORTAL_PASSWORD, return: '/portal/account/mfa' })).status).toBe(303);
    await confirmPassword();
    const started = await post('/portal/account/mfa/start', owner.cookie, {});
    expect(started.status).toBe(200);
    expect(started.headers['cache-control']).toBe('no-store');
    expect(started.text).toMatch(/<div class="qr" role="img"[^>]*><svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const secret = /<code id="mfa-secret">([A-Z2-7]+)<\/code>/.exec(started.text)![1];
    const wrong = await post('/portal/account/mfa/confirm', owner.cookie, { code: '000000' === codeAt(secret, Date.now()) ? '111111' : '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain(secret);
    const now = Date.now();
    const confirmed = await post('/portal/account/mfa/confirm', owner.cookie, { code: codeAt(secret, now) });
    expect(confirmed.status).toBe(200);
    const codes = [...confirmed.text.matchAll(/<li><code>([a-z0-9]{5}-[a-z0-9]{5})<\/code><\/li>/g)].map((m) => m[1]);
    expect(codes).toHaveLength(10);
    expect(await auditCount('mfa.enrolled', ownerId)).toBe(1);
    expect(await app.query(`SELECT count(*)::int AS n FROM member_recovery_codes WHERE member_id = $1 AND code_hash = ANY($2)`, [ownerId, codes])).toEqual([
      { n: 0 },
    ]);

    /** The password step (no session yet), then the code: the code step's answer. */
    const withCode = async (code: string) => {
      const sessionsBefore = await app.query<{ n: number }>(`SELECT count(*)::int AS n FROM portal_sessions WHERE member_id = $1`, [ownerId]);
      const password = await signIn(OWNER, PORTAL_PASSWORD);
      expect(password.status).toBe(303);
      expect(password.headers.location).toBe('/portal/login/code');
      expect(cookieOf(password, 'portal_session')).toBeUndefined();
      expect(await app.query(`SELECT count(*)::int AS n FROM portal_sessions WHERE member_id = $1`, [ownerId])).toEqual(sessionsBefore);
      const ticket = cookieOf(password, 'portal_mfa')!;
      const form = await app.http().get('/portal/login/code').set('cookie', ticket).expect(200);
      const pre = cookieOf(form, 'portal_pre')!;
      return app
        .http()
        .post('/portal/login/code')
        .set('cookie', `${ticket}; ${pre}`)
        .type('form')
        .send({ _csrf: csrfOf(form.text), code });
    };
    const failedBefore = await auditCount('sign_in.failed', ownerId);
    const next = codeAt(secret, now + 30_000);
    const first = await withCode(next);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/portal/');
    expect(await alive(cookieOf(first, 'portal_session')!)).toBe(true);
    const reused = await withCode(next);
    expect(reused.status).toBe(401);
    expect(reused.text).toContain('That code is not valid');
    expect(cookieOf(reused, 'portal_session')).toBeUndefined();
    expect((await withCode(codes[0])).status).toBe(303);
    expect((await withCode(codes[0])).status).toBe(401);
    expect(await auditCount('sign_in.failed', ownerId)).toBe(failedBefore + 2);
    // Without the ticket, the code page is not there.
    expect((await app.http().get('/portal/login/code')).headers.location).toBe('/portal/login');

    // Turning it off takes a code; one entry in the audit log.
    await confirmPassword();
    expect((await post('/portal/account/mfa/remove', owner.cookie, { code: '123' })).status).toBe(400);
    expect((await post('/portal/account/mfa/remove', owner.cookie, { code: codes[1] })).status).toBe(303);
    expect(await auditCount('mfa.removed', ownerId)).toBe(1);
    expect((await signIn(OWNER, PORTAL_PASSWORD)).headers.location).toBe('/portal/');
  });

  it('sends members without MFA to enrolment when the owner requires it; only an owner sets that', async () => {
    const dev = sessions[DEV];
    expect((await post('/portal/account/mfa/required', dev, { required: 'on' })).status).toBe(403);
    expect((await post('/portal/account/mfa/required', owner.cookie, { required: 'on' })).status).toBe(303);
    expect(await app.query(`SELECT mfa_required FROM account_security WHERE account_id = $1`, [owner.accountId])).toEqual([{ mfa_required: true }]);
    const overview = await get('/portal/', dev);
    expect(overview.status).toBe(303);
    expect(overview.headers.location).toBe('/portal/account/mfa');
    expect((await get('/portal/apps', dev)).headers.location).toBe('/portal/account/mfa');
    const page = await get('/portal/account/mfa', dev).expect(200);
    expect(page.text).toContain('This account requires two-factor sign-in for every member');
    expect((await post('/portal/account/mfa/required', owner.cookie, {})).status).toBe(303);
    expect((await get('/portal/apps', dev)).status).toBe(200);
  });

  it('migration 1764000000000 moves an account password to its login member, and an open reset link with it', async () => {
    const ownerId = (await memberId(OWNER))!;
    const [{ hash }] = await app.query<{ hash: string }>(`SELECT hash FROM portal_passwords WHERE member_id = $1`, [ownerId]);
    const migration = new MemberPasswords1764000000000();
    const runner = app.server.app.get(DataSource).createQueryRunner();
    try {
      // Back to passwords per account, with a reset link of that shape open; then forward again.
      await migration.down(runner);
      // (The runner holds the embedded database's one connection meanwhile: every query goes through it.)
      expect(await runner.query(`SELECT hash FROM portal_passwords WHERE account_id = $1`, [owner.accountId])).toEqual([{ hash }]);
      await runner.query(`INSERT INTO portal_password_resets (token_hash, account_id, expires_at) VALUES ('old-shape', $1, now() + interval '1 hour')`, [
        owner.accountId,
      ]);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    expect(await app.query(`SELECT member_id, hash FROM portal_passwords WHERE account_id = $1`, [owner.accountId])).toEqual([{ member_id: ownerId, hash }]);
    expect(await app.query(`SELECT member_id FROM portal_password_resets WHERE token_hash = 'old-shape'`)).toEqual([{ member_id: ownerId }]);
    expect((await signIn(OWNER, PORTAL_PASSWORD)).status).toBe(303);
  });
});

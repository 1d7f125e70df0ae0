import { createHash } from 'node:crypto';
import { Mailer } from '../src/mail/mailer.js';
import { NO_RATE_LIMIT } from './support/api-client.js';
import { type ChildServer, startChildServer } from './support/child-server.js';
import { csrfOf, PORTAL_PASSWORD, portalSession as newSession, secretLinkLogLines } from './support/portal-session.js';
import { SmtpTestServer } from './support/smtp-server.js';
import { ADMIN_TOKEN, dropFreshResources, freshEnvironment, startTestApp, target, TestApp } from './support/test-app.js';

const NEW_PASSWORD = 'a brand new passphrase';
/** PUBLIC_URL of the app under test: not the address the tests reach it at, so a link built from the request's Host shows. */
const PUBLIC_URL = 'https://portal.example.test';
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const cookiePair = (setCookie: string | string[] | undefined, name: string) =>
  ([] as string[])
    .concat(setCookie ?? [])
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0];

describe(`portal accounts: invite re-issued, password changed, sessions ended, reset by e-mail (${target})`, () => {
  let app: TestApp;
  let smtp: SmtpTestServer;
  let lastIp = 0;
  /** A client address of its own (TRUST_PROXY trusts the test's X-Forwarded-For), for the per-IP limit. */
  const freshIp = () => `10.1.${Math.floor(++lastIp / 250)}.${(lastIp % 250) + 1}`;

  beforeAll(async () => {
    smtp = await SmtpTestServer.start();
    app = await startTestApp({
      env: {
        ...NO_RATE_LIMIT,
        RATE_LIMIT_SIGN_IN_MAX: '20',
        TRUST_PROXY: '127.0.0.1',
        PUBLIC_URL,
        SMTP_URL: smtp.url,
        SMTP_FROM: 'Platform <no-reply@example.test>',
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.stop();
  });

  const mailer = () => app.server.app.get(Mailer);
  const portalSession = (on: TestApp, email: string) => newSession(on, email, { 'x-forwarded-for': freshIp() });
  /** The path of a URL built on PUBLIC_URL (the tests reach the app on 127.0.0.1). */
  const pathOf = (url: string) => {
    expect(url.startsWith(`${PUBLIC_URL}/portal/`)).toBe(true);
    return new URL(url).pathname;
  };
  const sessionsOf = async (accountId: string) =>
    (await app.query<{ n: number }>(`SELECT count(*)::int AS n FROM portal_sessions WHERE account_id = $1`, [accountId]))[0].n;
  const passwordHashOf = async (accountId: string) =>
    (await app.query<{ hash: string }>(`SELECT hash FROM portal_passwords WHERE account_id = $1`, [accountId]))[0]?.hash;
  const isSignedIn = async (cookie: string) => (await app.http().get('/portal/account').set('cookie', cookie)).status === 200;

  const postPasswordChange = (cookie: string, form: Record<string, string>) =>
    app.http().post('/portal/account/password').set('cookie', cookie).type('form').send(form);

  /** Signs in through the login form; answers the session cookie, or the status when refused. */
  async function signIn(email: string, password: string, ip = freshIp()): Promise<{ status: number; cookie?: string }> {
    const form = await app.http().get('/portal/login').set('x-forwarded-for', ip).expect(200);
    const res = await app
      .http()
      .post('/portal/login')
      .set({ cookie: cookiePair(form.headers['set-cookie'], 'portal_pre')!, 'x-forwarded-for': ip })
      .type('form')
      .send({ _csrf: csrfOf(form.text), email, password });
    return { status: res.status, cookie: cookiePair(res.headers['set-cookie'], 'portal_session') };
  }

  /** Asks for a reset link for `email` as a browser would (the form, then its post); answers the post's answer. */
  async function askReset(email: string, headers: Record<string, string> = {}) {
    const ip = freshIp();
    const form = await app
      .http()
      .get('/portal/forgot-password')
      .set({ 'x-forwarded-for': ip, ...headers })
      .expect(200);
    return app
      .http()
      .post('/portal/forgot-password')
      .set({ cookie: cookiePair(form.headers['set-cookie'], 'portal_pre')!, 'x-forwarded-for': ip, ...headers })
      .type('form')
      .send({ _csrf: csrfOf(form.text), email });
  }

  /** The reset link of the next e-mail to `email`. */
  async function resetLinkTo(email: string): Promise<string> {
    const mail = await smtp.nextTo(email);
    const link = /https?:\/\/\S+\/portal\/reset-password\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    return link!;
  }

  /** Opens a reset link and posts a new password to it; answers the post's answer. */
  async function useResetLink(link: string, password: string, confirm = password) {
    const ip = freshIp();
    const path = pathOf(link);
    const page = await app.http().get(path).set('x-forwarded-for', ip);
    if (page.status !== 200) return page;
    return app
      .http()
      .post(path)
      .set({ cookie: cookiePair(page.headers['set-cookie'], 'portal_pre')!, 'x-forwarded-for': ip })
      .type('form')
      .send({ _csrf: csrfOf(page.text), password, confirm });
  }

  describe('POST /v1/admin/accounts/:accountId/invite', () => {
    it('re-issues the invite: a new link, the earlier unused ones end; setting a password through it ends the sessions', async () => {
      const session = await portalSession(app, 'reinvite@example.com');
      const created = await app
        .http()
        .post('/v1/admin/accounts')
        .set('authorization', `Bearer ${ADMIN_TOKEN}`)
        .send({ email: 'fresh@example.com' })
        .expect(201);
      const firstPath = pathOf((created.body as { portalInviteUrl: string }).portalInviteUrl);
      const freshId = (created.body as { accountId: string }).accountId;

      const res = await app.http().post(`/v1/admin/accounts/${freshId}/invite`).set('authorization', `Bearer ${ADMIN_TOKEN}`).expect(201);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(res.body as object)).toEqual(['portalInviteUrl']);
      const secondUrl = (res.body as { portalInviteUrl: string }).portalInviteUrl;
      expect(secondUrl).toMatch(new RegExp(`^${PUBLIC_URL}/portal/invite/[A-Za-z0-9_-]{32}$`));
      // The first link is gone, the new one opens; one open invite is stored, as a hash.
      const first = await app.http().get(firstPath).set('x-forwarded-for', freshIp());
      expect([first.status, first.text.includes('Invite not valid')]).toEqual([404, true]);
      await app.http().get(pathOf(secondUrl)).set('x-forwarded-for', freshIp()).expect(200);
      const token = secondUrl.split('/').pop()!;
      expect(await app.query(`SELECT token_hash FROM portal_invites WHERE account_id = $1 AND used_at IS NULL`, [freshId])).toEqual([
        { token_hash: sha256(token) },
      ]);

      // An account with a password and a session: the new invite sets a new password and ends the old session.
      const again = await app.http().post(`/v1/admin/accounts/${session.accountId}/invite`).set('authorization', `Bearer ${ADMIN_TOKEN}`).expect(201);
      const path = pathOf((again.body as { portalInviteUrl: string }).portalInviteUrl);
      const ip = freshIp();
      const invite = await app.http().get(path).set('x-forwarded-for', ip).expect(200);
      const accepted = await app
        .http()
        .post(path)
        .set({ cookie: cookiePair(invite.headers['set-cookie'], 'portal_pre')!, 'x-forwarded-for': ip })
        .type('form')
        .send({ _csrf: csrfOf(invite.text), password: NEW_PASSWORD, confirm: NEW_PASSWORD })
        .expect(303);
      expect(await isSignedIn(session.cookie)).toBe(false);
      expect(await isSignedIn(cookiePair(accepted.headers['set-cookie'], 'portal_session')!)).toBe(true);
      expect(await sessionsOf(session.accountId)).toBe(1);
    });

    it('answers 404 in the envelope for an unknown account, 401 without the admin token', async () => {
      const missing = await app.http().post('/v1/admin/accounts/acc_nope/invite').set('authorization', `Bearer ${ADMIN_TOKEN}`).expect(404);
      expect(missing.body).toMatchObject({ error: true, code: 404, reason: 'account_not_found', message: 'Account acc_nope not found' });
      expect(await app.query(`SELECT count(*)::int AS n FROM portal_invites WHERE account_id = 'acc_nope'`)).toEqual([{ n: 0 }]);
      const anonymous = await app.http().post('/v1/admin/accounts/acc_nope/invite').expect(401);
      expect(anonymous.body).toMatchObject({ error: true, code: 401 });
    });
  });

  describe('change password and sign out everywhere', () => {
    it('checks the current password (error beside the field), the rules of a new one, and CSRF', async () => {
      const session = await portalSession(app, 'checks@example.com');
      const hash = await passwordHashOf(session.accountId);
      const post = (form: Record<string, string>) => postPasswordChange(session.cookie, form);

      const wrong = await post({ _csrf: session.csrf, current: 'not my password', password: NEW_PASSWORD, confirm: NEW_PASSWORD });
      expect(wrong.status).toBe(400);
      expect(wrong.headers['content-security-policy']).toContain("default-src 'none'");
      expect(wrong.text).toMatch(/id="current"[^>]*aria-invalid="true" aria-describedby="current-error"/);
      expect(wrong.text).toContain('<p class="error" id="current-error">That is not your current password.</p>');

      const short = await post({ _csrf: session.csrf, current: PORTAL_PASSWORD, password: 'short', confirm: 'short' });
      expect(short.status).toBe(400);
      expect(short.text).toContain('<p class="error" id="password-error">The password must be at least 12 characters long.</p>');
      const differ = await post({ _csrf: session.csrf, current: PORTAL_PASSWORD, password: NEW_PASSWORD, confirm: `${NEW_PASSWORD}!` });
      expect(differ.text).toContain('<p class="error" id="confirm-error">The two passwords differ.</p>');
      const repeated = await app
        .http()
        .post('/portal/account/password')
        .set('cookie', session.cookie)
        .type('form')
        .send(
          `_csrf=${encodeURIComponent(session.csrf)}&current=a&current=b&password=${encodeURIComponent(NEW_PASSWORD)}&confirm=${encodeURIComponent(NEW_PASSWORD)}`,
        );
      expect(repeated.status).toBe(400);
      expect(repeated.text).toContain('id="current-error"');

      const forged = await post({ current: PORTAL_PASSWORD, password: NEW_PASSWORD, confirm: NEW_PASSWORD });
      expect([forged.status, forged.text.includes('Form expired')]).toEqual([403, true]);
      const signedOut = await app.http().post('/portal/account/password').type('form').send({ current: PORTAL_PASSWORD });
      expect([signedOut.status, signedOut.headers.location]).toEqual([303, '/portal/login']);
      expect(await passwordHashOf(session.accountId)).toBe(hash);
      expect(await isSignedIn(session.cookie)).toBe(true);
    });

    it('locks after 5 wrong current passwords, like the sign-in: on the network they came from', async () => {
      const session = await portalSession(app, 'guessing@example.com');
      const post = (current: string) => postPasswordChange(session.cookie, { _csrf: session.csrf, current, password: NEW_PASSWORD, confirm: NEW_PASSWORD });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await post(`guess ${i}`)).status);
      expect(statuses).toEqual([400, 400, 400, 400, 429]);
      const locked = await post(PORTAL_PASSWORD);
      expect(locked.status).toBe(429);
      expect(locked.text).toContain('locked for 15 minutes');
      // The guesses came from 127.0.0.1 (no X-Forwarded-For): the sign-in waits there, and not on another network.
      expect((await signIn('guessing@example.com', PORTAL_PASSWORD, '127.0.0.9')).status).toBe(429);
      expect((await signIn('guessing@example.com', PORTAL_PASSWORD)).status).toBe(303);
    });

    it('changes the password, signing out the login’s other sessions and keeping this one', async () => {
      const session = await portalSession(app, 'changer@example.com');
      const other = await signIn('changer@example.com', PORTAL_PASSWORD);
      expect(other.status).toBe(303);
      expect(await sessionsOf(session.accountId)).toBe(2);
      const page = await app.http().get('/portal/account').set('cookie', session.cookie).expect(200);
      expect(page.text).toContain('changer@example.com');
      expect(page.text).toContain('You have 2 open sessions, this one included.');

      const changed = await postPasswordChange(session.cookie, {
        _csrf: csrfOf(page.text),
        current: PORTAL_PASSWORD,
        password: NEW_PASSWORD,
        confirm: NEW_PASSWORD,
      });
      expect([changed.status, changed.headers.location]).toEqual([303, '/portal/account?done=password']);
      const after = await app.http().get('/portal/account?done=password').set('cookie', session.cookie).expect(200);
      expect(after.text).toContain('Your password was changed, and your other sessions were signed out.');
      expect(after.text).toContain('This is your only open session.');
      expect(await isSignedIn(other.cookie!)).toBe(false);
      expect(await sessionsOf(session.accountId)).toBe(1);
      expect((await passwordHashOf(session.accountId))?.startsWith('scrypt$')).toBe(true);
      expect((await signIn('changer@example.com', PORTAL_PASSWORD)).status).toBe(401);
      expect((await signIn('changer@example.com', NEW_PASSWORD)).status).toBe(303);
    });

    it('signs out everywhere: every session of the login ends, this one included', async () => {
      const session = await portalSession(app, 'everywhere@example.com');
      const other = await signIn('everywhere@example.com', PORTAL_PASSWORD);
      const bystander = await portalSession(app, 'bystander@example.com');
      const forged = await app.http().post('/portal/account/sign-out-everywhere').set('cookie', session.cookie).type('form').send({});
      expect(forged.status).toBe(403);
      expect(await sessionsOf(session.accountId)).toBe(2);

      const res = await app.http().post('/portal/account/sign-out-everywhere').set('cookie', session.cookie).type('form').send({ _csrf: session.csrf });
      expect([res.status, res.headers.location]).toEqual([303, '/portal/login']);
      expect(String(res.headers['set-cookie'])).toMatch(/^portal_session=; Path=\/portal; HttpOnly; SameSite=Lax.*Max-Age=0/);
      expect(await sessionsOf(session.accountId)).toBe(0);
      expect(await isSignedIn(session.cookie)).toBe(false);
      expect(await isSignedIn(other.cookie!)).toBe(false);
      expect(await isSignedIn(bystander.cookie)).toBe(true);
    });
  });

  describe('password reset by e-mail', () => {
    it('e-mails a link built on PUBLIC_URL (whatever the Host), stores only its hash, and answers alike for an unknown address', async () => {
      const session = await portalSession(app, 'resetter@example.com');
      const known = await askReset('Resetter@Example.com', { host: 'evil.example' });
      const unknown = await askReset('nobody-here@example.com', { host: 'evil.example' });
      for (const res of [known, unknown]) {
        expect([res.status, res.headers.location, res.text]).toEqual([303, '/portal/forgot-password/sent', known.text]);
      }
      const sent = await app.http().get('/portal/forgot-password/sent').expect(200);
      expect(sent.text).toContain('If an account signs in with that address, a link to set a new password is on its way to it.');

      const mail = await smtp.nextTo('resetter@example.com');
      await mailer().drain();
      expect(smtp.to('nobody-here@example.com')).toEqual([]);
      expect(mail.envelope).toEqual({ from: 'no-reply@example.test', to: ['resetter@example.com'] });
      expect(mail.headers.from).toBe('Platform <no-reply@example.test>');
      expect(mail.headers.to).toBe('resetter@example.com');
      expect(mail.subject).toBe('Reset your developer portal password');
      const link = /\S+\/portal\/reset-password\/\S+/.exec(mail.text)![0];
      expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/portal/reset-password/[A-Za-z0-9_-]{43}$`));
      expect(mail.text).toContain('works once, within 1 hour');
      expect(mail.html).toContain(`<a href="${link}">Set a new password</a>`);
      expect(mail.raw).not.toContain('evil.example');
      const token = link.split('/').pop()!;
      const rows = await app.query<{ token_hash: string; used_at: Date | null; ttl: number }>(
        `SELECT token_hash, used_at, round(extract(epoch FROM expires_at - created_at))::int AS ttl FROM portal_password_resets WHERE account_id = $1`,
        [session.accountId],
      );
      expect(rows).toEqual([{ token_hash: sha256(token), used_at: null, ttl: 3600 }]);

      // The link's page, then a new password: every session ends, the link is used up.
      const mismatch = await useResetLink(link, NEW_PASSWORD, 'something else entirely');
      expect(mismatch.status).toBe(400);
      expect(mismatch.text).toContain('<p class="error" id="confirm-error">The two passwords differ.</p>');
      const done = await useResetLink(link, NEW_PASSWORD);
      expect([done.status, done.headers.location]).toEqual([303, '/portal/reset-password/done']);
      expect(String(done.headers['set-cookie'])).toContain('portal_session=; Path=/portal');
      expect(await sessionsOf(session.accountId)).toBe(0);
      expect(await isSignedIn(session.cookie)).toBe(false);
      expect((await app.http().get('/portal/reset-password/done').expect(200)).text).toContain('every session of your login was signed out');
      expect(await app.query(`SELECT used_at IS NOT NULL AS used FROM portal_password_resets WHERE token_hash = $1`, [sha256(token)])).toEqual([
        { used: true },
      ]);
      expect((await signIn('resetter@example.com', PORTAL_PASSWORD)).status).toBe(401);
      expect((await signIn('resetter@example.com', NEW_PASSWORD)).status).toBe(303);

      // Used once: the link opens nothing any more, and sets nothing.
      const reused = await useResetLink(link, 'yet another long password');
      expect([reused.status, reused.text.includes('Link not valid')]).toEqual([404, true]);
      const hash = await passwordHashOf(session.accountId);
      const forcedIp = freshIp();
      const preForm = await app.http().get('/portal/forgot-password').set('x-forwarded-for', forcedIp);
      const forced = await app
        .http()
        .post(pathOf(link))
        .set({ cookie: cookiePair(preForm.headers['set-cookie'], 'portal_pre')!, 'x-forwarded-for': forcedIp })
        .type('form')
        .send({ _csrf: csrfOf(preForm.text), password: 'yet another long password', confirm: 'yet another long password' });
      expect(forced.status).toBe(404);
      expect(await passwordHashOf(session.accountId)).toBe(hash);
    });

    it('refuses an expired link, and a link opens only its own login; using one link (or changing the password) closes the others', async () => {
      const a = await portalSession(app, 'login-a@example.com');
      const b = await portalSession(app, 'login-b@example.com');
      expect((await askReset('login-a@example.com')).status).toBe(303);
      const expired = await resetLinkTo('login-a@example.com');
      await app.query(`UPDATE portal_password_resets SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [sha256(expired.split('/').pop()!)]);
      const stale = await useResetLink(expired, NEW_PASSWORD);
      expect([stale.status, stale.text.includes('Link not valid')]).toEqual([404, true]);

      expect((await askReset('login-a@example.com')).status).toBe(303);
      const linkA = await resetLinkTo('login-a@example.com');
      expect((await askReset('login-a@example.com')).status).toBe(303);
      const secondA = await resetLinkTo('login-a@example.com');
      expect((await askReset('login-b@example.com')).status).toBe(303);
      const linkB = await resetLinkTo('login-b@example.com');
      const hashB = await passwordHashOf(b.accountId);
      expect((await useResetLink(linkA, NEW_PASSWORD)).status).toBe(303);
      // A's link set A's password only: B's password and session stand, B's link still works.
      expect(await passwordHashOf(b.accountId)).toBe(hashB);
      expect(await isSignedIn(b.cookie)).toBe(true);
      expect(await isSignedIn(a.cookie)).toBe(false);
      expect((await useResetLink(secondA, 'another new passphrase')).status).toBe(404);
      // B changes the password while signed in: B's open link closes.
      const page = await app.http().get('/portal/account').set('cookie', b.cookie).expect(200);
      const changed = await postPasswordChange(b.cookie, { _csrf: csrfOf(page.text), current: PORTAL_PASSWORD, password: NEW_PASSWORD, confirm: NEW_PASSWORD });
      expect(changed.status).toBe(303);
      expect((await useResetLink(linkB, 'another new passphrase')).status).toBe(404);
    });

    it('refuses an address that is not one address (no header injection) and e-mails nothing for it', async () => {
      await portalSession(app, 'victim@example.com');
      for (const email of ['victim@example.com\r\nBcc: attacker@example.com', 'victim@example.com, attacker@example.com', 'not an address']) {
        const res = await askReset(email);
        expect(res.status).toBe(400);
        expect(res.text).toContain('<p class="error" id="email-error">Enter the e-mail address you sign in with.</p>');
      }
      await mailer().drain();
      expect(smtp.to('victim@example.com')).toEqual([]);
      expect(smtp.to('attacker@example.com')).toEqual([]);
      // The mailer itself sends to one plain address only, and a subject stays one line.
      expect(await mailer().send({ to: 'victim@example.com\r\nBcc: attacker@example.com', subject: 'x', text: 'x' })).toEqual({
        sent: false,
        reason: 'refused',
      });
      expect(await mailer().send({ to: 'victim@example.com', subject: 'Hello\r\nBcc: attacker@example.com', text: 'body' })).toEqual({ sent: true });
      const mail = await smtp.nextTo('victim@example.com');
      expect(mail.envelope.to).toEqual(['victim@example.com']);
      expect(mail.headers.bcc).toBeUndefined();
      expect(mail.subject).toBe('Hello Bcc: attacker@example.com');
      expect(smtp.to('attacker@example.com')).toEqual([]);
    });

    it('limits asks per address (3 in 15 minutes) and per client IP (the sign-in limit), known address or not', async () => {
      await portalSession(app, 'flooded@example.com');
      for (const email of ['flooded@example.com', 'unknown-flood@example.com']) {
        for (let i = 0; i < 3; i++) expect((await askReset(email)).status).toBe(303);
        const limited = await askReset(email);
        expect(limited.status).toBe(429);
        expect(limited.text).toContain('Too many reset links were asked for');
        expect(Number(limited.headers['retry-after'])).toBeGreaterThan(800);
      }
      await mailer().drain();
      expect(smtp.to('flooded@example.com')).toHaveLength(3);
      for (let i = 0; i < 3; i++) await smtp.nextTo('flooded@example.com');

      // One client: 20 tries of a credential a minute, reset links opened included.
      const ip = '203.0.113.33';
      const windowStart = Date.now();
      for (let i = 0; i < 20; i++) expect((await app.http().get(`/portal/reset-password/guess-${i}`).set('x-forwarded-for', ip)).status).toBe(404);
      const limited = await app.http().get('/portal/reset-password/guess-20').set('x-forwarded-for', ip);
      expect(limited.status).toBe(429);
      // Retry-After is what is left of the one-minute window the first try opened: 60 s, less the seconds the 21
      // requests took (more than one on a loaded machine).
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(retryAfter).toBeGreaterThanOrEqual(60 - Math.ceil((Date.now() - windowStart) / 1000));
      expect(limited.text).toContain('Too many sign-in attempts came from your network.');
    });

    it('answers the same page when the SMTP server fails (the failure is logged), and e-mails once it is back', async () => {
      await portalSession(app, 'outage@example.com');
      smtp.refuse = true;
      try {
        expect(await mailer().send({ to: 'outage@example.com', subject: 'x', text: 'x' })).toEqual({ sent: false, reason: 'failed' });
        const res = await askReset('outage@example.com');
        expect([res.status, res.headers.location]).toEqual([303, '/portal/forgot-password/sent']);
        await mailer().drain();
      } finally {
        smtp.refuse = false;
      }
      expect(smtp.to('outage@example.com')).toEqual([]);
      expect((await askReset('outage@example.com')).status).toBe(303);
      await resetLinkTo('outage@example.com');
    });
  });
});

describe(`portal accounts without SMTP_URL (${target})`, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: NO_RATE_LIMIT });
  });
  afterAll(async () => app?.close());

  it('says reset e-mails are not set up, whom to ask, and shows no form; a post answers 503', async () => {
    const page = await app.http().get('/portal/forgot-password').expect(200);
    expect(page.text).toContain('This server cannot send e-mail');
    expect(page.text).toContain('Ask your operator for a new invite link');
    expect(page.text).not.toContain('<form');
    // The login page links here.
    expect((await app.http().get('/portal/login').expect(200)).text).toContain('<a href="/portal/forgot-password">Forgot your password?</a>');
    const login = await app.http().get('/portal/login');
    const res = await app
      .http()
      .post('/portal/forgot-password')
      .set('cookie', cookiePair(login.headers['set-cookie'], 'portal_pre')!)
      .type('form')
      .send({ _csrf: csrfOf(login.text), email: 'someone@example.com' });
    expect(res.status).toBe(503);
    expect(res.text).toContain('This server cannot send e-mail');
    expect(await app.query(`SELECT count(*)::int AS n FROM portal_password_resets`)).toEqual([{ n: 0 }]);
    expect(app.server.app.get(Mailer).configured).toBe(false);
  });
});

// One server process for both links' tests: each `node dist/main.js` costs ~8 s of CPU (measured 2026-11-29), and the
// lines of each are told apart by their path (secretLinkLogLines).
describe(`request log of secret links: invites and reset links (${target})`, () => {
  let smtp: SmtpTestServer;
  let env: Record<string, string>;
  let server: ChildServer;

  beforeAll(async () => {
    smtp = await SmtpTestServer.start();
    env = { ...(await freshEnvironment()), SMTP_URL: smtp.url, SMTP_FROM: 'no-reply@example.test' };
    server = await startChildServer(env, 90_000);
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await dropFreshResources(env);
    await smtp?.stop();
  });

  it('writes the route pattern of an invite request, never its token', async () => {
    const created = await fetch(`${server.url}/v1/admin/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'logged@example.com' }),
    });
    const { portalInviteUrl } = (await created.json()) as { portalInviteUrl: string };
    const path = new URL(portalInviteUrl).pathname;
    const token = path.split('/').pop()!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await secretLinkLogLines(server, path)).toEqual([
      ['GET', '/portal/invite/:token', 200],
      ['GET', '/portal/invite/*', 200],
      ['POST', '/portal/invite/:token', 403],
    ]);
    expect(server.output()).not.toContain(token);
  });

  it('writes the route pattern of a reset link, never its token', async () => {
    await fetch(`${server.url}/v1/admin/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'logged-reset@example.com' }),
    });
    const form = await fetch(`${server.url}/portal/forgot-password`);
    const cookie = form.headers.get('set-cookie')!.split(';')[0];
    const asked = await fetch(`${server.url}/portal/forgot-password`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({ _csrf: csrfOf(await form.text()), email: 'logged-reset@example.com' }).toString(),
    });
    expect(asked.status).toBe(303);
    const mail = await smtp.nextTo('logged-reset@example.com');
    const path = new URL(/\S+\/portal\/reset-password\/\S+/.exec(mail.text)![0]).pathname;
    const token = path.split('/').pop()!;
    expect(await secretLinkLogLines(server, path)).toEqual([
      ['GET', '/portal/reset-password/:token', 200],
      ['GET', '/portal/reset-password/*', 200],
      ['POST', '/portal/reset-password/:token', 403],
    ]);
    expect(server.output()).not.toContain(token);
    expect(server.output()).not.toContain(smtp.url);
  });
});

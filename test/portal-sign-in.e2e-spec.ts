import { createHash } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { MfaService } from '../src/mfa/mfa.service.js';
import { PasswordHasher } from '../src/portal/password-hash.js';
import { Mailer } from '../src/mail/mailer.js';
import { PortalRepository } from '../src/portal/portal.repository.js';
import { NO_RATE_LIMIT } from './support/api-client.js';
import { csrfOf } from './support/portal-session.js';
import { SmtpTestServer } from './support/smtp-server.js';
import { ADMIN_TOKEN, startTestApp, target, TestApp } from './support/test-app.js';
import { until } from './support/webhook-receiver.js';

const PASSWORD = 'correct horse battery staple';

describe(`portal sign-in: lockout, per-IP limit, logs (${target})`, () => {
  let app: TestApp;
  /** A second instance on the same database and Redis (PostgreSQL only); closed last: closing it first breaks the first's connections. */
  let second: TestApp | undefined;
  /** Password verifications run (on every watched instance) since a test reset it, and a gate that holds them while set. */
  let verifications = 0;
  let gate: Promise<void> | undefined;
  let lastNetwork = 0;
  /**
   * A client address in a network of its own — a /24 no other call gave (TRUST_PROXY trusts the test's X-Forwarded-For) —
   * so neither the per-IP limit nor the lockout of another test's network is in the way.
   */
  const freshIp = () => {
    const n = ++lastNetwork;
    return `10.${Math.floor(n / 256)}.${n % 256}.7`;
  };
  /** Another address in the /24 of `ip`: the same network to the lockout, another client to the per-IP limit. */
  let lastHost = 10;
  const sameNetwork = (ip: string) => `${ip.split('.').slice(0, 3).join('.')}.${(++lastHost % 240) + 10}`;

  /** Counts the instance's password verifications in `verifications`, and holds them while `gate` is closed. */
  const watchVerifications = (instance: TestApp) => {
    const hasher = instance.server.app.get(PasswordHasher);
    const verify = hasher.verify.bind(hasher);
    hasher.verify = async (password, stored) => {
      verifications++;
      await gate;
      return verify(password, stored);
    };
  };

  beforeAll(async () => {
    // The per-IP limit as shipped (20), not NO_RATE_LIMIT's.
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, RATE_LIMIT_SIGN_IN_MAX: '20', TRUST_PROXY: '127.0.0.1' } });
    watchVerifications(app);
  });
  afterAll(async () => {
    await app.close();
    await second?.close();
  });

  /** The login form's CSRF token and the cookie it is bound to (showing the form counts against no limit). */
  const loginForm = async () => {
    const res = await app.http().get('/portal/login').set('x-forwarded-for', freshIp()).expect(200);
    return { csrf: /name="_csrf" value="([^"]+)"/.exec(res.text)![1], cookie: String(res.headers['set-cookie']).split(';')[0] };
  };
  const signIn = (form: { csrf: string; cookie: string }, email: string, password: string, ip = freshIp(), on = app) =>
    on.http().post('/portal/login').set({ cookie: form.cookie, 'x-forwarded-for': ip }).type('form').send({ _csrf: form.csrf, email, password });
  /** A new account whose owner set PASSWORD through the invite, from `ip`: a network the e-mail has signed in from. */
  const invited = async (email: string, ip = freshIp()) => {
    const account = (await app.http().post('/v1/admin/accounts').set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ email }).expect(201)).body as {
      accountId: string;
      portalInviteUrl: string;
    };
    const path = new URL(account.portalInviteUrl).pathname;
    const page = await app.http().get(path).set('x-forwarded-for', ip).expect(200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
    const cookie = String(page.headers['set-cookie']).split(';')[0];
    await app.http().post(path).set({ cookie, 'x-forwarded-for': ip }).type('form').send({ _csrf: csrf, password: PASSWORD, confirm: PASSWORD }).expect(303);
    return { ...account, ip };
  };
  /** A new account whose owner (password PASSWORD) has MFA on: its recovery codes. */
  const invitedWithMfa = async (name: string) => {
    const email = `mfa-${name}-${Date.now()}@example.com`;
    const { accountId } = await invited(email);
    const [member] = await app.query<{ id: string }>('SELECT id FROM members WHERE account_id = $1', [accountId]);
    const mfa = app.server.app.get(MfaService);
    const enrolment = await mfa.start(member.id, email);
    const code = new TOTP({ secret: Secret.fromBase32(enrolment.secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() });
    const recovery = await mfa.confirm(accountId, { type: 'member', id: member.id, label: email, ip: null }, member.id, code);
    return { email, accountId, member, recovery };
  };
  const sessionsOf = async (accountId: string) =>
    (await app.query<{ n: number }>(`SELECT count(*)::int AS n FROM portal_sessions WHERE account_id = $1`, [accountId]))[0].n;

  /**
   * 39 wrong guesses at once (spread over `instances`), each from its own address — all in one network, or each in a network
   * of its own (a botnet) — then the right password while they are verified: from a network that has not failed, and from
   * the network the owner signed in from (the invite's).
   */
  async function parallelGuesses(
    email: string,
    instances: TestApp[],
    spread: 'one network' | 'many networks',
  ): Promise<{ form: { csrf: string; cookie: string }; sessions: number; accountId: string; guessIp: string; ownIp: string }> {
    const account = await invited(email);
    const sessions = await sessionsOf(account.accountId);
    const form = await loginForm();
    const guessIp = freshIp();
    const ipOf = () => (spread === 'one network' ? sameNetwork(guessIp) : freshIp());
    // One network: its 5 attempts. Many: 20, the e-mail's attempts from networks it has not signed in from in an hour.
    const verified = spread === 'one network' ? 5 : 20;
    verifications = 0;
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const answers: number[] = [];
    let guesses: Array<Promise<number>>;
    try {
      guesses = Array.from({ length: 39 }, (_, i) =>
        signIn(form, email, 'not the password', ipOf(), instances[i % instances.length]).then((res) => answers.push(res.status)),
      );
      // Their verifications are held at the gate: `verified` start, the others are refused before any.
      await until(() => verifications + answers.length >= 39, 30_000, 'every guess verifying or answered');
      expect(verifications).toBe(verified);
      expect(answers).toEqual(Array(39 - verified).fill(429));
      // The right password, while the wrong ones are still being verified, from where they came: refused without a verification.
      const right = await signIn(form, email, PASSWORD, ipOf());
      expect(right.status).toBe(429);
      expect(right.text).toContain(spread === 'one network' ? 'locked for 15 minutes' : 'from networks it has not signed in from');
      // This server cannot e-mail: the page says the lock ends by itself, and promises no link.
      expect(right.text).toContain('The lock ends by itself.');
      expect(right.text).not.toContain('on its way');
      expect(verifications).toBe(verified);
    } finally {
      open();
      gate = undefined;
    }
    await Promise.all(guesses);
    // Attempts but the last counted are wrong passwords (401); the last counted locks (429); the rest were refused before any check.
    expect(answers.filter((s) => s === 401)).toHaveLength(verified - 1);
    expect(answers.filter((s) => s === 429)).toHaveLength(39 - verified + 1);
    expect(await sessionsOf(account.accountId)).toBe(sessions);
    expect((await signIn(form, email, PASSWORD, ipOf())).status).toBe(429);
    expect(verifications).toBe(verified);
    // The owner, with the right password, on the network they signed in from: in, whatever the guesses elsewhere.
    expect((await signIn(form, email, PASSWORD, sameNetwork(account.ip))).status).toBe(303);
    expect(await sessionsOf(account.accountId)).toBe(sessions + 1);
    return { form, sessions: sessions + 1, accountId: account.accountId, guessIp, ownIp: account.ip };
  }

  it('locks an e-mail per network: parallel guesses from one network verify 5 at most, the right password waits there, and gets in at once from a network that has not failed', async () => {
    const email = 'parallel@example.com';
    const { form, sessions, accountId, guessIp } = await parallelGuesses(email, [app], 'one network');
    // A network that has not failed, and that the e-mail never signed in from: in at once (L1: nobody locks the owner out).
    expect((await signIn(form, email, PASSWORD, freshIp())).status).toBe(303);
    expect(await sessionsOf(accountId)).toBe(sessions + 1);
    const emailHash = createHash('sha256').update(email).digest('hex');
    const network = `${guessIp.split('.').slice(0, 3).join('.')}.0/24`;
    expect(
      await app.query(`SELECT network, cardinality(attempted_at) AS n FROM portal_sign_in_attempts WHERE email_hash = $1 ORDER BY network`, [emailHash]),
    ).toEqual([
      // The e-mail-wide count of networks it has not signed in from holds the guesses' 5 (the successes' networks started theirs again).
      { network: '', n: 6 },
      { network, n: 5 },
    ]);

    // 15 minutes after the attempts the network opens again; a success there clears its count.
    await app.query(`UPDATE portal_sign_in_attempts SET attempted_at = array(SELECT t - interval '15 minutes 1 second' FROM unnest(attempted_at) t)`);
    for (let i = 0; i < 4; i++) expect((await signIn(form, email, 'not the password', sameNetwork(guessIp))).status).toBe(401);
    expect((await signIn(form, email, PASSWORD, sameNetwork(guessIp))).status).toBe(303);
    expect((await signIn(form, email, 'not the password', sameNetwork(guessIp))).status).toBe(401);
    expect(
      await app.query(`SELECT cardinality(attempted_at) AS n FROM portal_sign_in_attempts WHERE email_hash = $1 AND network = $2`, [emailHash, network]),
    ).toEqual([{ n: 1 }]);
  });

  it('slows a botnet: guesses from many networks verify 20 an hour in all; the owner still gets in from a network they signed in from, and from a new one once the hour is over', async () => {
    const email = 'botnet@example.com';
    const { form, sessions, accountId } = await parallelGuesses(email, [app], 'many networks');
    // A new network is held back while the hour lasts…
    const newcomer = freshIp();
    const held = await signIn(form, email, PASSWORD, newcomer);
    expect([held.status, held.text.includes('Networks it signed in from before are not held back.')]).toEqual([429, true]);
    // … and gets in once the e-mail-wide count's attempts are an hour old.
    await app.query(
      `UPDATE portal_sign_in_attempts SET attempted_at = array(SELECT t - interval '1 hour 1 second' FROM unnest(attempted_at) t) WHERE network = ''`,
    );
    expect((await signIn(form, email, PASSWORD, sameNetwork(newcomer))).status).toBe(303);
    expect(await sessionsOf(accountId)).toBe(sessions + 1);
    const actions = await app.query<{ action: string; n: number }>(
      `SELECT action, count(*)::int AS n FROM audit_log WHERE account_id = $1 AND action LIKE 'sign_in.%' GROUP BY action ORDER BY action`,
      [accountId],
    );
    // The invite's sign-in and three since; 19 wrong passwords; 20 locked (19 refused, 1 that locked) and 3 refused right passwords.
    expect(actions).toEqual([
      { action: 'sign_in.failed', n: 19 },
      { action: 'sign_in.locked', n: 23 },
      { action: 'sign_in.succeeded', n: 3 },
    ]);
  });

  (target === 'postgres' ? it : it.skip)('…also spread over two instances on one PostgreSQL (skipped embedded: one process per database)', async () => {
    second = await startTestApp({ reuse: { dataDir: app.dataDir, env: app.env }, keep: true });
    watchVerifications(second);
    await parallelGuesses('two-instances@example.com', [app, second], 'one network');
    await parallelGuesses('two-instances-botnet@example.com', [app, second], 'many networks');
  });

  it('keeps the lockout across the MFA step: the right password again does not reset the wrong codes (password + 4 wrong codes → locked)', async () => {
    const { email, accountId } = await invitedWithMfa('lock');

    const form = await loginForm();
    const ip = freshIp();
    const password = await signIn(form, email, PASSWORD, ip).expect(303);
    expect(password.headers.location).toBe('/portal/login/code');
    const cookies = `${form.cookie}; ${String(password.headers['set-cookie']).split(';')[0]}`;
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await app
        .http()
        .post('/portal/login/code')
        .set({ cookie: cookies, 'x-forwarded-for': sameNetwork(ip) })
        .type('form')
        .send({ _csrf: form.csrf, code: '000000' });
      codes.push(res.status);
    }
    // The password was attempt 1: the 4th wrong code is the 5th attempt from that network, and locks.
    expect(codes).toEqual([401, 401, 401, 429]);
    const again = await signIn(form, email, PASSWORD, sameNetwork(ip)).expect(429);
    expect(again.text).toContain('locked for 15 minutes');
    // From a network that has not failed, the right password still leads to the code.
    expect((await signIn(form, email, PASSWORD, freshIp()).expect(303)).headers.location).toBe('/portal/login/code');
    const actions = await app.query<{ action: string }>(`SELECT action FROM audit_log WHERE account_id = $1 AND action LIKE 'sign_in.%' ORDER BY created_at`, [
      accountId,
    ]);
    expect(actions.map((a) => a.action)).toEqual([
      'sign_in.succeeded',
      'sign_in.failed',
      'sign_in.failed',
      'sign_in.failed',
      'sign_in.locked',
      'sign_in.locked',
    ]);
  });

  it("voids the second step's ticket when the password changes meanwhile (a reset elsewhere): the right code then opens nothing", async () => {
    const { email, accountId, member, recovery } = await invitedWithMfa('ticket');
    const mfa = app.server.app.get(MfaService);

    const form = await loginForm();
    const password = await signIn(form, email, PASSWORD).expect(303);
    const cookies = `${form.cookie}; ${String(password.headers['set-cookie']).split(';')[0]}`;
    await app.server.app.get(PortalRepository).setPassword(accountId, member.id, await app.server.app.get(PasswordHasher).hash('a new password after a reset'));
    const stale = await app
      .http()
      .post('/portal/login/code')
      .set({ cookie: cookies, 'x-forwarded-for': freshIp() })
      .type('form')
      .send({ _csrf: form.csrf, code: recovery[0] });
    expect(stale.status).toBe(401);
    expect(stale.text).toContain('Sign in again');
    expect(String(stale.headers['set-cookie'] ?? '')).not.toContain('portal_session=');
    expect(await mfa.unusedRecoveryCodes(member.id)).toBe(10);
  });

  it("uses the code step's ticket once: replayed after it opened a session it opens nothing, and two exchanges at once open one session", async () => {
    const { email, accountId, member, recovery } = await invitedWithMfa('replay');
    const mfa = app.server.app.get(MfaService);
    const form = await loginForm();
    const ip = freshIp();
    /** The password step: the ticket cookie (only its hash is stored). */
    const passwordStep = async () => {
      const res = await signIn(form, email, PASSWORD, ip).expect(303);
      const pair = ([] as string[])
        .concat(res.headers['set-cookie'])
        .find((c) => c.startsWith('portal_mfa='))!
        .split(';')[0];
      const ticket = decodeURIComponent(pair.slice('portal_mfa='.length));
      expect(await app.query(`SELECT used_at FROM portal_sign_in_tickets WHERE id_hash = $1`, [createHash('sha256').update(ticket).digest('hex')])).toEqual([
        { used_at: null },
      ]);
      return { cookies: `${form.cookie}; ${pair}`, ticket };
    };
    const exchange = (cookies: string, code: string) =>
      app
        .http()
        .post('/portal/login/code')
        .set({ cookie: cookies, 'x-forwarded-for': sameNetwork(ip) })
        .type('form')
        .send({ _csrf: form.csrf, code });
    const sessionCookie = (res: { headers: Record<string, unknown> }) =>
      ([] as string[])
        .concat((res.headers['set-cookie'] as string[] | undefined) ?? [])
        .find((c) => c.startsWith('portal_session=') && !c.includes('Max-Age=0'));
    const sessions = await sessionsOf(accountId);

    const first = await passwordStep();
    const signedIn = await exchange(first.cookies, recovery[0]);
    expect([signedIn.status, signedIn.headers.location]).toEqual([303, '/portal/']);
    expect(sessionCookie(signedIn)).toBeDefined();
    // The same ticket again (a copied cookie), with another good code: nothing opens, and the code stays unused.
    const replayed = await exchange(first.cookies, recovery[1]);
    expect(replayed.status).toBe(401);
    expect(replayed.text).toContain('Sign in again');
    expect(sessionCookie(replayed)).toBeUndefined();
    expect(await sessionsOf(accountId)).toBe(sessions + 1);
    expect(await mfa.unusedRecoveryCodes(member.id)).toBe(9);
    // Its code page is gone too.
    expect((await app.http().get('/portal/login/code').set('cookie', first.cookies)).headers.location).toBe('/portal/login');
    const [{ used_at: usedAt }] = await app.query<{ used_at: Date | null }>(`SELECT used_at FROM portal_sign_in_tickets WHERE id_hash = $1`, [
      createHash('sha256').update(first.ticket).digest('hex'),
    ]);
    expect(usedAt).toBeInstanceOf(Date);

    // Two exchanges of one ticket at once, each with a good code: one session, and the other's code unused.
    const next = await passwordStep();
    const raced = await Promise.all([exchange(next.cookies, recovery[2]), exchange(next.cookies, recovery[3])]);
    expect(raced.map((r) => r.status).sort()).toEqual([303, 401]);
    expect(raced.filter((r) => sessionCookie(r) !== undefined)).toHaveLength(1);
    expect(await sessionsOf(accountId)).toBe(sessions + 2);
    expect(await mfa.unusedRecoveryCodes(member.id)).toBe(8);
    const succeeded = await app.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE account_id = $1 AND action = 'sign_in.succeeded'`, [
      accountId,
    ]);
    // The invite's sign-in, then one per ticket.
    expect(succeeded).toEqual([{ n: 3 }]);
  });

  it('allows 20 sign-in and invite tries a minute per client IP, then answers a 429 page without hashing anything', async () => {
    const form = await loginForm();
    const ip = '203.0.113.9';
    verifications = 0;
    for (let i = 0; i < 20; i++) expect((await signIn(form, `nobody-${i}@example.com`, 'not the password', ip)).status).toBe(401);
    expect(verifications).toBe(20);

    const limited = await signIn(form, 'nobody-21@example.com', 'not the password', ip);
    expect(limited.status).toBe(429);
    expect(limited.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.text).toContain('Too many sign-in attempts');
    // Invites are tries of a credential too: opening one and posting to one.
    const invite = await app.http().get('/portal/invite/some-token').set('x-forwarded-for', ip);
    expect([invite.status, invite.text.includes('Too many sign-in attempts')]).toEqual([429, true]);
    const accept = await app
      .http()
      .post('/portal/invite/some-token')
      .set({ cookie: form.cookie, 'x-forwarded-for': ip })
      .type('form')
      .send({ _csrf: form.csrf, password: PASSWORD, confirm: PASSWORD });
    expect(accept.status).toBe(429);
    expect(verifications).toBe(20);

    // The form itself still shows; another client is not affected.
    await app.http().get('/portal/login').set('x-forwarded-for', ip).expect(200);
    expect((await signIn(form, 'nobody-22@example.com', 'not the password', '203.0.113.10')).status).toBe(401);
  });

  it('counts IPv6 clients by their /64', async () => {
    const form = await loginForm();
    for (let i = 0; i < 20; i++) expect((await signIn(form, `v6-${i}@example.com`, 'not the password', `2001:db8:1:2::${i + 1}`)).status).toBe(401);
    expect((await signIn(form, 'v6-20@example.com', 'not the password', '2001:db8:1:2:ffff::1')).status).toBe(429);
    expect((await signIn(form, 'v6-21@example.com', 'not the password', '2001:db8:1:3::1')).status).toBe(401);
  });
});

describe(`portal sign-in: the unlock e-mail (${target})`, () => {
  /** PUBLIC_URL of the app under test: not the address the tests reach it at, so a link built from the request's Host shows. */
  const PUBLIC_URL = 'https://portal.example.test';
  let app: TestApp;
  let smtp: SmtpTestServer;
  let lastNetwork = 0;
  /** An address in a /24 of its own (TRUST_PROXY trusts the test's X-Forwarded-For). */
  const freshIp = () => {
    const n = ++lastNetwork;
    return `172.16.${n % 256}.${Math.floor(n / 256) + 1}`;
  };
  const networkOf = (ip: string) => `${ip.split('.').slice(0, 3).join('.')}.0/24`;
  const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

  beforeAll(async () => {
    smtp = await SmtpTestServer.start();
    app = await startTestApp({
      env: { ...NO_RATE_LIMIT, TRUST_PROXY: '127.0.0.1', PUBLIC_URL, SMTP_URL: smtp.url, SMTP_FROM: 'Platform <no-reply@example.test>' },
    });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.stop();
  });

  const signIn = async (email: string, password: string, ip: string) => {
    const form = await app.http().get('/portal/login').set('x-forwarded-for', ip).expect(200);
    return app
      .http()
      .post('/portal/login')
      .set({ cookie: String(form.headers['set-cookie']).split(';')[0], 'x-forwarded-for': ip })
      .type('form')
      .send({ _csrf: csrfOf(form.text), email, password });
  };
  /** A new account whose owner set PASSWORD through the invite (from a network of its own). */
  const invited = async (email: string) => {
    const created = await app.http().post('/v1/admin/accounts').set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ email }).expect(201);
    const path = new URL((created.body as { portalInviteUrl: string }).portalInviteUrl).pathname;
    const ip = freshIp();
    const page = await app.http().get(path).set('x-forwarded-for', ip).expect(200);
    await app
      .http()
      .post(path)
      .set({ cookie: String(page.headers['set-cookie']).split(';')[0], 'x-forwarded-for': ip })
      .type('form')
      .send({ _csrf: csrfOf(page.text), password: PASSWORD, confirm: PASSWORD })
      .expect(303);
    return (created.body as { accountId: string }).accountId;
  };
  /** Opens an unlock link (its page, then its button) from `ip`: the button's answer, or the page's when it shows none. */
  const useLink = async (link: string, ip: string) => {
    const path = new URL(link).pathname;
    const page = await app.http().get(path).set('x-forwarded-for', ip);
    if (page.status !== 200) return page;
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toContain('<h1>Unlock sign-in</h1>');
    return app
      .http()
      .post(path)
      .set({ cookie: String(page.headers['set-cookie']).split(';')[0], 'x-forwarded-for': ip })
      .type('form')
      .send({ _csrf: csrfOf(page.text) });
  };

  it('e-mails the owner a single-use link when a lock is met (one e-mail per 15 minutes); it ends the lock, and its network signs in while guesses from elsewhere go on', async () => {
    const email = 'unlock-me@example.com';
    const accountId = await invited(email);
    // A botnet: 20 wrong passwords from 20 networks; the 20th meets the e-mail-wide lock.
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await signIn(email, 'not the password', freshIp())).status);
    expect(statuses).toEqual([...Array(19).fill(401), 429]);
    const refused = await signIn(email, PASSWORD, freshIp());
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('If the e-mail has an account, a link that unlocks it is on its way there (or went there in the last 15 minutes).');

    const mail = await smtp.nextTo(email);
    expect(mail.subject).toBe('Sign-in to your developer portal was locked');
    expect(mail.headers.from).toBe('Platform <no-reply@example.test>');
    const link = /https?:\/\/\S+\/portal\/unlock\/[A-Za-z0-9_-]+/.exec(mail.text)![0];
    expect(link.startsWith(`${PUBLIC_URL}/portal/unlock/`)).toBe(true);
    expect(mail.text).toMatch(/came from the network 172\.16\.\d+\.0\/24/);
    expect(mail.html).toContain(`<a href="${link}">unlock it</a>`);
    const token = link.split('/').pop()!;
    const [stored] = await app.query<{ token_hash: string; valid_for: number }>(
      `SELECT token_hash, extract(epoch FROM l.expires_at - l.created_at)::int AS valid_for FROM portal_unlock_links l JOIN members m ON m.id = l.member_id WHERE m.email = $1`,
      [email],
    );
    expect(stored).toEqual({ token_hash: sha256(token), valid_for: 3600 });

    // More attempts meet the lock meanwhile: no second e-mail within 15 minutes.
    const another = freshIp();
    for (let i = 0; i < 5; i++) await signIn(email, 'not the password', another);
    await signIn(email, PASSWORD, another);
    await app.server.app.get(Mailer).drain();
    expect(smtp.to(email)).toHaveLength(1);

    // The link, from a network the e-mail never signed in from: unlocked, audited there.
    const owner = freshIp();
    const used = await useLink(link, owner);
    expect([used.status, used.headers.location]).toEqual([303, '/portal/unlock/done']);
    expect((await app.http().get('/portal/unlock/done').expect(200)).text).toContain('Sign-in unlocked');
    expect(await app.query(`SELECT network FROM portal_sign_in_attempts WHERE email_hash = $1`, [sha256(email)])).toEqual([]);
    const [entry] = await app.query<{ actor_id: string; target_id: string; ip: string }>(
      `SELECT a.actor_id, a.target_id, a.ip FROM audit_log a WHERE a.account_id = $1 AND a.action = 'sign_in.unlocked'`,
      [accountId],
    );
    const [member] = await app.query<{ id: string }>(`SELECT id FROM members WHERE email = $1`, [email]);
    expect(entry).toEqual({ actor_id: member.id, target_id: member.id, ip: networkOf(owner) });
    // Used once: a second use opens nothing.
    const again = await useLink(link, owner);
    expect([again.status, again.text.includes('Link not valid')]).toEqual([404, true]);

    // The botnet goes on and meets the e-mail-wide lock again; the owner's network (the link's) still signs in.
    for (let i = 0; i < 20; i++) await signIn(email, 'not the password', freshIp());
    expect((await signIn(email, PASSWORD, freshIp())).status).toBe(429);
    expect((await signIn(email, PASSWORD, owner)).status).toBe(303);
  });

  it('an expired link opens nothing; a lock of an e-mail without an account answers alike and e-mails no one', async () => {
    const email = 'expired-link@example.com';
    await invited(email);
    const ip = freshIp();
    for (let i = 0; i < 5; i++) await signIn(email, 'not the password', ip);
    const link = /https?:\/\/\S+\/portal\/unlock\/[A-Za-z0-9_-]+/.exec((await smtp.nextTo(email)).text)![0];
    await app.query(`UPDATE portal_unlock_links SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [sha256(link.split('/').pop()!)]);
    const expired = await useLink(link, freshIp());
    expect([expired.status, expired.text.includes('Link not valid')]).toEqual([404, true]);
    expect((await signIn(email, PASSWORD, ip)).status).toBe(429);

    const nobody = 'nobody-here@example.com';
    const answers: Array<[number, boolean]> = [];
    for (let i = 0; i < 6; i++) {
      const res = await signIn(nobody, 'not the password', ip);
      answers.push([res.status, res.text.includes('a link that unlocks it is on its way there')]);
    }
    expect(answers).toEqual([...Array(4).fill([401, false]), [429, true], [429, true]]);
    await app.server.app.get(Mailer).drain();
    expect(smtp.to(nobody)).toEqual([]);
  });
});

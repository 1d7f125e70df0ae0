import { createHash } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { MfaService } from '../src/mfa/mfa.service.js';
import { PasswordHasher } from '../src/portal/password-hash.js';
import { PortalRepository } from '../src/portal/portal.repository.js';
import { NO_RATE_LIMIT } from './support/api-client.js';
import { startChildServer } from './support/child-server.js';
import { secretLinkLogLines } from './support/portal-session.js';
import { ADMIN_TOKEN, dropFreshResources, freshEnvironment, startTestApp, target, TestApp } from './support/test-app.js';
import { until } from './support/webhook-receiver.js';

const PASSWORD = 'correct horse battery staple';

describe(`portal sign-in: lockout, per-IP limit, logs (${target})`, () => {
  let app: TestApp;
  /** A second instance on the same database and Redis (PostgreSQL only); closed last: closing it first breaks the first's connections. */
  let second: TestApp | undefined;
  /** Password verifications run (on every watched instance) since a test reset it, and a gate that holds them while set. */
  let verifications = 0;
  let gate: Promise<void> | undefined;
  let lastIp = 0;
  /** A client address of its own (TRUST_PROXY trusts the test's X-Forwarded-For), so the per-IP limit stays out of the way. */
  const freshIp = () => `10.0.${Math.floor(++lastIp / 250)}.${(lastIp % 250) + 1}`;

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
  const invited = async (email: string) => {
    const account = (await app.http().post('/v1/admin/accounts').set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ email }).expect(201)).body as {
      accountId: string;
      portalInviteUrl: string;
    };
    const path = new URL(account.portalInviteUrl).pathname;
    const ip = freshIp();
    const page = await app.http().get(path).set('x-forwarded-for', ip).expect(200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
    const cookie = String(page.headers['set-cookie']).split(';')[0];
    await app.http().post(path).set({ cookie, 'x-forwarded-for': ip }).type('form').send({ _csrf: csrf, password: PASSWORD, confirm: PASSWORD }).expect(303);
    return account;
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

  /** 39 wrong guesses at once (spread over `instances`, each from its own address), then the right password while they are verified. */
  async function parallelGuesses(
    email: string,
    instances: TestApp[],
  ): Promise<{ form: { csrf: string; cookie: string }; sessions: number; accountId: string }> {
    const account = await invited(email);
    const sessions = await sessionsOf(account.accountId);
    const form = await loginForm();
    verifications = 0;
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const answers: number[] = [];
    let guesses: Array<Promise<number>>;
    try {
      guesses = Array.from({ length: 39 }, (_, i) =>
        signIn(form, email, 'not the password', freshIp(), instances[i % instances.length]).then((res) => answers.push(res.status)),
      );
      // Their verifications are held at the gate: five start, the others are refused before any.
      await until(() => verifications + answers.length >= 39, 30_000, 'every guess verifying or answered');
      expect(verifications).toBe(5);
      expect(answers).toEqual(Array(34).fill(429));
      // The right password, while the five wrong ones are still being verified: refused without a verification.
      const right = await signIn(form, email, PASSWORD);
      expect(right.status).toBe(429);
      expect(right.text).toContain('locked for 15 minutes');
      expect(verifications).toBe(5);
    } finally {
      open();
      gate = undefined;
    }
    await Promise.all(guesses);
    // Attempts 1–4 are wrong passwords (401), the 5th locks (429), the rest were locked out before any check.
    expect(answers.filter((s) => s === 401)).toHaveLength(4);
    expect(answers.filter((s) => s === 429)).toHaveLength(35);
    expect(await sessionsOf(account.accountId)).toBe(sessions);
    expect((await signIn(form, email, PASSWORD)).status).toBe(429);
    expect(verifications).toBe(5);
    return { form, sessions, accountId: account.accountId };
  }

  it('counts parallel guesses before verifying any: 5 verifications at most, and the right password waits out the lock', async () => {
    const { form, sessions, accountId } = await parallelGuesses('parallel@example.com', [app]);

    // 15 minutes after the attempts the e-mail opens again; a success clears the count.
    await app.query(`UPDATE portal_sign_in_attempts SET attempted_at = array(SELECT t - interval '15 minutes 1 second' FROM unnest(attempted_at) t)`);
    for (let i = 0; i < 4; i++) expect((await signIn(form, 'parallel@example.com', 'not the password')).status).toBe(401);
    expect((await signIn(form, 'parallel@example.com', PASSWORD)).status).toBe(303);
    expect(await sessionsOf(accountId)).toBe(sessions + 1);
    expect((await signIn(form, 'parallel@example.com', 'not the password')).status).toBe(401);
    const emailHash = createHash('sha256').update('parallel@example.com').digest('hex');
    expect(await app.query(`SELECT cardinality(attempted_at) AS n FROM portal_sign_in_attempts WHERE email_hash = $1`, [emailHash])).toEqual([{ n: 1 }]);
  });

  (target === 'postgres' ? it : it.skip)('…also spread over two instances on one PostgreSQL (skipped embedded: one process per database)', async () => {
    second = await startTestApp({ reuse: { dataDir: app.dataDir, env: app.env }, keep: true });
    watchVerifications(second);
    await parallelGuesses('two-instances@example.com', [app, second]);
  });

  it('keeps the lockout across the MFA step: the right password again does not reset the wrong codes (password + 4 wrong codes → locked)', async () => {
    const { email, accountId } = await invitedWithMfa('lock');

    const form = await loginForm();
    const password = await signIn(form, email, PASSWORD).expect(303);
    expect(password.headers.location).toBe('/portal/login/code');
    const cookies = `${form.cookie}; ${String(password.headers['set-cookie']).split(';')[0]}`;
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await app
        .http()
        .post('/portal/login/code')
        .set({ cookie: cookies, 'x-forwarded-for': freshIp() })
        .type('form')
        .send({ _csrf: form.csrf, code: '000000' });
      codes.push(res.status);
    }
    // The password was attempt 1: the 4th wrong code is the 5th attempt, and locks.
    expect(codes).toEqual([401, 401, 401, 429]);
    const again = await signIn(form, email, PASSWORD).expect(429);
    expect(again.text).toContain('locked for 15 minutes');
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

describe(`request log (${target})`, () => {
  it('writes the route pattern of an invite request, never its token', async () => {
    const env = await freshEnvironment();
    const server = await startChildServer(env);
    try {
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
    } finally {
      await server.stop('SIGKILL');
      await dropFreshResources(env);
    }
  });
});

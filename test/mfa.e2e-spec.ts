import { Secret, TOTP } from 'otpauth';
import { MfaService, RECOVERY_CODES } from '../src/mfa/mfa.service.js';
import { NO_RATE_LIMIT } from './support/api-client.js';
import { PORTAL_PASSWORD, portalSession } from './support/portal-session.js';
import { createAccount, startTestApp, target, TestApp } from './support/test-app.js';

const codeAt = (secret: string, at: number) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at });
const actor = { type: 'member' as const, id: 'mem_test', label: 'ada@example.com', ip: '203.0.113.0/24' };

describe(`two-factor sign-in (${target})`, () => {
  let app: TestApp;
  let mfa: MfaService;

  beforeAll(async () => {
    app = await startTestApp({ env: NO_RATE_LIMIT });
    mfa = app.server.app.get(MfaService);
  });
  afterAll(() => app.close());

  const ownerOf = async () => {
    const account = await createAccount(app);
    const [member] = await app.query<{ id: string }>('SELECT id FROM members WHERE account_id = $1', [account.accountId]);
    return { accountId: account.accountId, memberId: member.id };
  };

  it('enrols with a QR code drawn here and a first code; the secret is stored sealed; 10 recovery codes, stored hashed', async () => {
    const { accountId, memberId } = await ownerOf();
    const enrolment = await mfa.start(memberId, 'ada@example.com');
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolment.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Platform:ada%40example\.com\?.*secret=/);
    expect(enrolment.qrSvg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    const [stored] = await app.query<{ secret: string; enrolled_at: Date | null }>('SELECT secret, enrolled_at FROM member_mfa WHERE member_id = $1', [
      memberId,
    ]);
    expect(stored.secret).not.toContain(enrolment.secret);
    expect(stored.enrolled_at).toBeNull();
    expect(await mfa.isEnrolled(memberId)).toBe(false);

    const now = Date.now();
    await expect(mfa.confirm(accountId, actor, memberId, '000000', now)).rejects.toMatchObject({ reason: 'mfa_code_invalid', status: 400 });
    const codes = await mfa.confirm(accountId, actor, memberId, codeAt(enrolment.secret, now), now);
    expect(codes).toHaveLength(RECOVERY_CODES);
    expect(new Set(codes).size).toBe(RECOVERY_CODES);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const hashes = await app.query<{ code_hash: string }>('SELECT code_hash FROM member_recovery_codes WHERE member_id = $1', [memberId]);
    expect(hashes).toHaveLength(RECOVERY_CODES);
    expect(JSON.stringify(hashes)).not.toContain(codes[0].replace('-', ''));
    expect(await mfa.isEnrolled(memberId)).toBe(true);
    await expect(mfa.start(memberId, 'ada@example.com')).rejects.toMatchObject({ reason: 'mfa_already_enrolled', status: 409 });
    const [entry] = await app.query<{ action: string; target_id: string }>(
      `SELECT action, target_id FROM audit_log WHERE account_id = $1 AND action LIKE 'mfa.%'`,
      [accountId],
    );
    expect(entry).toEqual({ action: 'mfa.enrolled', target_id: memberId });
  });

  it('accepts a code once: the same code again, or an older one, is refused within its window; a recovery code works once', async () => {
    const { accountId, memberId } = await ownerOf();
    const enrolment = await mfa.start(memberId, 'ada@example.com');
    const t0 = Date.now();
    const codes = await mfa.confirm(accountId, actor, memberId, codeAt(enrolment.secret, t0), t0);
    // The enrolment's code was used: refused again at once.
    expect(await mfa.verify(memberId, codeAt(enrolment.secret, t0), t0 + 1000)).toBe(false);
    const t1 = t0 + 30_000;
    const next = codeAt(enrolment.secret, t1);
    const raced = await Promise.all([mfa.verify(memberId, next, t1), mfa.verify(memberId, next, t1)]);
    expect(raced.sort()).toEqual([false, true]);
    expect(await mfa.verify(memberId, next, t1 + 20_000)).toBe(false);
    expect(await mfa.verify(memberId, codeAt(enrolment.secret, t0), t1)).toBe(false); // an older step
    expect(await mfa.verify(memberId, codeAt(enrolment.secret, t1 + 30_000), t1 + 30_000)).toBe(true);
    expect(await mfa.verify(memberId, codeAt(enrolment.secret, t1 + 200_000), t1 + 30_000)).toBe(false); // outside the window

    expect(await mfa.verify(memberId, codes[3].toUpperCase().replace('-', ' '), t1)).toBe(true);
    expect(await mfa.verify(memberId, codes[3], t1)).toBe(false);
    expect(await mfa.unusedRecoveryCodes(memberId)).toBe(RECOVERY_CODES - 1);
    expect(await mfa.verify(memberId, 'not-a-code', t1)).toBe(false);
  });

  it('turns off (audited), and the policy "MFA required" is per account, each change of it audited', async () => {
    const { accountId, memberId } = await ownerOf();
    await expect(mfa.remove(accountId, actor, memberId)).rejects.toMatchObject({ reason: 'mfa_not_enrolled', status: 404 });
    const enrolment = await mfa.start(memberId, 'ada@example.com');
    await mfa.confirm(accountId, actor, memberId, codeAt(enrolment.secret, Date.now()));
    await mfa.remove(accountId, actor, memberId);
    expect(await mfa.isEnrolled(memberId)).toBe(false);
    expect(await app.query('SELECT 1 FROM member_recovery_codes WHERE member_id = $1', [memberId])).toEqual([]);
    const actions = await app.query<{ action: string }>(`SELECT action FROM audit_log WHERE account_id = $1 AND action LIKE 'mfa.%' ORDER BY created_at`, [
      accountId,
    ]);
    expect(actions.map((a) => a.action)).toEqual(['mfa.enrolled', 'mfa.removed']);

    expect(await mfa.mfaRequired(accountId)).toBe(false);
    await mfa.setMfaRequired(accountId, actor, true);
    expect(await mfa.mfaRequired(accountId)).toBe(true);
    // Saved again unchanged: no entry; turned off: one more.
    await mfa.setMfaRequired(accountId, actor, true);
    await mfa.setMfaRequired(accountId, actor, false);
    const policy = await app.query<{ action: string; actor_id: string; target_type: string; target_id: string }>(
      `SELECT action, actor_id, target_type, target_id FROM audit_log WHERE account_id = $1 AND action = 'mfa.policy_changed' ORDER BY created_at`,
      [accountId],
    );
    expect(policy).toEqual([
      { action: 'mfa.policy_changed', actor_id: 'mem_test', target_type: 'account', target_id: accountId },
      { action: 'mfa.policy_changed', actor_id: 'mem_test', target_type: 'account', target_id: accountId },
    ]);
    expect(await mfa.mfaRequired((await createAccount(app)).accountId)).toBe(false);
  });

  it('turning MFA off in the portal counts wrong codes against the lockout: the 5th locks, and then the right code too', async () => {
    const email = `mfa-off-${Date.now()}@example.com`;
    const session = await portalSession(app, email);
    const [member] = await app.query<{ id: string }>('SELECT id FROM members WHERE account_id = $1', [session.accountId]);
    const enrolment = await mfa.start(member.id, email);
    const codes = await mfa.confirm(session.accountId, actor, member.id, codeAt(enrolment.secret, Date.now()));
    const remove = (code: string) =>
      app.http().post('/portal/account/mfa/remove').set('cookie', session.cookie).type('form').send({ _csrf: session.csrf, code });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await remove('000000')).status);
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    const right = await remove(codes[0]);
    expect(right.status).toBe(429);
    expect(right.text).toContain('Too many wrong codes from your network: this e-mail is locked for 15 minutes on it. The lock ends by itself.');
    expect(await mfa.isEnrolled(member.id)).toBe(true);
  });

  describe('sudo mode: changing two-factor sign-in needs the password typed within 5 minutes', () => {
    const CONFIRM = '/portal/account/confirm-password?return=%2Fportal%2Faccount%2Fmfa';
    const signedIn = async (name: string) => {
      const email = `sudo-${name}-${Date.now()}@example.com`;
      const session = await portalSession(app, email);
      const [member] = await app.query<{ id: string }>('SELECT id FROM members WHERE account_id = $1', [session.accountId]);
      const get = (path: string) => app.http().get(path).set('cookie', session.cookie);
      const post = (path: string, form: Record<string, string> = {}) =>
        app
          .http()
          .post(path)
          .set('cookie', session.cookie)
          .type('form')
          .send({ _csrf: session.csrf, ...form });
      /** The session's last password is 5 minutes and a second old. */
      const stale = () => app.query(`UPDATE portal_sessions SET reauthenticated_at = now() - interval '5 minutes 1 second' WHERE member_id = $1`, [member.id]);
      const recoveryHashes = async () =>
        (await app.query<{ code_hash: string }>('SELECT code_hash FROM member_recovery_codes WHERE member_id = $1 ORDER BY code_hash', [member.id])).map(
          (r) => r.code_hash,
        );
      return { ...session, email, memberId: member.id, get, post, stale, recoveryHashes };
    };

    it('enrolling, new recovery codes and turning it off go to "confirm your password" first, which returns to the page', async () => {
      const m = await signedIn('flow');
      // Just signed in: the sign-in counts as typing the password.
      expect((await m.get('/portal/account/mfa').expect(200)).text).toContain('action="/portal/account/mfa/start"');

      await m.stale();
      const settings = await m.get('/portal/account/mfa').expect(200);
      expect(settings.text).toContain(`<a href="${CONFIRM.replace(/&/g, '&amp;')}">Confirm your password</a>`);
      expect(settings.text).not.toContain('action="/portal/account/mfa/start"');
      const refused = await m.post('/portal/account/mfa/start');
      expect([refused.status, refused.headers.location]).toEqual([303, CONFIRM]);
      expect(await app.query('SELECT 1 FROM member_mfa WHERE member_id = $1', [m.memberId])).toEqual([]);

      const page = await m.get(CONFIRM).expect(200);
      expect(page.text).toContain('<h1>Confirm your password</h1>');
      expect(page.text).toContain('<input type="hidden" name="return" value="/portal/account/mfa">');
      const wrong = await m.post('/portal/account/confirm-password', { password: 'not my password at all', return: '/portal/account/mfa' });
      expect(wrong.status).toBe(400);
      expect(wrong.text).toContain('id="password-error">That is not your password.</p>');
      expect((await m.post('/portal/account/mfa/start')).status).toBe(303);
      const right = await m.post('/portal/account/confirm-password', { password: PORTAL_PASSWORD, return: '/portal/account/mfa' });
      expect([right.status, right.headers.location]).toEqual([303, '/portal/account/mfa']);

      const started = await m.post('/portal/account/mfa/start').expect(200);
      const secret = /<code id="mfa-secret">([A-Z2-7]+)<\/code>/.exec(started.text)![1];
      const enrolled = await m.post('/portal/account/mfa/confirm', { code: codeAt(secret, Date.now()) }).expect(200);
      const codes = [...enrolled.text.matchAll(/<li><code>([a-z0-9]{5}-[a-z0-9]{5})<\/code><\/li>/g)].map((r) => r[1]);
      expect(codes).toHaveLength(RECOVERY_CODES);

      // Five minutes on: new recovery codes and turning it off wait for the password, and change nothing meanwhile.
      await m.stale();
      const hashes = await m.recoveryHashes();
      const regenerate = await m.post('/portal/account/mfa/recovery-codes');
      expect([regenerate.status, regenerate.headers.location]).toEqual([303, CONFIRM]);
      const off = await m.post('/portal/account/mfa/remove', { code: codes[0] });
      expect([off.status, off.headers.location]).toEqual([303, CONFIRM]);
      expect(await m.recoveryHashes()).toEqual(hashes);
      expect(await mfa.isEnrolled(m.memberId)).toBe(true);
      expect(await mfa.unusedRecoveryCodes(m.memberId)).toBe(RECOVERY_CODES);

      await m.post('/portal/account/confirm-password', { password: PORTAL_PASSWORD, return: '/portal/account/mfa' }).expect(303);
      const fresh = await m.post('/portal/account/mfa/recovery-codes').expect(200);
      expect(fresh.headers['cache-control']).toBe('no-store');
      expect(fresh.text).toContain('<h1>New recovery codes</h1>');
      const newCodes = [...fresh.text.matchAll(/<li><code>([a-z0-9]{5}-[a-z0-9]{5})<\/code><\/li>/g)].map((r) => r[1]);
      expect(newCodes).toHaveLength(RECOVERY_CODES);
      expect(newCodes.filter((c) => codes.includes(c))).toEqual([]);
      expect(await mfa.verify(m.memberId, codes[0])).toBe(false);
      expect(await mfa.verify(m.memberId, newCodes[0])).toBe(true);
      const regenerated = await app.query<{ actor_id: string; target_id: string }>(
        `SELECT actor_id, target_id FROM audit_log WHERE account_id = $1 AND action = 'mfa.recovery_codes_regenerated'`,
        [m.accountId],
      );
      expect(regenerated).toEqual([{ actor_id: m.memberId, target_id: m.memberId }]);
      const removed = await m.post('/portal/account/mfa/remove', { code: newCodes[1] });
      expect([removed.status, removed.headers.location]).toEqual([303, '/portal/account/mfa']);
      expect(await mfa.isEnrolled(m.memberId)).toBe(false);
    });

    it('goes back only to a page of the portal, counts wrong passwords against the lockout, and points a member without a password to SSO', async () => {
      const m = await signedIn('guard');
      await m.stale();
      for (const elsewhere of ['https://evil.example/', '//evil.example/portal/', '/portal/../v1/apps', '/portal\\evil', 'javascript:alert(1)']) {
        const page = await m.get(`/portal/account/confirm-password?return=${encodeURIComponent(elsewhere)}`).expect(200);
        expect({ elsewhere, hidden: /name="return" value="([^"]*)"/.exec(page.text)![1] }).toEqual({ elsewhere, hidden: '/portal/account' });
      }
      const confirmed = await m.post('/portal/account/confirm-password', { password: PORTAL_PASSWORD, return: '//evil.example/' });
      expect([confirmed.status, confirmed.headers.location]).toEqual([303, '/portal/account']);

      await m.stale();
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await m.post('/portal/account/confirm-password', { password: `guess number ${i}` })).status);
      expect(statuses).toEqual([400, 400, 400, 400, 429]);
      const locked = await m.post('/portal/account/confirm-password', { password: PORTAL_PASSWORD });
      expect(locked.status).toBe(429);
      expect(locked.text).toContain('locked for 15 minutes');
      expect((await m.post('/portal/account/mfa/start')).headers.location).toBe(CONFIRM);

      // Signed in through SSO only (no password here): the page asks for a fresh sign-in instead.
      await app.query('DELETE FROM portal_passwords WHERE member_id = $1', [m.memberId]);
      const sso = await m.get(CONFIRM).expect(200);
      expect(sso.text).toContain('<a href="/portal/sso">Sign in again with SSO</a>');
      expect(sso.text).not.toContain('name="password"');
    });
  });
});

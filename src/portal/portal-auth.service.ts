import { Injectable } from '@nestjs/common';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AccountsService } from '../accounts/accounts.service.js';
import { AppConfig } from '../config/app-config.js';
import type { AuditAction } from '../audit/audit-actions.js';
import { AuditLog } from '../audit/audit-log.service.js';
import { truncatedIp } from '../common/client-network.js';
import { ServerSecrets } from '../config/server-secrets.js';
import { SsoSettingsService } from '../sso/sso-settings.service.js';
import { Transactions } from '../database/transactions.js';
import { MfaService } from '../mfa/mfa.service.js';
import { PasswordHasher } from './password-hash.js';
import { PortalRepository, SessionMember } from './portal.repository.js';
import { sha256 } from './sha256.js';
import { type LockedBy, SignInLockout } from './sign-in-lockout.js';

export const INVITE_TTL_MS = 7 * 86_400_000;
export const SESSION_IDLE_MS = 12 * 3_600_000;
export const MIN_PASSWORD_LENGTH = 12;
/** How long after signing in, or confirming the password, a session may change two-factor sign-in (sudo mode). */
export const REAUTH_TTL_MS = 5 * 60_000;

export type LoginOutcome =
  | { kind: 'signed-in'; sessionId: string }
  /** The right password of a member with MFA: no session until a code passes (PortalSecondFactor). */
  | { kind: 'second-factor'; accountId: string; memberId: string; email: string }
  | { kind: 'invalid' }
  | { kind: 'locked'; by: LockedBy }
  /** The right password, refused: the account requires single sign-on (see SsoSettingsService.refusesPassword). */
  | { kind: 'sso-required' };

// Many modules import it from here; those this one imports take it from ./sha256.ts, so no import goes in a circle.
export { sha256 };

/**
 * Sign-in to the portal: single-use invites (7 days) to set a password, scrypt-hashed passwords,
 * server-side sessions (12 h idle; only the id's hash is stored, so a database leak opens no
 * session; each keeps when its member last signed in or confirmed their password, for sudo mode),
 * CSRF tokens bound to the session, and the lockout per e-mail and client network (SignInLockout),
 * each attempt counted before its password is verified.
 */
@Injectable()
export class PortalAuthService {
  private readonly csrfKey: Buffer;

  constructor(
    private readonly db: Transactions,
    private readonly portal: PortalRepository,
    private readonly config: AppConfig,
    private readonly passwords: PasswordHasher,
    private readonly audit: AuditLog,
    private readonly accounts: AccountsService,
    private readonly mfa: MfaService,
    private readonly sso: SsoSettingsService,
    private readonly lockout: SignInLockout,
    secrets: ServerSecrets,
  ) {
    this.csrfKey = secrets.keyFor('portal-csrf');
  }

  /** A new invite for the account; answers its URL (shown once: only the token's hash is kept). */
  async invite(accountId: string): Promise<string> {
    const token = randomBytes(24).toString('base64url');
    await this.portal.insertInvite(sha256(token), accountId, new Date(Date.now() + INVITE_TTL_MS));
    return `${this.config.publicUrl}/portal/invite/${token}`;
  }

  /**
   * A new invite for an existing account (an operator's `POST /v1/admin/accounts/:id/invite`): the
   * account's invites not used yet stop working. AccountsError (404) for an unknown account.
   */
  async reissueInvite(accountId: string): Promise<string> {
    return this.db.run(async () => {
      await this.accounts.get(accountId);
      await this.portal.deleteOpenInvites(accountId);
      return this.invite(accountId);
    });
  }

  async inviteIsOpen(token: string): Promise<boolean> {
    return this.db.run(async () => (await this.portal.openInvite(sha256(token))) !== null);
  }

  /**
   * Sets the password through an open invite (then used up) and signs in as a password sign-in
   * would: audited, refused when the account requires SSO (an owner with MFA excepted), and on to
   * the code step for a member with MFA. Null if the invite is not open.
   */
  async acceptInvite(token: string, password: string, ip: string): Promise<LoginOutcome | null> {
    // No scrypt run for a token that opens nothing (checked again, locked, below: it may be used meanwhile).
    if (!(await this.inviteIsOpen(token))) return null;
    const hash = await this.passwords.hash(password);
    return this.db.run(async (): Promise<LoginOutcome | null> => {
      const accountId = await this.portal.openInvite(sha256(token));
      if (!accountId) return null;
      const memberId = await this.portal.loginMemberOf(accountId);
      if (!memberId) return null;
      await this.portal.useInvite(sha256(token));
      await this.portal.setPassword(accountId, memberId, hash);
      // A new password (an invite re-issued to recover an account) ends the sessions the old one opened.
      await this.portal.deleteSessionsOf(memberId);
      const email = (await this.portal.passwordOfMember(memberId))!.email;
      const audit = (action: AuditAction) =>
        this.audit.record(accountId, { type: 'member', id: memberId, label: email, ip: truncatedIp(ip) }, action, memberId);
      if (await this.sso.refusesPassword(memberId)) {
        await audit('sign_in.failed');
        return { kind: 'sso-required' };
      }
      if (await this.mfa.isEnrolled(memberId)) return { kind: 'second-factor', accountId, memberId, email };
      await this.lockout.succeeded(email, ip);
      await audit('sign_in.succeeded');
      return { kind: 'signed-in', sessionId: await this.startSession(accountId, memberId) };
    });
  }

  /** Signs in with e-mail and password from `ip`; each outcome for a known e-mail is in its account's audit log. */
  async login(email: string, password: string, ip: string): Promise<LoginOutcome> {
    const address = email.trim().toLowerCase();
    // Counted (or refused) before the password is verified: a guess in flight holds its place in the count.
    const attempt = await this.lockout.take(address, ip);
    const stored = await this.portal.passwordOf(address);
    const audit = (action: AuditAction) =>
      stored
        ? this.audit.record(stored.accountId, { type: 'member', id: stored.memberId, label: address, ip: truncatedIp(ip) }, action, stored.memberId)
        : undefined;
    if (attempt.locked) {
      await audit('sign_in.locked');
      return { kind: 'locked', by: attempt.locked };
    }
    // SSO required is decided before the password is verified, and answers the same for a right or a wrong
    // password (no right-password oracle); the password is verified either way, so timing tells nothing.
    const ssoRefuses = stored ? await this.sso.refusesPassword(stored.memberId) : false;
    // The same work whether or not the e-mail is known: timing tells nothing.
    const ok = stored ? await this.passwords.verify(password, stored.hash) : (await this.passwords.verify(password, this.passwords.unknownHash), false);
    if (stored && ssoRefuses) {
      await audit('sign_in.failed');
      return { kind: 'sso-required' };
    }
    if (!stored || !ok) {
      const locked = this.lockout.failed(address, ip, attempt);
      await audit(locked ? 'sign_in.locked' : 'sign_in.failed');
      return locked ? { kind: 'locked', by: locked } : { kind: 'invalid' };
    }
    // Hashed at another cost (PASSWORD_HASH_COST changed since it was set): hashed again at today's, now that it is known.
    if (this.passwords.isOutdated(stored.hash)) await this.portal.setPassword(stored.accountId, stored.memberId, await this.passwords.hash(password));
    // A member with MFA: the count is cleared once the code passes (PortalSecondFactor), not here — else
    // typing the password again would give the code guesses a fresh lockout each time.
    if (await this.mfa.isEnrolled(stored.memberId)) return { kind: 'second-factor', accountId: stored.accountId, memberId: stored.memberId, email: address };
    const sessionId = await this.db.run(async () => {
      await this.lockout.succeeded(address, ip);
      await audit('sign_in.succeeded');
      return this.startSession(stored.accountId, stored.memberId);
    });
    return { kind: 'signed-in', sessionId };
  }

  /** The session's member, or null if there is none, it was idle for 12 h, or the member was removed. */
  sessionMember(sessionId: string | undefined): Promise<SessionMember | null> {
    if (!sessionId) return Promise.resolve(null);
    return this.portal.touchSession(sha256(sessionId), SESSION_IDLE_MS, REAUTH_TTL_MS);
  }

  async logout(sessionId: string | undefined): Promise<void> {
    if (sessionId) await this.portal.deleteSession(sha256(sessionId));
  }

  /** The CSRF token of a session (or, before sign-in, of the pre-session cookie): an HMAC, nothing stored. */
  csrfToken(bound: string): string {
    return createHmac('sha256', this.csrfKey).update(bound).digest('base64url');
  }

  csrfValid(bound: string | undefined, token: unknown): boolean {
    if (!bound || typeof token !== 'string') return false;
    const expected = Buffer.from(this.csrfToken(bound));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /**
   * A new session of the member (in the caller's transaction, if any; after a password, an invite, single sign-on),
   * re-authenticated now; answers its id, the cookie's value.
   */
  async startSession(accountId: string, memberId: string): Promise<string> {
    const sessionId = randomBytes(32).toString('base64url');
    await this.portal.insertSession(sha256(sessionId), accountId, memberId);
    return sessionId;
  }
}

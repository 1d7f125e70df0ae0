import { Injectable } from '@nestjs/common';
import { Transactions } from '../../database/transactions.js';
import { PasswordHasher } from '../password-hash.js';
import { LOCKOUT_ATTEMPTS, LOCKOUT_WINDOW_MS, SESSION_IDLE_MS, sha256 } from '../portal-auth.service.js';
import { PortalRepository } from '../portal.repository.js';
import { PasswordResetsRepository } from './password-resets.repository.js';

export type ChangePasswordOutcome =
  | { kind: 'changed'; signedOut: number }
  /** The current password given is not the account's (or the account has none). */
  | { kind: 'wrong-password' }
  /** Too many wrong passwords for this e-mail lately: the sign-in lockout, shared with the login form. */
  | { kind: 'locked' };

/**
 * A signed-in developer's own login: what the account page shows, changing the password (the
 * current one verified first, counted against the sign-in lockout like a sign-in), and ending
 * sessions. Every new password, however set, goes through `replacePassword`.
 */
@Injectable()
export class PortalAccountService {
  constructor(
    private readonly db: Transactions,
    private readonly portal: PortalRepository,
    private readonly resets: PasswordResetsRepository,
    private readonly passwords: PasswordHasher,
  ) {}

  /** The account page's facts: the e-mail signed in with, and how many sessions are open (this one included). */
  async summary(accountId: string): Promise<{ email: string; sessions: number }> {
    const [login, sessions] = await Promise.all([this.portal.passwordOfAccount(accountId), this.portal.countSessions(accountId, SESSION_IDLE_MS)]);
    return { email: login?.email ?? '', sessions };
  }

  /** Sets `next` if `current` is the password; every other session of the login ends, this one (`sessionId`) stays. */
  async changePassword(accountId: string, sessionId: string, current: string, next: string): Promise<ChangePasswordOutcome> {
    const stored = await this.portal.passwordOfAccount(accountId);
    if (!stored) return { kind: 'wrong-password' };
    const emailHash = sha256(stored.email);
    // Counted before the verification, like a sign-in: a stolen session cannot guess the password faster than the login form can.
    const attempt = await this.portal.takeSignInAttempt(emailHash, LOCKOUT_WINDOW_MS, LOCKOUT_ATTEMPTS);
    if (attempt === null) return { kind: 'locked' };
    if (!(await this.passwords.verify(current, stored.hash))) return attempt >= LOCKOUT_ATTEMPTS ? { kind: 'locked' } : { kind: 'wrong-password' };
    await this.portal.clearSignInAttempts(emailHash);
    const hash = await this.passwords.hash(next);
    return { kind: 'changed', signedOut: await this.replacePassword(accountId, hash, sessionId) };
  }

  /** Ends every portal session of the login, the caller's included; answers how many ended. */
  signOutEverywhere(accountId: string): Promise<number> {
    return this.portal.deleteSessionsOf(accountId);
  }

  /**
   * Stores a new password hash, ends the login's sessions (all, or all but `keepSessionId`) and its
   * open reset links, in one transaction; answers how many sessions ended.
   */
  replacePassword(accountId: string, hash: string, keepSessionId?: string): Promise<number> {
    return this.db.run(async () => {
      await this.portal.setPassword(accountId, hash);
      await this.resets.closeAll(accountId);
      return this.portal.deleteSessionsOf(accountId, keepSessionId === undefined ? undefined : sha256(keepSessionId));
    });
  }
}

import { Injectable } from '@nestjs/common';
import { Transactions } from '../../database/transactions.js';
import { PasswordHasher } from '../password-hash.js';
import { SESSION_IDLE_MS, sha256 } from '../portal-auth.service.js';
import { PortalRepository } from '../portal.repository.js';
import { type LockedBy, SignInLockout } from '../sign-in-lockout.js';
import { PasswordResetsRepository } from './password-resets.repository.js';

export type ChangePasswordOutcome =
  | { kind: 'changed'; signedOut: number }
  /** The current password given is not the account's (or the account has none). */
  | { kind: 'wrong-password' }
  /** Too many wrong passwords for this e-mail lately: the sign-in lockout, shared with the login form. */
  | { kind: 'locked'; by: LockedBy };

/**
 * A signed-in member's own login: what the account page shows, changing the password (the
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
    private readonly lockout: SignInLockout,
  ) {}

  /** The account page's facts: how many sessions the member has open (this one included). */
  async summary(memberId: string): Promise<{ sessions: number }> {
    return { sessions: await this.portal.countSessions(memberId, SESSION_IDLE_MS) };
  }

  /** Sets `next` if `current` is the member's password (typed from `ip`); every other session of the member ends, this one (`sessionId`) stays. */
  async changePassword(accountId: string, memberId: string, sessionId: string, current: string, next: string, ip: string): Promise<ChangePasswordOutcome> {
    const stored = await this.portal.passwordOfMember(memberId);
    if (!stored) return { kind: 'wrong-password' };
    // Counted before the verification, like a sign-in: a stolen session cannot guess the password faster than the login form can.
    const attempt = await this.lockout.take(stored.email, ip);
    if (attempt.locked) return { kind: 'locked', by: attempt.locked };
    if (!(await this.passwords.verify(current, stored.hash))) {
      const by = this.lockout.failed(stored.email, ip, attempt);
      return by ? { kind: 'locked', by } : { kind: 'wrong-password' };
    }
    await this.lockout.succeeded(stored.email, ip);
    const hash = await this.passwords.hash(next);
    return { kind: 'changed', signedOut: await this.replacePassword(accountId, memberId, hash, sessionId) };
  }

  /** Ends every portal session of the member, the caller's included (other members' stay); answers how many ended. */
  signOutEverywhere(memberId: string): Promise<number> {
    return this.portal.deleteSessionsOf(memberId);
  }

  /**
   * Stores a member's new password hash, ends their sessions (all, or all but `keepSessionId`) and
   * their open reset links, in one transaction; answers how many sessions ended.
   */
  replacePassword(accountId: string, memberId: string, hash: string, keepSessionId?: string): Promise<number> {
    return this.db.run(async () => {
      await this.portal.setPassword(accountId, memberId, hash);
      await this.resets.closeAll(memberId);
      return this.portal.deleteSessionsOf(memberId, keepSessionId === undefined ? undefined : sha256(keepSessionId));
    });
  }
}

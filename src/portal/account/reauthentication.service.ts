import { Injectable } from '@nestjs/common';
import { PasswordHasher } from '../password-hash.js';
import type { Signed } from '../portal-page.js';
import { PortalRepository } from '../portal.repository.js';
import { sha256 } from '../sha256.js';
import { type LockedBy, SignInLockout } from '../sign-in-lockout.js';

export type ReauthOutcome =
  | { kind: 'confirmed' }
  | { kind: 'wrong-password' }
  | { kind: 'locked'; by: LockedBy }
  /** The member has no password (they sign in through SSO): a fresh sign-in is their confirmation. */
  | { kind: 'no-password' };

/**
 * "Confirm your password" (sudo mode): the signed-in member types their password again, and their
 * session counts as re-authenticated for the next 5 minutes (REAUTH_TTL_MS), which changing
 * two-factor sign-in needs. Each try counts against the sign-in lockout, as a sign-in does: a stolen
 * session cannot guess the password here any faster than at the login form.
 */
@Injectable()
export class ReauthenticationService {
  constructor(
    private readonly portal: PortalRepository,
    private readonly passwords: PasswordHasher,
    private readonly lockout: SignInLockout,
  ) {}

  hasPassword(memberId: string): Promise<boolean> {
    return this.portal.passwordOfMember(memberId).then((stored) => stored !== null);
  }

  async confirm(signed: Signed, password: string): Promise<ReauthOutcome> {
    const stored = await this.portal.passwordOfMember(signed.memberId);
    if (!stored) return { kind: 'no-password' };
    const attempt = await this.lockout.take(stored.email, signed.ip);
    if (attempt.locked) return { kind: 'locked', by: attempt.locked };
    if (!(await this.passwords.verify(password, stored.hash))) {
      const by = this.lockout.failed(stored.email, signed.ip, attempt);
      return by ? { kind: 'locked', by } : { kind: 'wrong-password' };
    }
    await this.lockout.succeeded(stored.email, signed.ip);
    await this.portal.markReauthenticated(sha256(signed.sessionId));
    return { kind: 'confirmed' };
  }
}

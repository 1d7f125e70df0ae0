import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { AuditAction } from '../../audit/audit-actions.js';
import { AuditLog } from '../../audit/audit-log.service.js';
import { truncatedIp } from '../../common/client-network.js';
import { Transactions } from '../../database/transactions.js';
import { MfaService } from '../../mfa/mfa.service.js';
import { portalCookie } from '../cookies.js';
import { type LoginOutcome, PortalAuthService } from '../portal-auth.service.js';
import { PortalRepository } from '../portal.repository.js';
import { sha256 } from '../sha256.js';
import { type LockedBy, SignInLockout } from '../sign-in-lockout.js';
import { SecondFactorTicketsRepository } from './second-factor-tickets.repository.js';

/** How long after the right password the code may be typed. */
export const SECOND_FACTOR_TTL_MS = 5 * 60_000;
/** The cookie holding the ticket between the password and the code. */
export const SECOND_FACTOR_COOKIE = 'portal_mfa';
export const SECOND_FACTOR_PATH = '/portal/login/code';

/** Who passed the password step: the ticket's holder. */
export type PasswordPassed = Omit<Extract<LoginOutcome, { kind: 'second-factor' }>, 'kind'>;

export type SecondFactorOutcome = { kind: 'signed-in'; sessionId: string } | { kind: 'invalid' } | { kind: 'locked'; by: LockedBy } | { kind: 'expired' };

/** After the right password, to a member with MFA: the ticket cookie, then the code page (303). */
export async function sendToSecondFactor(reply: FastifyReply, ticket: string, secure: boolean): Promise<void> {
  await reply.header('set-cookie', portalCookie(SECOND_FACTOR_COOKIE, ticket, secure, SECOND_FACTOR_TTL_MS / 1000)).redirect(SECOND_FACTOR_PATH, 303);
}

/**
 * The sign-in's second step for members with MFA: the right password (or the identity provider)
 * yields no session but a ticket — a random id in a cookie of that browser, stored as its hash, 5
 * minutes — and the session starts only once a code passes (MfaService.verify: a TOTP code accepted
 * once, or an unused recovery code). A ticket opens one session: the exchange locks its row, checks
 * the code, marks it used and starts the session in one transaction, so the same ticket sent again,
 * or twice at once, opens nothing more. Each code tried counts against the sign-in lockout of the
 * e-mail and client network (SignInLockout), and each outcome is in the audit log.
 */
@Injectable()
export class PortalSecondFactor {
  constructor(
    private readonly db: Transactions,
    private readonly tickets: SecondFactorTicketsRepository,
    private readonly mfa: MfaService,
    private readonly portal: PortalRepository,
    private readonly auth: PortalAuthService,
    private readonly lockout: SignInLockout,
    private readonly audit: AuditLog,
  ) {}

  /**
   * A new ticket (the cookie's value): who passed the first step, and a fingerprint of their password
   * hash as it is now — a password change or reset in the meantime voids it.
   */
  async ticket(passed: PasswordPassed): Promise<string> {
    const ticket = randomBytes(32).toString('base64url');
    await this.tickets.insert(sha256(ticket), passed.accountId, passed.memberId, await this.passwordFingerprint(passed.memberId), SECOND_FACTOR_TTL_MS);
    return ticket;
  }

  /** Whether the ticket is one not used yet and not expired (the code page shows only then). */
  isOpen(ticket: string | undefined): Promise<boolean> {
    return ticket ? this.tickets.isOpen(sha256(ticket)) : Promise.resolve(false);
  }

  /** The code typed after the password, from `ip`: the new session's id, or why not. */
  exchange(ticket: string | undefined, code: string, ip: string): Promise<SecondFactorOutcome> {
    if (!ticket) return Promise.resolve({ kind: 'expired' });
    const idHash = sha256(ticket);
    return this.db.run(async (): Promise<SecondFactorOutcome> => {
      const held = await this.tickets.hold(idHash);
      if (!held || held.passwordFingerprint !== (await this.passwordFingerprint(held.memberId))) return { kind: 'expired' };
      const audit = (action: AuditAction) =>
        this.audit.record(held.accountId, { type: 'member', id: held.memberId, label: held.email, ip: truncatedIp(ip) }, action, held.memberId);
      const attempt = await this.lockout.take(held.email, ip);
      if (attempt.locked) {
        await audit('sign_in.locked');
        return { kind: 'locked', by: attempt.locked };
      }
      if (!(await this.mfa.verify(held.memberId, code.slice(0, 32)))) {
        const locked = this.lockout.failed(held.email, ip, attempt);
        await audit(locked ? 'sign_in.locked' : 'sign_in.failed');
        return locked ? { kind: 'locked', by: locked } : { kind: 'invalid' };
      }
      await this.tickets.use(idHash);
      await this.lockout.succeeded(held.email, ip);
      await audit('sign_in.succeeded');
      return { kind: 'signed-in', sessionId: await this.auth.startSession(held.accountId, held.memberId) };
    });
  }

  /** A short digest of the member's password hash ('-' without a password: a member who signs in through SSO only). */
  private async passwordFingerprint(memberId: string): Promise<string> {
    const stored = await this.portal.passwordOfMember(memberId);
    return stored ? sha256(`${memberId}\n${stored.hash}`).slice(0, 22) : '-';
  }
}

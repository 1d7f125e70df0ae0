import { Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { AuditAction } from '../../audit/audit-actions.js';
import { AuditLog } from '../../audit/audit-log.service.js';
import { truncatedIp } from '../../common/client-network.js';
import { ServerSecrets } from '../../config/server-secrets.js';
import { MfaService } from '../../mfa/mfa.service.js';
import { portalCookie } from '../cookies.js';
import { LOCKOUT_ATTEMPTS, LOCKOUT_WINDOW_MS, type LoginOutcome, sha256 } from '../portal-auth.service.js';
import { PortalRepository } from '../portal.repository.js';

/** How long after the right password the code may be typed. */
export const SECOND_FACTOR_TTL_MS = 5 * 60_000;
/** The cookie holding the ticket between the password and the code. */
export const SECOND_FACTOR_COOKIE = 'portal_mfa';
export const SECOND_FACTOR_PATH = '/portal/login/code';

/** Who passed the password step: the ticket's content. */
export type PasswordPassed = Omit<Extract<LoginOutcome, { kind: 'second-factor' }>, 'kind'>;

export type SecondFactorOutcome = ({ kind: 'passed' } & PasswordPassed) | { kind: 'invalid' } | { kind: 'locked' } | { kind: 'expired' };

/** After the right password, to a member with MFA: the ticket cookie, then the code page (303). */
export async function sendToSecondFactor(reply: FastifyReply, ticket: string, secure: boolean): Promise<void> {
  await reply.header('set-cookie', portalCookie(SECOND_FACTOR_COOKIE, ticket, secure, SECOND_FACTOR_TTL_MS / 1000)).redirect(SECOND_FACTOR_PATH, 303);
}

/**
 * The sign-in's second step for members with MFA: the right password yields no session but a
 * ticket (HMAC-signed, 5 minutes, in a cookie of that browser), and the session starts only once a
 * code passes (MfaService.verify: a TOTP code accepted once, or an unused recovery code). Each code
 * tried counts against the e-mail's sign-in lockout (5 in 15 minutes), and each outcome is in the
 * audit log (sign-in succeeded, failed or locked).
 */
@Injectable()
export class PortalSecondFactor {
  private readonly key: Buffer;

  constructor(
    private readonly mfa: MfaService,
    private readonly portal: PortalRepository,
    private readonly audit: AuditLog,
    secrets: ServerSecrets,
  ) {
    this.key = secrets.keyFor('portal-second-factor');
  }

  /**
   * The signed ticket: who passed the first step, until when, and a fingerprint of their password hash
   * as it is now — a password change or reset in the meantime voids it.
   */
  async ticket(passed: PasswordPassed, now = Date.now()): Promise<string> {
    const f = await this.passwordFingerprint(passed.memberId);
    const payload = Buffer.from(JSON.stringify({ a: passed.accountId, m: passed.memberId, e: passed.email, f, x: now + SECOND_FACTOR_TTL_MS })).toString(
      'base64url',
    );
    return `${payload}.${this.sign(payload)}`;
  }

  /** The ticket's member if its signature holds and it has not expired (its password fingerprint is checked by `verify`). */
  open(ticket: string | undefined, now = Date.now()): (PasswordPassed & { fingerprint: string }) | null {
    const [payload, signature, extra] = (ticket ?? '').split('.');
    if (!payload || !signature || extra !== undefined) return null;
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const { a, m, e, f, x } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { a: string; m: string; e: string; f: string; x: number };
    return x > now && typeof f === 'string' ? { accountId: a, memberId: m, email: e, fingerprint: f } : null;
  }

  /** The code typed after the password: `passed` (the caller starts the session) or why not. */
  async verify(ticket: string | undefined, code: string, ip: string): Promise<SecondFactorOutcome> {
    const opened = this.open(ticket);
    if (!opened || opened.fingerprint !== (await this.passwordFingerprint(opened.memberId))) return { kind: 'expired' };
    const { fingerprint: _checked, ...passed } = opened;
    const audit = (action: AuditAction) =>
      this.audit.record(passed.accountId, { type: 'member', id: passed.memberId, label: passed.email, ip: truncatedIp(ip) }, action, passed.memberId);
    const emailHash = sha256(passed.email);
    const attempt = await this.portal.takeSignInAttempt(emailHash, LOCKOUT_WINDOW_MS, LOCKOUT_ATTEMPTS);
    if (attempt === null) {
      await audit('sign_in.locked');
      return { kind: 'locked' };
    }
    if (!(await this.mfa.verify(passed.memberId, code.slice(0, 32)))) {
      const locked = attempt >= LOCKOUT_ATTEMPTS;
      await audit(locked ? 'sign_in.locked' : 'sign_in.failed');
      return { kind: locked ? 'locked' : 'invalid' };
    }
    await this.portal.clearSignInAttempts(emailHash);
    await audit('sign_in.succeeded');
    return { kind: 'passed', ...passed };
  }

  /** A short digest of the member's password hash ('-' without a password: a member who signs in through SSO only). */
  private async passwordFingerprint(memberId: string): Promise<string> {
    const stored = await this.portal.passwordOfMember(memberId);
    return stored ? sha256(`${memberId}\n${stored.hash}`).slice(0, 22) : '-';
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}

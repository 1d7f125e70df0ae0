import { Injectable } from '@nestjs/common';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppConfig } from '../config/app-config.js';
import { ServerSecrets } from '../config/server-secrets.js';
import { Transactions } from '../database/transactions.js';
import { hashPassword, verifyPassword } from './password-hash.js';
import { PortalRepository } from './portal.repository.js';

export const INVITE_TTL_MS = 7 * 86_400_000;
export const SESSION_IDLE_MS = 12 * 3_600_000;
export const MIN_PASSWORD_LENGTH = 12;
const LOCKOUT_FAILURES = 5;
const LOCKOUT_WINDOW_MS = 15 * 60_000;

export type LoginOutcome = { kind: 'signed-in'; sessionId: string } | { kind: 'invalid' } | { kind: 'locked' };

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Sign-in to the portal: single-use invites (7 days) to set a password, scrypt-hashed passwords,
 * server-side sessions (12 h idle; only the id's hash is stored, so a database leak opens no
 * session), CSRF tokens bound to the session, and a lockout: 5 wrong passwords in 15 minutes lock
 * that e-mail for 15 minutes.
 */
@Injectable()
export class PortalAuthService {
  private readonly csrfKey: Buffer;

  constructor(
    private readonly db: Transactions,
    private readonly portal: PortalRepository,
    private readonly config: AppConfig,
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

  async inviteIsOpen(token: string): Promise<boolean> {
    return this.db.run(async () => (await this.portal.openInvite(sha256(token))) !== null);
  }

  /** Sets the password through an open invite (then used up) and signs in; null if the invite is not open. */
  async acceptInvite(token: string, password: string): Promise<string | null> {
    const hash = await hashPassword(password);
    return this.db.run(async () => {
      const accountId = await this.portal.openInvite(sha256(token));
      if (!accountId) return null;
      await this.portal.useInvite(sha256(token));
      await this.portal.setPassword(accountId, hash);
      return this.startSession(accountId);
    });
  }

  async login(email: string, password: string): Promise<LoginOutcome> {
    const emailHash = sha256(email.trim().toLowerCase());
    const failures = await this.portal.failuresSince(emailHash, new Date(Date.now() - LOCKOUT_WINDOW_MS));
    if (failures.count >= LOCKOUT_FAILURES) return { kind: 'locked' };
    const stored = await this.portal.passwordOf(email.trim().toLowerCase());
    // The same work whether or not the e-mail is known: timing tells nothing.
    const ok = stored ? await verifyPassword(password, stored.hash) : (await verifyPassword(password, DUMMY_HASH), false);
    if (!stored || !ok) {
      await this.portal.recordFailure(emailHash);
      return failures.count + 1 >= LOCKOUT_FAILURES ? { kind: 'locked' } : { kind: 'invalid' };
    }
    await this.portal.clearFailures(emailHash);
    return { kind: 'signed-in', sessionId: await this.startSession(stored.accountId) };
  }

  /** The session's account, or null if there is none or it was idle for 12 h. */
  sessionAccount(sessionId: string | undefined): Promise<string | null> {
    if (!sessionId) return Promise.resolve(null);
    return this.portal.touchSession(sha256(sessionId), SESSION_IDLE_MS);
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

  private async startSession(accountId: string): Promise<string> {
    const sessionId = randomBytes(32).toString('base64url');
    await this.portal.insertSession(sha256(sessionId), accountId);
    return sessionId;
  }
}

/** Verified against when the e-mail is unknown, so a sign-in takes as long either way. */
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

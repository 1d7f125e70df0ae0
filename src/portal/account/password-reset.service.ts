import { Injectable } from '@nestjs/common';
import { escapeHtml } from '../../mail/mail-html.js';
import { randomBytes } from 'node:crypto';
import { AppConfig } from '../../config/app-config.js';
import { Transactions } from '../../database/transactions.js';
import { Mailer } from '../../mail/mailer.js';
import { RateLimiter } from '../../rate-limit/rate-limiter.js';
import { PasswordHasher } from '../password-hash.js';
import { sha256 } from '../portal-auth.service.js';
import { SignInLockout } from '../sign-in-lockout.js';
import { SignInRateLimit } from '../sign-in-rate-limit.js';
import { PasswordResetsRepository } from './password-resets.repository.js';
import { PortalAccountService } from './portal-account.service.js';

export const RESET_TTL_MS = 3_600_000;
/** Reset e-mails asked for one address (known or not) per RESET_WINDOW_MS. */
export const RESETS_PER_ADDRESS = 3;
export const RESET_WINDOW_MS = 15 * 60_000;
/** Where a reset link opens; the token follows. */
export const RESET_PATH = '/portal/reset-password/';

/**
 * "Forgot password": a link e-mailed to the account's address (built on PUBLIC_URL, never on the
 * request's Host), valid 1 hour and once — only its token's hash is stored, and using it (or any
 * new password) closes the account's other links. Asking answers the same, as fast, whether the
 * address has an account or not: the look-up and the e-mail happen after the answer
 * (`Mailer.later`). Asking counts against the client's sign-in limit and the address's own (3 in
 * 15 minutes), so nobody floods a mailbox; a link opened or used counts against the client's too.
 */
@Injectable()
export class PasswordResetService {
  constructor(
    private readonly db: Transactions,
    private readonly resets: PasswordResetsRepository,
    private readonly account: PortalAccountService,
    private readonly passwords: PasswordHasher,
    private readonly mailer: Mailer,
    private readonly limiter: RateLimiter,
    private readonly signInLimit: SignInRateLimit,
    private readonly lockout: SignInLockout,
    private readonly config: AppConfig,
  ) {}

  /** Whether this server can e-mail (SMTP_URL): without it, there are no reset links, and the page says whom to ask. */
  get available(): boolean {
    return this.mailer.configured;
  }

  /**
   * Counts the ask against the client's and the address's limits (RateLimitError past either), then,
   * once the caller has answered, e-mails a link if the address has an account. False: no SMTP_URL.
   */
  async request(email: string, ip: string): Promise<boolean> {
    if (!this.available) return false;
    const address = email.trim().toLowerCase();
    await this.signInLimit.consume(ip);
    await this.limiter.consume([{ key: `portal-reset:email:${sha256(address)}`, limit: RESETS_PER_ADDRESS, ttlMs: RESET_WINDOW_MS }]);
    this.mailer.later(() => this.sendLink(address));
    return true;
  }

  /** Counts a link opened or used against the client's sign-in limit (RateLimitError past it): links are credentials. */
  countTry(ip: string): Promise<void> {
    return this.signInLimit.consume(ip);
  }

  async isOpen(token: string): Promise<boolean> {
    return this.db.run(async () => (await this.resets.open(sha256(token))) !== null);
  }

  /** Sets the password through an open link (then closed), ending every session of the login; false if the link is not open. */
  async reset(token: string, password: string): Promise<boolean> {
    // No scrypt run for a token that opens nothing (checked again, locked, below: it may be used meanwhile).
    if (!(await this.isOpen(token))) return false;
    const hash = await this.passwords.hash(password);
    return this.db.run(async () => {
      const login = await this.resets.open(sha256(token));
      if (!login) return false;
      await this.account.replacePassword(login.accountId, login.memberId, hash);
      // The mailbox's owner proved who they are: a lockout from someone else's guesses ends too.
      await this.lockout.reset(login.email);
      return true;
    });
  }

  /** Issues a link for the address's member, if there is one, and e-mails it to the member's stored address. */
  private async sendLink(address: string): Promise<void> {
    const login = await this.resets.memberOf(address);
    if (!login) return;
    const token = randomBytes(32).toString('base64url');
    await this.resets.insert(sha256(token), login, new Date(Date.now() + RESET_TTL_MS));
    const link = `${this.config.publicUrl}${RESET_PATH}${token}`;
    await this.mailer.send({ to: login.email, ...resetEmail(this.config.publicUrl, link) });
  }
}

/** The reset e-mail's subject and bodies. */
function resetEmail(site: string, link: string): { subject: string; text: string; html: string } {
  const text = [
    `Someone, hopefully you, asked to reset the password of your developer portal account at ${site}.`,
    '',
    'Set a new password here (the link works once, within 1 hour):',
    link,
    '',
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  ].join('\n');
  const html = [
    `<p>Someone, hopefully you, asked to reset the password of your developer portal account at ${escapeHtml(site)}.</p>`,
    `<p><a href="${escapeHtml(link)}">Set a new password</a> (the link works once, within 1 hour):<br>${escapeHtml(link)}</p>`,
    '<p>If you did not ask for this, ignore this e-mail: your password stays as it is.</p>',
  ].join('\n');
  return { subject: 'Reset your developer portal password', text, html };
}

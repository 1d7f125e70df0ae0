import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AppConfig } from '../../config/app-config.js';
import { Transactions } from '../../database/transactions.js';
import { escapeHtml } from '../../mail/mail-html.js';
import { Mailer } from '../../mail/mailer.js';
import { sha256 } from '../sha256.js';
import { PasswordResetsRepository } from './password-resets.repository.js';
import { UnlockLinksRepository } from './unlock-links.repository.js';

export const UNLOCK_TTL_MS = 3_600_000;
/** At most one unlock e-mail per member in this time: a lock tripped again and again (a botnet) sends one. */
export const UNLOCK_MAIL_EVERY_MS = 15 * 60_000;
/** Where an unlock link opens; the token follows. */
export const UNLOCK_PATH = '/portal/unlock/';

/**
 * The e-mail a member gets when sign-in with their e-mail is locked: a link (built on PUBLIC_URL)
 * that clears the lock, valid 1 hour and once — only its token's hash is stored — at most one e-mail
 * every 15 minutes per member (a newer link replaces the older). Sent after the answer, alike
 * whether the e-mail has an account or not; without SMTP_URL nothing is sent (the lock ends by itself).
 */
@Injectable()
export class UnlockLinks {
  constructor(
    private readonly db: Transactions,
    private readonly links: UnlockLinksRepository,
    private readonly logins: PasswordResetsRepository,
    private readonly mailer: Mailer,
    private readonly config: AppConfig,
  ) {}

  /** Whether this server can e-mail unlock links (SMTP_URL). */
  get available(): boolean {
    return this.mailer.configured;
  }

  /**
   * Once the caller has answered (and its transaction, if any, has committed), e-mails an unlock
   * link to the member who signs in with `email`, if there is one and no link went to them lately.
   * `network`: where the attempt that met the lock came from, as the audit log keeps it.
   */
  mailLater(email: string, network: string): void {
    if (!this.available) return;
    const send = () => this.mailer.later(() => this.mail(email, network));
    // A task started inside a transaction would run its queries on that transaction's connection.
    if (this.db.active) this.db.afterCommit(send);
    else send();
  }

  /** A new link for the member signing in with `email` (null: no such member, or one was made within 15 minutes). */
  async linkFor(email: string): Promise<{ link: string; to: string } | null> {
    const login = await this.logins.memberOf(email.trim().toLowerCase());
    if (!login) return null;
    const token = randomBytes(32).toString('base64url');
    if (!(await this.links.issue(sha256(token), login, UNLOCK_TTL_MS, UNLOCK_MAIL_EVERY_MS))) return null;
    return { link: `${this.config.publicUrl}${UNLOCK_PATH}${token}`, to: login.email };
  }

  private async mail(email: string, network: string): Promise<void> {
    const issued = await this.linkFor(email);
    if (issued) await this.mailer.send({ to: issued.to, ...unlockEmail(this.config.publicUrl, issued.to, network, issued.link) });
  }
}

/** The unlock e-mail's subject and bodies. */
function unlockEmail(site: string, email: string, network: string, link: string): { subject: string; text: string; html: string } {
  const text = [
    `Sign-in to your developer portal account at ${site} (${email}) was locked after too many wrong passwords or codes; the attempt that met the lock came from the network ${network}.`,
    '',
    'If that was you, unlock it here (the link works once, within 1 hour). The network you open it from then signs in even while others keep guessing:',
    link,
    '',
    'If it was not you, someone is guessing your password: the lock holds them back, and you need not do anything. Networks you signed in from before are not locked by their guesses. Two-factor sign-in (Account, then Two-factor sign-in) keeps a guessed password from being enough.',
  ].join('\n');
  const html = [
    `<p>Sign-in to your developer portal account at ${escapeHtml(site)} (${escapeHtml(email)}) was locked after too many wrong passwords or codes; the attempt that met the lock came from the network ${escapeHtml(network)}.</p>`,
    `<p>If that was you, <a href="${escapeHtml(link)}">unlock it</a> (the link works once, within 1 hour). The network you open it from then signs in even while others keep guessing:<br>${escapeHtml(link)}</p>`,
    '<p>If it was not you, someone is guessing your password: the lock holds them back, and you need not do anything. Networks you signed in from before are not locked by their guesses. Two-factor sign-in (Account, then Two-factor sign-in) keeps a guessed password from being enough.</p>',
  ].join('\n');
  return { subject: 'Sign-in to your developer portal was locked', text, html };
}

import { Injectable } from '@nestjs/common';
import { escapeHtml } from '../mail/mail-html.js';
import { Mailer } from '../mail/mailer.js';

export interface InvitationLetter {
  to: string;
  /** The e-mail of the account invited to (how the invitee recognises it). */
  accountEmail: string;
  role: string;
  url: string;
  expiresAt: Date;
}

/**
 * Sends an invitation's link by e-mail over SMTP_URL. Answers whether it did: when it did not (no
 * SMTP_URL, or the SMTP server failed: the Mailer logs why), the link is in the answer instead, once.
 */
@Injectable()
export class InvitationMail {
  constructor(private readonly mailer: Mailer) {}

  /** Whether this server e-mails invitations (SMTP_URL). */
  get configured(): boolean {
    return this.mailer.configured;
  }

  async send(letter: InvitationLetter): Promise<boolean> {
    if (!this.mailer.configured) return false;
    return (await this.mailer.send({ to: letter.to, ...invitationEmail(letter) })).sent;
  }
}

/** The invitation e-mail's subject and bodies. */
export function invitationEmail(letter: InvitationLetter): { subject: string; text: string; html: string } {
  const until = letter.expiresAt.toISOString().slice(0, 16).replace('T', ' ');
  const text = [
    `You are invited to join the developer portal account ${letter.accountEmail} as ${letter.role}.`,
    '',
    `Join here (the link works once, for this e-mail address only, until ${until} UTC):`,
    letter.url,
    '',
    'If you did not expect this, ignore this e-mail: nothing happens unless the link is used.',
  ].join('\n');
  const html = [
    `<p>You are invited to join the developer portal account ${escapeHtml(letter.accountEmail)} as <strong>${escapeHtml(letter.role)}</strong>.</p>`,
    `<p><a href="${escapeHtml(letter.url)}">Join the account</a> (the link works once, for this e-mail address only, until ${until} UTC):<br>${escapeHtml(letter.url)}</p>`,
    '<p>If you did not expect this, ignore this e-mail: nothing happens unless the link is used.</p>',
  ].join('\n');
  return { subject: `You are invited to ${letter.accountEmail}'s developer portal`, text, html };
}

import { Injectable } from '@nestjs/common';

export interface InvitationLetter {
  to: string;
  /** The e-mail of the account invited to (how the invitee recognises it). */
  accountEmail: string;
  role: string;
  url: string;
  expiresAt: Date;
}

/**
 * Sends an invitation's link by e-mail. Answers whether it did: when it did not (no SMTP_URL), the
 * link is in the API's answer instead, once. The one place to wire the service's mailer.
 */
@Injectable()
export class InvitationMail {
  // No mailer on this server yet: every link is shown once instead.
  send(_letter: InvitationLetter): Promise<boolean> {
    return Promise.resolve(false);
  }
}

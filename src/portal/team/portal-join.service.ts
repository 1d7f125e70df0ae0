import { Injectable } from '@nestjs/common';
import { AccountsService } from '../../accounts/accounts.service.js';
import type { Role } from '../../common/request-context/roles.js';
import { MembersError, MembersErrorCode } from '../../members/members.errors.js';
import { MembersService } from '../../members/members.service.js';
import { PasswordHasher } from '../password-hash.js';
import { PortalAuthService } from '../portal-auth.service.js';
import { PortalRepository } from '../portal.repository.js';
import { SsoSettingsService } from '../../sso/sso-settings.service.js';

export type JoinOutcome =
  | { kind: 'joined'; sessionId: string }
  /** Used, expired or unknown. */
  | { kind: 'not-open' }
  /** The e-mail typed is not the one invited (a forwarded link opens nothing). */
  | { kind: 'wrong-email' }
  | { kind: 'already-member' }
  /** The account requires single sign-on: no password is set; the invitee signs in through the provider. */
  | { kind: 'sso-required' };

/**
 * Joining an account through an invitation's link in the portal: the invited e-mail typed again
 * and a password of one's own; the member, their password and their first session are made in one
 * transaction (MembersService.join), so a failure leaves the invitation open.
 */
@Injectable()
export class PortalJoinService {
  constructor(
    private readonly members: MembersService,
    private readonly accounts: AccountsService,
    private readonly passwords: PasswordHasher,
    private readonly portal: PortalRepository,
    private readonly auth: PortalAuthService,
    private readonly sso: SsoSettingsService,
  ) {}

  /** What the join page shows: the account (its e-mail) and the role, or null if the link is not open. */
  async invitation(token: string): Promise<{ accountEmail: string; role: Role; ssoRequired: boolean } | null> {
    const invitation = await this.members.invitation(token);
    if (!invitation) return null;
    const ssoRequired = await this.sso.requiredFor(invitation.accountId);
    return { accountEmail: (await this.accounts.get(invitation.accountId)).email, role: invitation.role, ssoRequired };
  }

  async join(token: string, email: string, password: string, ip: string): Promise<JoinOutcome> {
    // No scrypt run for a link that opens nothing (join checks it again, locked).
    const invitation = await this.members.invitation(token);
    if (!invitation) return { kind: 'not-open' };
    // A password would be refused at every sign-in: the invitee joins through the provider instead.
    if (await this.sso.requiredFor(invitation.accountId)) return { kind: 'sso-required' };
    const hash = await this.passwords.hash(password);
    let sessionId = '';
    try {
      await this.members.join(token, email, ip, async (member) => {
        await this.portal.setPassword(member.accountId, member.id, hash);
        sessionId = await this.auth.startSession(member.accountId, member.id);
      });
    } catch (err) {
      if (!(err instanceof MembersError)) throw err;
      if (err.reason === MembersErrorCode.InvitationForAnotherEmail) return { kind: 'wrong-email' };
      if (err.reason === MembersErrorCode.AlreadyMember) return { kind: 'already-member' };
      return { kind: 'not-open' };
    }
    return { kind: 'joined', sessionId };
  }
}

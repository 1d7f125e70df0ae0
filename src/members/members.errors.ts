import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const MembersErrorCode = errorCodes({
  NotFound: ['member_not_found', 404],
  LastOwner: ['last_owner', 409],
  OwnersOnly: ['owners_only', 403],
  AlreadyMember: ['already_member', 409],
  InvitationNotOpen: ['invitation_not_open', 404],
  InvitationForAnotherEmail: ['invitation_email_mismatch', 403],
  InvitationNotFound: ['invitation_not_found', 404],
  InvitationMailLimit: ['invitation_mail_limit', 429],
});
export type MembersErrorCode = ErrorCode<typeof MembersErrorCode>;

/** Members and invitations. Messages never carry an e-mail address. */
export class MembersError extends PlatformError.of(MembersErrorCode) {
  static notFound(id: string): MembersError {
    return new MembersError(MembersErrorCode.NotFound, `Member ${id} not found`);
  }

  static lastOwner(): MembersError {
    return new MembersError(MembersErrorCode.LastOwner, 'An account keeps at least one owner: make another member owner first');
  }

  static ownersOnly(role: string): MembersError {
    return new MembersError(MembersErrorCode.OwnersOnly, `The role ${role} does not allow making, demoting or removing an owner: only an owner does`, {
      body: { role },
    });
  }

  static alreadyMember(): MembersError {
    return new MembersError(MembersErrorCode.AlreadyMember, 'This e-mail is a member of an account already');
  }

  static invitationNotOpen(): MembersError {
    return new MembersError(
      MembersErrorCode.InvitationNotOpen,
      'This invitation was used already, has expired, was revoked, grants more than its sender may now give, or does not exist',
    );
  }

  static invitationForAnotherEmail(): MembersError {
    return new MembersError(MembersErrorCode.InvitationForAnotherEmail, 'This invitation is for another e-mail address');
  }

  static invitationNotFound(id: string): MembersError {
    return new MembersError(MembersErrorCode.InvitationNotFound, `No pending invitation ${id}: it was used, has expired, was revoked, or does not exist`);
  }

  /** The address got its allowance of invitation e-mails lately (any account's): `retryAfter` seconds until the next may go. */
  static invitationMailLimit(max: number, windowMinutes: number, retryAfter: number): MembersError {
    return new MembersError(
      MembersErrorCode.InvitationMailLimit,
      `This address got ${max} invitation e-mails in the last ${windowMinutes} minutes already: invite it again in ${retryAfter} s`,
      { headers: { 'retry-after': String(retryAfter) } },
    );
  }
}

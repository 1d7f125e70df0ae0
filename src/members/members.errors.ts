import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const MembersErrorCode = errorCodes({
  NotFound: ['member_not_found', 404],
  LastOwner: ['last_owner', 409],
  OwnersOnly: ['owners_only', 403],
  AlreadyMember: ['already_member', 409],
  InvitationNotOpen: ['invitation_not_open', 404],
  InvitationForAnotherEmail: ['invitation_email_mismatch', 403],
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
    return new MembersError(MembersErrorCode.InvitationNotOpen, 'This invitation was used already, has expired or does not exist');
  }

  static invitationForAnotherEmail(): MembersError {
    return new MembersError(MembersErrorCode.InvitationForAnotherEmail, 'This invitation is for another e-mail address');
  }
}

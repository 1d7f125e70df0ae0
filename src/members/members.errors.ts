import { PlatformError } from '../common/errors/platform-error.js';

export enum MembersErrorCode {
  NotFound = 'member_not_found',
  LastOwner = 'last_owner',
  OwnersOnly = 'owners_only',
  AlreadyMember = 'already_member',
  InvitationNotOpen = 'invitation_not_open',
  InvitationForAnotherEmail = 'invitation_email_mismatch',
}

/** Members and invitations. Messages never carry an e-mail address. */
export class MembersError extends PlatformError<MembersErrorCode> {
  protected readonly statuses = {
    [MembersErrorCode.NotFound]: 404,
    [MembersErrorCode.LastOwner]: 409,
    [MembersErrorCode.OwnersOnly]: 403,
    [MembersErrorCode.AlreadyMember]: 409,
    [MembersErrorCode.InvitationNotOpen]: 404,
    [MembersErrorCode.InvitationForAnotherEmail]: 403,
  };

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

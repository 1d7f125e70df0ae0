import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { AccountsService } from '../accounts/accounts.service.js';
import { AuditLog } from '../audit/audit-log.service.js';
import { MemberCredentials } from '../auth/member-credentials.service.js';
import { newId } from '../common/ids.js';
import { truncatedIp } from '../common/client-network.js';
import { Page, PageRequest, toPage } from '../common/pagination/page.js';
import type { Actor } from '../common/request-context/actor.js';
import { requireOwnerMember } from '../common/request-context/owner-member.js';
import type { Principal } from '../common/request-context/principal.js';
import { NO_CREATOR_ROLE, type Role, ROLES, roleWithin } from '../common/request-context/roles.js';
import { AppConfig } from '../config/app-config.js';
import { isUniqueViolation } from '../database/postgres-errors.js';
import { Transactions } from '../database/transactions.js';
import { InvitationDto, MemberDto, PendingInvitationDto, toMemberDto, toPendingInvitationDto } from './dto/member.dto.js';
import { InvitationMail } from './invitation-mail.js';
import type { Member } from './member.entity.js';
import { MembersError } from './members.errors.js';
import { Invitation, MembersRepository, OpenInvitation } from './members.repository.js';

export const INVITATION_TTL_MS = 7 * 86_400_000;
/** At most this many invitation e-mails to one address (from any account) per window: a link can be sent again, not a flood. */
export const INVITATION_MAILS_PER_ADDRESS = 3;
export const INVITATION_MAIL_WINDOW_MS = 15 * 60_000;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const normalised = (email: string) => email.trim().toLowerCase();

/**
 * An account's members: invitations (single use, for one e-mail, 7 days; e-mailed when the server
 * can, else the link is answered once; listed and revocable while pending), role changes and
 * removals. An account always keeps an owner, and only an owner *member* — signed in to the portal,
 * never a credential — makes, demotes or removes one (`requireOwnerMember`). An invitation never
 * grants more than its sender's role when it is used; a credential no member created sends at most
 * an admin's invitations (NO_CREATOR_ROLE). A member's role change bounds, and their removal revokes,
 * every credential and pending invitation they created.
 *
 * Locks, always in this order so that none waits on another in a circle: the account's owners, then
 * the member concerned, then invitations. Accepting an invitation holds its sender's row (FOR SHARE)
 * before the invitation's, so a demotion or removal of the sender and the acceptance run one after the other.
 */
@Injectable()
export class MembersService {
  constructor(
    private readonly db: Transactions,
    private readonly members: MembersRepository,
    private readonly credentials: MemberCredentials,
    private readonly audit: AuditLog,
    private readonly mail: InvitationMail,
    private readonly config: AppConfig,
    private readonly accounts: AccountsService,
  ) {}

  async list(accountId: string, page: PageRequest): Promise<Page<MemberDto>> {
    return toPage(await this.members.list(accountId, page), page, toMemberDto);
  }

  async invite(principal: Principal, actor: Actor, email: string, role: Role): Promise<InvitationDto> {
    if (role === 'owner') requireOwnerMember(principal, 'owners:manage', (r) => MembersError.ownersOnly(r ?? 'removed member'));
    const address = normalised(email);
    if (await this.members.emailTaken(address)) throw MembersError.alreadyMember();
    const token = randomBytes(24).toString('base64url');
    const invitation: Invitation = {
      id: newId('inv'),
      accountId: principal.accountId,
      email: address,
      role,
      invitedBy: principal.member?.id ?? null,
      expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
    };
    const mailing = this.mail.configured;
    await this.db.run(async () => {
      if (mailing) await this.withinMailAllowance(address);
      await this.members.insertInvitation(invitation, sha256(token), mailing);
      await this.audit.record(principal.accountId, actor, 'member.invited', invitation.id);
    });
    const url = `${this.config.publicUrl}/portal/join/${token}`;
    const accountEmail = (await this.accounts.get(principal.accountId)).email;
    const emailed = mailing && (await this.mail.send({ to: address, accountEmail, role, url, expiresAt: invitation.expiresAt }));
    return { id: invitation.id, email: address, role, expiresAt: invitation.expiresAt.toISOString(), emailed, invitationUrl: emailed ? null : url };
  }

  /** 429 once the address got INVITATION_MAILS_PER_ADDRESS e-mails within the window (invitations to it at once are counted one by one). */
  private async withinMailAllowance(address: string): Promise<void> {
    const recent = await this.members.lockMailedTo(address, INVITATION_MAIL_WINDOW_MS, INVITATION_MAILS_PER_ADDRESS);
    if (recent.length < INVITATION_MAILS_PER_ADDRESS) return;
    // When the oldest of those leaves the window, one more may go.
    const retryAfter = Math.max(1, recent[recent.length - 1].secondsLeft);
    throw MembersError.invitationMailLimit(INVITATION_MAILS_PER_ADDRESS, INVITATION_MAIL_WINDOW_MS / 60_000, retryAfter);
  }

  /** The account's pending invitations, newest first. */
  async pendingInvitations(accountId: string, page: PageRequest): Promise<Page<PendingInvitationDto>> {
    return toPage(await this.members.pendingInvitations(accountId, page), page, toPendingInvitationDto);
  }

  /** Revokes a pending invitation: its link opens nothing from now on. 404 for one used, expired, revoked or of another account. */
  async revokeInvitation(accountId: string, actor: Actor, id: string): Promise<void> {
    await this.db.run(async () => {
      if (!(await this.members.revokeInvitation(accountId, id))) throw MembersError.invitationNotFound(id);
      await this.audit.record(accountId, actor, 'member.invitation_revoked', id);
    });
  }

  /** The open invitation of a link, or null (used, expired, revoked, unknown, or above what its sender may now give). */
  async invitation(token: string): Promise<Invitation | null> {
    const invitation = await this.members.openInvitation(sha256(token));
    return invitation && grantable(invitation) ? invitation : null;
  }

  /**
   * Joins through an invitation: `email` must be the invitation's (a forwarded link opens nothing),
   * and its role must still be within its sender's current role (else it is not open).
   * `withMember` runs in the same transaction with the new member (to set their password).
   */
  async join(token: string, email: string, ip: string | null, withMember: (member: Member) => Promise<void> = async () => undefined): Promise<Member> {
    try {
      return await this.db.run(async () => {
        const seen = await this.members.openInvitation(sha256(token));
        if (!seen) throw MembersError.invitationNotOpen();
        // The sender's row first, then the invitation's (the order every writer takes); then read both again.
        if (seen.invitedBy) await this.members.holdRole(seen.invitedBy);
        const invitation = await this.members.openInvitation(sha256(token), true);
        if (!invitation) throw MembersError.invitationNotOpen();
        if (invitation.email !== normalised(email)) throw MembersError.invitationForAnotherEmail();
        if (!grantable(invitation)) throw MembersError.invitationNotOpen();
        await this.members.acceptInvitation(invitation.id);
        const member = await this.members.insert({ id: newId('mem'), accountId: invitation.accountId, email: invitation.email, role: invitation.role });
        await withMember(member);
        await this.audit.record(
          invitation.accountId,
          { type: 'member', id: member.id, label: member.email, ip: ip === null ? null : truncatedIp(ip) },
          'member.joined',
          member.id,
        );
        return member;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw MembersError.alreadyMember();
      throw err;
    }
  }

  /**
   * Changes a role; making or demoting an owner takes an owner member. The member's pending
   * invitations above the new role are revoked, and their credentials are bounded by it from their
   * next request on every instance.
   */
  async changeRole(principal: Principal, actor: Actor, id: string, role: Role): Promise<MemberDto> {
    const member = await this.db.run(async () => {
      const owners = await this.members.lockOwners(principal.accountId);
      const member = await this.members.lockForUpdate(principal.accountId, id);
      if (!member) throw MembersError.notFound(id);
      if (member.role === role) return member;
      if (member.role === 'owner' || role === 'owner') requireOwnerMember(principal, 'owners:manage', (r) => MembersError.ownersOnly(r ?? 'removed member'));
      if (member.role === 'owner' && owners.length === 1) throw MembersError.lastOwner();
      await this.members.setRole(id, role);
      await this.audit.record(principal.accountId, actor, 'member.role_changed', id);
      await this.revokeInvitationsSentBy(
        principal.accountId,
        actor,
        id,
        ROLES.filter((r) => roleWithin(r, role)),
      );
      return { ...member, role };
    });
    await this.credentials.forgetCreatedBy(id);
    return toMemberDto(member);
  }

  /**
   * Removes a member: their portal sessions end (the sessions' rows go with the member's), and the
   * API keys and service accounts (with their tokens) they created and the invitations they sent
   * are revoked, each audited.
   */
  async remove(principal: Principal, actor: Actor, id: string): Promise<void> {
    await this.db.run(async () => {
      const owners = await this.members.lockOwners(principal.accountId);
      const member = await this.members.lockForUpdate(principal.accountId, id);
      if (!member) throw MembersError.notFound(id);
      if (member.role === 'owner') {
        requireOwnerMember(principal, 'owners:manage', (r) => MembersError.ownersOnly(r ?? 'removed member'));
        if (owners.length === 1) throw MembersError.lastOwner();
      }
      await this.credentials.revokeCreatedBy(principal.accountId, actor, id);
      await this.revokeInvitationsSentBy(principal.accountId, actor, id);
      await this.members.delete(id);
      await this.audit.record(principal.accountId, actor, 'member.removed', id);
    });
  }

  /** In the caller's transaction: revokes the member's pending invitations but those granting a role of `keep`. */
  private async revokeInvitationsSentBy(accountId: string, actor: Actor, memberId: string, keep: readonly Role[] = []): Promise<void> {
    for (const revoked of await this.members.revokeInvitationsSentBy(memberId, keep))
      await this.audit.record(accountId, actor, 'member.invitation_revoked', revoked);
  }
}

/** Whether the invitation's role is within what its sender may give now: their current role, or NO_CREATOR_ROLE when no member sent it. */
function grantable(invitation: OpenInvitation): boolean {
  const bound = invitation.invitedBy === null ? NO_CREATOR_ROLE : invitation.senderRole;
  return bound !== null && roleWithin(invitation.role, bound);
}

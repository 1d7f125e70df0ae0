import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { AccountsService } from '../accounts/accounts.service.js';
import { AuditLog } from '../audit/audit-log.service.js';
import { ApiKeysService } from '../auth/api-keys.service.js';
import { newId } from '../common/ids.js';
import { truncatedIp } from '../common/client-network.js';
import { Page, PageRequest, toPage } from '../common/pagination/page.js';
import type { Actor } from '../common/request-context/actor.js';
import type { Principal } from '../common/request-context/principal.js';
import { roleAllows, type Role } from '../common/request-context/roles.js';
import { AppConfig } from '../config/app-config.js';
import { isUniqueViolation } from '../database/postgres-errors.js';
import { Transactions } from '../database/transactions.js';
import { InvitationDto, MemberDto, toMemberDto } from './dto/member.dto.js';
import { InvitationMail } from './invitation-mail.js';
import type { Member } from './member.entity.js';
import { MembersError } from './members.errors.js';
import { Invitation, MembersRepository } from './members.repository.js';

export const INVITATION_TTL_MS = 7 * 86_400_000;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const normalised = (email: string) => email.trim().toLowerCase();

/**
 * An account's members: invitations (single use, for one e-mail, 7 days; e-mailed when the server
 * can, else the link is answered once), role changes and removals. An account always keeps an
 * owner, and only an owner makes, demotes or removes one. A credential with no member behind it
 * (a key from before teams, the operator's) acts for the account as its owner would.
 */
@Injectable()
export class MembersService {
  constructor(
    private readonly db: Transactions,
    private readonly members: MembersRepository,
    private readonly apiKeys: ApiKeysService,
    private readonly audit: AuditLog,
    private readonly mail: InvitationMail,
    private readonly config: AppConfig,
    private readonly accounts: AccountsService,
  ) {}

  async list(accountId: string, page: PageRequest): Promise<Page<MemberDto>> {
    return toPage(await this.members.list(accountId, page), page, toMemberDto);
  }

  async invite(principal: Principal, actor: Actor, email: string, role: Role): Promise<InvitationDto> {
    if (role === 'owner') this.mayManageOwners(principal);
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
    await this.db.run(async () => {
      await this.members.insertInvitation(invitation, sha256(token));
      await this.audit.record(principal.accountId, actor, 'member.invited', invitation.id);
    });
    const url = `${this.config.publicUrl}/portal/join/${token}`;
    const accountEmail = (await this.accounts.get(principal.accountId)).email;
    const emailed = await this.mail.send({ to: address, accountEmail, role, url, expiresAt: invitation.expiresAt });
    return { id: invitation.id, email: address, role, expiresAt: invitation.expiresAt.toISOString(), emailed, invitationUrl: emailed ? null : url };
  }

  /** The open invitation of a link, or null (used, expired, unknown). */
  invitation(token: string): Promise<Invitation | null> {
    return this.members.openInvitation(sha256(token));
  }

  /**
   * Joins through an invitation: `email` must be the invitation's (a forwarded link opens nothing).
   * `withMember` runs in the same transaction with the new member (to set their password).
   */
  async join(token: string, email: string, ip: string | null, withMember: (member: Member) => Promise<void> = async () => undefined): Promise<Member> {
    try {
      return await this.db.run(async () => {
        const invitation = await this.members.openInvitation(sha256(token), true);
        if (!invitation) throw MembersError.invitationNotOpen();
        if (invitation.email !== normalised(email)) throw MembersError.invitationForAnotherEmail();
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

  async changeRole(principal: Principal, actor: Actor, id: string, role: Role): Promise<MemberDto> {
    const member = await this.db.run(async () => {
      const owners = await this.members.lockOwners(principal.accountId);
      const member = await this.members.find(principal.accountId, id);
      if (!member) throw MembersError.notFound(id);
      if (member.role === role) return member;
      if (member.role === 'owner' || role === 'owner') this.mayManageOwners(principal);
      if (member.role === 'owner' && owners.length === 1) throw MembersError.lastOwner();
      await this.members.setRole(id, role);
      await this.audit.record(principal.accountId, actor, 'member.role_changed', id);
      return { ...member, role };
    });
    // Their keys are bounded by the new role from their next request, on every instance.
    await this.apiKeys.forgetCreatedBy(id);
    return toMemberDto(member);
  }

  /** Removes a member: their portal sessions end and the API keys they created are revoked. */
  async remove(principal: Principal, actor: Actor, id: string): Promise<void> {
    await this.db.run(async () => {
      const owners = await this.members.lockOwners(principal.accountId);
      const member = await this.members.find(principal.accountId, id);
      if (!member) throw MembersError.notFound(id);
      if (member.role === 'owner') {
        this.mayManageOwners(principal);
        if (owners.length === 1) throw MembersError.lastOwner();
      }
      await this.apiKeys.revokeCreatedBy(principal.accountId, actor, id);
      await this.members.delete(id);
      await this.audit.record(principal.accountId, actor, 'member.removed', id);
    });
  }

  private mayManageOwners(principal: Principal): void {
    const role = principal.member?.role;
    if (role === undefined) return;
    if (role === null || !roleAllows(role, 'owners:manage')) throw MembersError.ownersOnly(role ?? 'removed member');
  }
}

import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsIn, MaxLength } from 'class-validator';
import { PageOf } from '../../common/pagination/page-of.js';
import { ROLES, type Role } from '../../common/request-context/roles.js';
import type { MemberInvitation } from '../member-invitation.entity.js';
import type { Member } from '../member.entity.js';

const ROLE_MESSAGE = `role must be one of: ${ROLES.join(', ')}`;

export class MemberDto {
  /** @example mem_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
  id: string;
  /** @example ada@example.com */
  email: string;
  @ApiProperty({ enum: ROLES, example: 'developer' })
  role: Role;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-25T09:41:00.000Z' })
  createdAt: string;
}

export class MemberPageDto extends PageOf(MemberDto) {}

export class CreateInvitationDto {
  /** Who is invited: the link works for this e-mail only. @example grace@example.com */
  @MaxLength(320)
  @IsEmail({}, { message: 'email must be an e-mail address' })
  email: string;

  @ApiProperty({
    enum: ROLES,
    example: 'developer',
    description:
      "The role the member gets on joining, never above the sender's role when the invitation is used; only an owner signed in to the portal invites an owner",
  })
  @IsIn(ROLES, { message: ROLE_MESSAGE })
  role: Role;
}

export class InvitationDto {
  /** @example inv_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
  id: string;
  /** @example grace@example.com */
  email: string;
  @ApiProperty({ enum: ROLES, example: 'developer' })
  role: Role;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-12-02T09:41:00.000Z' })
  expiresAt: string;
  /** Whether the link was e-mailed (the server has SMTP_URL). @example false */
  emailed: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The link to join, single use, for this e-mail only, valid 7 days — in this answer only, and only when it was not e-mailed',
    example: 'https://platform.example.com/portal/join/3q2-7Hq0aVx9Lk2mN4pR8sT6wY1zB5cD',
  })
  invitationUrl: string | null;
}

/** An invitation not yet used, revoked or expired. Never its link: that went out once, by e-mail or in the invitation's answer. */
export class PendingInvitationDto {
  /** @example inv_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
  id: string;
  /** @example grace@example.com */
  email: string;
  @ApiProperty({ enum: ROLES, example: 'developer' })
  role: Role;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The member who sent it (null: a credential no member created). It is revoked when they are removed.',
    example: 'mem_01JC3Z8W5Q4M0B7T2K9X1D6F3H',
  })
  invitedBy: string | null;
  /** Whether its link was e-mailed. @example true */
  emailed: boolean;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-25T09:41:00.000Z' })
  createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-12-02T09:41:00.000Z' })
  expiresAt: string;
}

export class PendingInvitationPageDto extends PageOf(PendingInvitationDto) {}

export class ChangeRoleDto {
  @ApiProperty({
    enum: ROLES,
    example: 'admin',
    description: 'Only an owner signed in to the portal makes or demotes an owner (never an API key or access token); the last owner cannot be demoted',
  })
  @IsIn(ROLES, { message: ROLE_MESSAGE })
  role: Role;
}

export function toMemberDto(m: Member): MemberDto {
  return { id: m.id, email: m.email, role: m.role, createdAt: m.createdAt.toISOString() };
}

export function toPendingInvitationDto(i: MemberInvitation): PendingInvitationDto {
  return {
    id: i.id,
    email: i.email,
    role: i.role,
    invitedBy: i.invitedBy,
    emailed: i.mailedAt !== null,
    createdAt: i.createdAt.toISOString(),
    expiresAt: i.expiresAt.toISOString(),
  };
}

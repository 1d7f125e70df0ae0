import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../common/pagination/dto/page-query.dto.js';
import { PageOf } from '../../common/pagination/page-of.js';
import { AUDIT_ACTION_NAMES } from '../audit-actions.js';
import type { AuditEntry } from '../audit-entry.entity.js';

export class ListAuditLogQueryDto extends PageQueryDto {
  /** Only entries of this action. @example api_key.created */
  @IsOptional()
  @IsIn(AUDIT_ACTION_NAMES, { message: `action must be one of: ${AUDIT_ACTION_NAMES.join(', ')}` })
  action?: string;

  /** Only entries of this actor (a member's, API key's or token's id, or `operator`). @example mem_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  actor?: string;

  /** Entries at or after this time (ISO 8601). @example 2026-11-01T00:00:00Z */
  @IsOptional()
  @MaxLength(40)
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 date-time' })
  from?: string;

  /** Entries before this time (ISO 8601). @example 2026-12-01T00:00:00Z */
  @IsOptional()
  @MaxLength(40)
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 date-time' })
  to?: string;
}

export class AuditActorDto {
  @ApiProperty({ enum: ['member', 'credential', 'operator'], example: 'member' })
  type: 'member' | 'credential' | 'operator';
  /** A member's id, an API key's or access token's id, or `operator`. @example mem_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
  id: string;
  /** A member's e-mail, a key's name, `admin token`. @example ada@example.com */
  label: string;
}

export class AuditTargetDto {
  /** @example api_key */
  type: string;
  /** @example key_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
  id: string;
}

export class AuditEntryDto {
  /** @example aud_01JC3ZE8S0T2V4W6X8Y0Z2A4B6 */
  id: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-25T09:41:00.000Z' })
  at: string;
  actor: AuditActorDto;
  @ApiProperty({ enum: AUDIT_ACTION_NAMES, example: 'api_key.created' })
  action: string;
  target: AuditTargetDto;
  @ApiProperty({ type: String, nullable: true, description: 'The client address truncated to its /24 (IPv4) or /48 (IPv6)', example: '203.0.113.0/24' })
  ip: string | null;
}

export class AuditEntryPageDto extends PageOf(AuditEntryDto) {}

export function toAuditEntryDto(e: AuditEntry): AuditEntryDto {
  return {
    id: e.id,
    at: e.createdAt.toISOString(),
    actor: { type: e.actorType, id: e.actorId, label: e.actorLabel },
    action: e.action,
    target: { type: e.targetType, id: e.targetId },
    ip: e.ip,
  };
}

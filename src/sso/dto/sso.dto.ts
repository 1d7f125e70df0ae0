import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, IsUrl, Matches, MaxLength, MinLength } from 'class-validator';
import type { SsoRole } from '../sso.repository.js';

export const SSO_ROLES: readonly SsoRole[] = ['admin', 'developer', 'viewer'];
/** A DNS name of two labels or more, lower case (as stored and matched). */
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export class PutSsoDto {
  @ApiProperty({
    description: 'The OpenID Connect issuer URL (https; discovery is read from <issuer>/.well-known/openid-configuration before saving)',
    example: 'https://acme.okta.com',
  })
  @MaxLength(2048)
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }, { message: 'issuer must be an https URL' })
  issuer: string;

  /** The client (application) id registered at the provider. @example 0oa1b2c3d4e5f6g7h8i9 */
  @IsString()
  @MinLength(1)
  @MaxLength(320)
  clientId: string;

  @ApiProperty({
    required: false,
    description: 'The client secret: required the first time, then optional (omitted: the stored one is kept). Write-only: never answered',
    example: 'kR2x…',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  clientSecret?: string;

  @ApiProperty({
    type: [String],
    description:
      'E-mail domains that sign in through this provider (lower case). Each must be proven with a TXT record (see `domainProofs`) before it routes sign-ins; a proven domain belongs to one account',
    example: ['acme.com'],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @Matches(DOMAIN, { each: true, message: 'each of domains must be a lower-case domain name such as acme.com' })
  domains: string[];

  @ApiProperty({ enum: SSO_ROLES, example: 'developer', description: 'The role of a member created at their first SSO sign-in (never owner)' })
  @IsIn(SSO_ROLES, { message: `defaultRole must be one of: ${SSO_ROLES.join(', ')}` })
  defaultRole: SsoRole;

  @ApiProperty({ required: false, description: "SSO required (default false): passwords are refused for the account's members (owners keep password + MFA)" })
  @IsOptional()
  @IsBoolean()
  required?: boolean;
}

/** The TXT record that proves control of an SSO domain. */
export class SsoDomainVerificationDto {
  @ApiProperty({ enum: ['TXT'], example: 'TXT' })
  type: 'TXT';
  /** Where the TXT record goes. @example "_platform-sso-challenge.acme.com" */
  name: string;
  /** What it holds, exactly. @example "Xk3b9QpL2mN7vR4tY8wZ1aC5dE6fG0hJ" */
  value: string;
}

export class SsoDomainCheckDto {
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-25T10:31:00.000Z' })
  checkedAt: string;
  @ApiProperty({ enum: ['verified', 'no_record', 'wrong_value', 'resolver_error', 'taken'], example: 'no_record' })
  result: 'verified' | 'no_record' | 'wrong_value' | 'resolver_error' | 'taken';
  /** @example "No TXT record at _platform-sso-challenge.acme.com yet" */
  message: string;
  @ApiProperty({ type: [String], example: [] })
  found: string[];
}

/** An allowed domain and its DNS proof: only a `verified` domain routes sign-ins to this account's provider. */
export class SsoDomainDto {
  /** @example acme.com */
  domain: string;
  @ApiProperty({
    enum: ['pending', 'verified', 'lapsed'],
    example: 'pending',
    description:
      '`pending` until its TXT record is found (`POST /v1/sso/domains/{domain}/verify`); `verified` routes sign-ins and is checked again daily; ' +
      '`lapsed` once the record has been gone for the grace period (`DOMAIN_PROOF_GRACE_HOURS`): it routes nothing until proven again',
  })
  status: 'pending' | 'verified' | 'lapsed';
  verification: SsoDomainVerificationDto;
  @ApiProperty({ type: SsoDomainCheckDto, nullable: true, description: 'The last DNS check; null before the first' })
  lastCheck: SsoDomainCheckDto | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  verifiedAt: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: null,
    description: 'When a verified domain is checked again (daily; hourly while its record is missing); null for the others',
  })
  nextCheckAt: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: null,
    description: 'When a check first found the record of a verified domain gone (its grace period runs from then); null while it is there',
  })
  proofMissingSince: string | null;
}

export class SsoSettingsDto {
  /** @example https://acme.okta.com */
  issuer: string;
  /** @example 0oa1b2c3d4e5f6g7h8i9 */
  clientId: string;
  /** Always true: a secret is stored (it is never answered). @example true */
  clientSecretSet: boolean;
  @ApiProperty({ type: [String], example: ['acme.com'] })
  domains: string[];
  @ApiProperty({
    type: [SsoDomainDto],
    description: 'Each domain with the TXT record that proves it: sign-ins of a domain go to this provider only once it is verified',
  })
  domainProofs: SsoDomainDto[];
  @ApiProperty({ enum: SSO_ROLES, example: 'developer' })
  defaultRole: SsoRole;
  /** Whether passwords are refused for the account's members (owners keep password + MFA). @example false */
  required: boolean;
  /** The redirect URI to register at the provider. @example https://platform.example.com/portal/sso/callback */
  redirectUri: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-25T09:41:00.000Z' })
  updatedAt: string;
}

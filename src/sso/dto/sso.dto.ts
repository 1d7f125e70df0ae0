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
    description: 'E-mail domains that sign in through this provider (lower case); a domain belongs to one account',
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

export class SsoSettingsDto {
  /** @example https://acme.okta.com */
  issuer: string;
  /** @example 0oa1b2c3d4e5f6g7h8i9 */
  clientId: string;
  /** Always true: a secret is stored (it is never answered). @example true */
  clientSecretSet: boolean;
  @ApiProperty({ type: [String], example: ['acme.com'] })
  domains: string[];
  @ApiProperty({ enum: SSO_ROLES, example: 'developer' })
  defaultRole: SsoRole;
  /** Whether passwords are refused for the account's members (owners keep password + MFA). @example false */
  required: boolean;
  /** The redirect URI to register at the provider. @example https://platform.example.com/portal/sso/callback */
  redirectUri: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-25T09:41:00.000Z' })
  updatedAt: string;
}

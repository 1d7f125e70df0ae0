import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { PageOf } from '../../common/pagination/page-of.js';
import type { DomainCheckResult, DomainStatus } from '../domain.entity.js';

export class CreateDomainDto {
  /**
   * The host name to serve the app at: a DNS name (an internationalised one is stored in its ASCII
   * form), not an IP address, `localhost`, a name under SITES_DOMAIN or the API's own host.
   * @example "www.example.com"
   */
  @IsString()
  @MaxLength(300, { message: 'hostname must be at most 300 characters long' })
  hostname: string;
}

/** The record that proves control of the name. */
export class DomainVerificationDto {
  @ApiProperty({ enum: ['TXT'], example: 'TXT' })
  type: 'TXT';

  /** Where the TXT record goes. @example "_platform-challenge.www.example.com" */
  name: string;

  /** What it holds, exactly. @example "8kQ2xZr0aB5cD8eF1gH4iJ7kL0mN3oP6" */
  value: string;
}

/** The record that sends the name's visitors here. */
export class DomainTargetDto {
  @ApiProperty({ enum: ['CNAME'], example: 'CNAME' })
  type: 'CNAME';

  /** The record's name: the domain itself. @example "www.example.com" */
  name: string;

  /** Where it points: the app's own host under SITES_DOMAIN (else the API's host). @example "recipe-box.example-apps.com" */
  value: string;
}

export class DomainCheckDto {
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-25T10:31:00.000Z' })
  checkedAt: string;

  /**
   * `verified`: the TXT record holds the value; `no_record`: no TXT record at the name; `wrong_value`:
   * TXT records there, none with the value; `resolver_error`: the lookup failed or timed out (tried
   * again later); `taken`: the record is right but another account verified the name first.
   */
  @ApiProperty({ enum: ['verified', 'no_record', 'wrong_value', 'resolver_error', 'taken'], example: 'wrong_value' })
  result: DomainCheckResult;

  /** @example "The TXT record at _platform-challenge.www.example.com holds 1 other value, not the verification value" */
  message: string;

  /** The TXT values found at the name (at most 5, each cut to 100 characters). */
  @ApiProperty({ type: [String], example: ['an-old-value'] })
  found: string[];
}

export class DomainDto {
  /** @example dom_01JC3ZK4M6N8P0Q2R4S6T8V0WX */
  id: string;

  /** Lowercase ASCII (punycode for an internationalised name). @example "www.example.com" */
  hostname: string;

  /** @example app_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
  appId: string;

  /**
   * `pending` until the TXT record is found (checked every minute for an hour, then hourly); `failed` after 7 days without it;
   * `verified` (re-checked daily) while it serves the app; `lapsed` once a verified domain's TXT record stayed gone for the
   * grace period (DOMAIN_PROOF_GRACE_HOURS, 72 by default): no longer served, and another account that proves control takes it.
   */
  @ApiProperty({ enum: ['pending', 'verified', 'failed', 'lapsed'], example: 'pending' })
  status: DomainStatus;

  verification: DomainVerificationDto;

  target: DomainTargetDto;

  /** Whether the name's CNAME (or A/AAAA) records point at the target, as of the last check. @example false */
  configured: boolean;

  @ApiProperty({ type: DomainCheckDto, nullable: true, description: 'The last DNS check; null before the first' })
  lastCheck: DomainCheckDto | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  verifiedAt: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2026-11-25T10:32:00.000Z',
    description: 'The next scheduled check: of a pending domain, or the re-check of a verified one (daily; hourly while its proof is missing)',
  })
  nextCheckAt: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: null,
    description:
      'When a re-check of the verified domain first found its TXT record gone; it lapses when the record is still gone the grace period later. Null while the record is there',
  })
  proofMissingSince: string | null;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-25T10:30:00.000Z' })
  createdAt: string;
}

export class DomainPageDto extends PageOf(DomainDto) {}

/** `GET /internal/tls/ask`: the name may have a certificate. */
export class TlsAskDto {
  /** The name asked about, as the platform stores it. @example "www.example.com" */
  domain: string;
}

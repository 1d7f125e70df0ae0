import { Column, CreateDateColumn, Entity, UpdateDateColumn } from 'typeorm';
import { AppOwned } from '../apps/app-owned.entity.js';

export type DomainStatus = 'pending' | 'verified' | 'failed' | 'lapsed';

/** What the last DNS check found at the challenge name. */
export type DomainCheckResult = 'verified' | 'no_record' | 'wrong_value' | 'resolver_error' | 'taken';

/** The last DNS check of a domain, as the API shows it. */
export interface DomainCheck {
  checkedAt: string;
  result: DomainCheckResult;
  /** For people: what was found, and what to do. */
  message: string;
  /** The TXT values found at the challenge name (at most 5, each cut to 100 characters). */
  found: string[];
}

/**
 * A host name an account claims for one of its apps. Several accounts may claim one name; the first
 * to verify it (the TXT record at `_platform-challenge.<hostname>` holds its token) owns it: at most
 * one `verified` row per hostname (a partial unique index). A verified name whose proof stays gone
 * for the grace period is `lapsed`: no longer served, and whoever verifies it next owns it.
 */
@Entity('domains')
export class Domain extends AppOwned {
  /** Lowercase ASCII (an internationalised name in its punycode form). */
  @Column({ type: 'varchar', length: 253 })
  hostname: string;

  @Column({ type: 'varchar', length: 16 })
  status: DomainStatus;

  /** The value the TXT record must hold. */
  @Column({ name: 'verification_token', type: 'varchar', length: 64 })
  verificationToken: string;

  /** Whether the name's CNAME (or A/AAAA) records point at the app's target, as of the last check. */
  @Column({ type: 'boolean' })
  configured: boolean;

  @Column({ name: 'last_check', type: 'jsonb', nullable: true })
  lastCheck: DomainCheck | null;

  /** When the worker checks the domain next (pending: its schedule; verified: daily re-checks); null once failed or lapsed. */
  @Column({ name: 'next_check_at', type: 'timestamptz', precision: 3, nullable: true })
  nextCheckAt: Date | null;

  /** When a re-check of the verified domain first found its TXT proof gone; null while it is there. */
  @Column({ name: 'proof_missing_since', type: 'timestamptz', precision: 3, nullable: true })
  proofMissingSince: Date | null;

  @Column({ name: 'verified_at', type: 'timestamptz', precision: 3, nullable: true })
  verifiedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}

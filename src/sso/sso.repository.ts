import { Injectable } from '@nestjs/common';
import type { Role } from '../common/request-context/roles.js';
import { Transactions } from '../database/transactions.js';

export type SsoRole = Exclude<Role, 'owner'>;

export interface StoredSso {
  issuer: string;
  clientId: string;
  /** Sealed (SecretBox), never answered. */
  sealedSecret: string;
  domains: string[];
  defaultRole: SsoRole;
  required: boolean;
  updatedAt: Date;
}

/** What the last DNS check of an SSO domain's proof found (as custom domains' `lastCheck`). */
export interface SsoDomainCheck {
  checkedAt: string;
  result: 'verified' | 'no_record' | 'wrong_value' | 'resolver_error' | 'taken';
  message: string;
  found: string[];
}

/** An e-mail domain an account's single sign-on lists, and its DNS proof. */
export interface SsoDomainProof {
  domain: string;
  /** `lapsed`: proven once, then the proof was gone for the grace period (routes nothing, like `pending`). */
  status: 'pending' | 'verified' | 'lapsed';
  token: string;
  lastCheck: SsoDomainCheck | null;
  verifiedAt: Date | null;
  /** The next scheduled re-check of a verified proof (null otherwise). */
  nextCheckAt: Date | null;
  /** When a re-check first found the proof gone (null while it is there). */
  proofMissingSince: Date | null;
}

interface ProofRow {
  domain: string;
  status: SsoDomainProof['status'];
  verification_token: string;
  last_check: SsoDomainCheck | null;
  verified_at: Date | null;
  next_check_at: Date | null;
  proof_missing_since: Date | null;
}

const PROOF_COLUMNS = 'domain, status, verification_token, last_check, verified_at, next_check_at, proof_missing_since';

const proofOf = (r: ProofRow): SsoDomainProof => ({
  domain: r.domain,
  status: r.status,
  token: r.verification_token,
  lastCheck: r.last_check,
  verifiedAt: r.verified_at,
  nextCheckAt: r.next_check_at,
  proofMissingSince: r.proof_missing_since,
});

export interface SsoSave {
  issuer: string;
  clientId: string;
  /** null: keep the stored one. */
  sealedSecret: string | null;
  domains: string[];
  defaultRole: SsoRole;
  required: boolean;
}

interface Row {
  sso_issuer: string;
  sso_client_id: string;
  sso_client_secret: string;
  sso_domains: string[];
  sso_default_role: SsoRole;
  sso_required: boolean;
  updated_at: Date;
}

/** The SSO columns of account_security (the MFA policy beside them is MfaRepository's), and the member look-ups of an SSO sign-in. */
@Injectable()
export class SsoRepository {
  constructor(private readonly db: Transactions) {}

  /** The account's single sign-on, or null when none is set up (no issuer). */
  async find(accountId: string): Promise<StoredSso | null> {
    const rows = await this.db.query<Row>(
      `SELECT sso_issuer, sso_client_id, sso_client_secret, sso_domains, sso_default_role, sso_required, updated_at
         FROM account_security WHERE account_id = $1 AND sso_issuer IS NOT NULL`,
      [accountId],
    );
    const r = rows[0];
    return r
      ? {
          issuer: r.sso_issuer,
          clientId: r.sso_client_id,
          sealedSecret: r.sso_client_secret,
          domains: r.sso_domains,
          defaultRole: r.sso_default_role,
          required: r.sso_required,
          updatedAt: r.updated_at,
        }
      : null;
  }

  async save(accountId: string, s: SsoSave): Promise<void> {
    await this.db.query(
      `INSERT INTO account_security (account_id, sso_issuer, sso_client_id, sso_client_secret, sso_domains, sso_default_role, sso_required)
       VALUES ($1, $2, $3, $4, $5::text[], $6, $7)
       ON CONFLICT (account_id) DO UPDATE SET sso_issuer = EXCLUDED.sso_issuer, sso_client_id = EXCLUDED.sso_client_id,
         sso_client_secret = COALESCE(EXCLUDED.sso_client_secret, account_security.sso_client_secret), sso_domains = EXCLUDED.sso_domains,
         sso_default_role = EXCLUDED.sso_default_role, sso_required = EXCLUDED.sso_required, updated_at = now()`,
      [accountId, s.issuer, s.clientId, s.sealedSecret, s.domains, s.defaultRole, s.required],
    );
  }

  /** The proofs of the account's SSO domains, in the order of `domains`. */
  async proofs(accountId: string): Promise<SsoDomainProof[]> {
    const rows = await this.db.query<ProofRow>(`SELECT ${PROOF_COLUMNS} FROM sso_domain_proofs WHERE account_id = $1 ORDER BY domain`, [accountId]);
    return rows.map(proofOf);
  }

  /** In the caller's transaction: a pending proof (with `tokenOf(domain)`) for each listed domain that has none; the others' go. */
  async syncProofs(accountId: string, domains: string[], tokenOf: () => string): Promise<void> {
    await this.db.query(`DELETE FROM sso_domain_proofs WHERE account_id = $1 AND NOT (domain = ANY($2::text[]))`, [accountId, domains]);
    for (const domain of domains)
      await this.db.query(
        `INSERT INTO sso_domain_proofs (account_id, domain, status, verification_token) VALUES ($1, $2, 'pending', $3) ON CONFLICT DO NOTHING`,
        [accountId, domain, tokenOf()],
      );
  }

  /** FOR UPDATE, in the caller's transaction, after the domain's verifications are serialized (`lockDomain`). */
  async proofForUpdate(accountId: string, domain: string): Promise<SsoDomainProof | null> {
    const rows = await this.db.query<ProofRow>(`SELECT ${PROOF_COLUMNS} FROM sso_domain_proofs WHERE account_id = $1 AND domain = $2 FOR UPDATE`, [
      accountId,
      domain,
    ]);
    return rows[0] ? proofOf(rows[0]) : null;
  }

  async proof(accountId: string, domain: string): Promise<SsoDomainProof | null> {
    const rows = await this.db.query<ProofRow>(`SELECT ${PROOF_COLUMNS} FROM sso_domain_proofs WHERE account_id = $1 AND domain = $2`, [accountId, domain]);
    return rows[0] ? proofOf(rows[0]) : null;
  }

  /** In the caller's transaction: verifications of one domain run one after the other (the unique index is the backstop). */
  async lockDomain(domain: string): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(hashtext('sso-domain:' || $1))`, [domain]);
  }

  async saveProof(accountId: string, proof: SsoDomainProof): Promise<void> {
    await this.db.query(
      `UPDATE sso_domain_proofs SET status = $3, last_check = $4::jsonb, verified_at = $5, next_check_at = $6, proof_missing_since = $7
        WHERE account_id = $1 AND domain = $2`,
      [accountId, proof.domain, proof.status, JSON.stringify(proof.lastCheck), proof.verifiedAt, proof.nextCheckAt, proof.proofMissingSince],
    );
  }

  /**
   * The worker's share of the verified proofs due for a re-check, as custom domains' (a lease on `next_check_at`,
   * `FOR UPDATE SKIP LOCKED` so several workers split them): their accounts and domains.
   */
  async claimDue(limit: number, leaseMs: number): Promise<Array<{ accountId: string; domain: string }>> {
    const rows = await this.db.query<{ account_id: string; domain: string }>(
      `UPDATE sso_domain_proofs SET next_check_at = now() + make_interval(secs => $2::int / 1000.0)
        WHERE (account_id, domain) IN (SELECT account_id, domain FROM sso_domain_proofs WHERE status = 'verified' AND next_check_at <= now()
                                        ORDER BY next_check_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING account_id, domain`,
      [limit, leaseMs],
    );
    return rows.map((r) => ({ accountId: r.account_id, domain: r.domain }));
  }

  /** Turns single sign-on off: its settings are forgotten, the secret too, and the domains' proofs. */
  async clear(accountId: string): Promise<boolean> {
    await this.db.query(`DELETE FROM sso_domain_proofs WHERE account_id = $1`, [accountId]);
    const rows = await this.db.query(
      `UPDATE account_security SET sso_issuer = NULL, sso_client_id = NULL, sso_client_secret = NULL, sso_domains = '{}',
         sso_default_role = 'viewer', sso_required = false, updated_at = now()
       WHERE account_id = $1 AND sso_issuer IS NOT NULL RETURNING account_id`,
      [accountId],
    );
    return rows.length > 0;
  }

  /** The account that proved this e-mail domain (a verified TXT record) and whose single sign-on is on: the only one it routes to. */
  async accountForDomain(domain: string): Promise<string | null> {
    const rows = await this.db.query<{ account_id: string }>(
      `SELECT p.account_id FROM sso_domain_proofs p JOIN account_security s ON s.account_id = p.account_id AND s.sso_issuer IS NOT NULL
        WHERE p.domain = $1 AND p.status = 'verified'`,
      [domain],
    );
    return rows[0]?.account_id ?? null;
  }

  /** Whether the account proved this domain. */
  async hasVerified(accountId: string, domain: string): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM sso_domain_proofs WHERE account_id = $1 AND domain = $2 AND status = 'verified'`, [accountId, domain]);
    return rows.length > 0;
  }

  /** Which of `domains` another account proved already (a listing alone claims nothing). */
  async domainsOfOthers(accountId: string, domains: string[]): Promise<string[]> {
    const rows = await this.db.query<{ domain: string }>(
      `SELECT domain FROM sso_domain_proofs WHERE account_id <> $1 AND status = 'verified' AND domain = ANY($2::text[]) ORDER BY 1`,
      [accountId, domains],
    );
    return rows.map((r) => r.domain);
  }

  /** A member's role and whether their account requires single sign-on. */
  async passwordPolicy(memberId: string): Promise<{ role: Role; ssoRequired: boolean } | null> {
    const rows = await this.db.query<{ role: Role; sso_required: boolean | null }>(
      `SELECT m.role, s.sso_required FROM members m
         LEFT JOIN account_security s ON s.account_id = m.account_id AND s.sso_issuer IS NOT NULL
        WHERE m.id = $1`,
      [memberId],
    );
    return rows[0] ? { role: rows[0].role, ssoRequired: rows[0].sso_required === true } : null;
  }

  /** The member with this e-mail, in whichever account (an e-mail is a member of one account at most). */
  async memberByEmail(email: string): Promise<{ id: string; accountId: string; role: Role } | null> {
    const rows = await this.db.query<{ id: string; account_id: string; role: Role }>(`SELECT id, account_id, role FROM members WHERE email = $1`, [email]);
    return rows[0] ? { id: rows[0].id, accountId: rows[0].account_id, role: rows[0].role } : null;
  }

  /** The provider identity the member signed in with first (null: not linked yet). */
  async identityOf(memberId: string): Promise<{ issuer: string; subject: string } | null> {
    const rows = await this.db.query<{ issuer: string; subject: string }>(`SELECT issuer, subject FROM member_sso_identities WHERE member_id = $1`, [memberId]);
    return rows[0] ?? null;
  }

  /** The member linked to this provider identity, if any. */
  async memberOfIdentity(issuer: string, subject: string): Promise<string | null> {
    const rows = await this.db.query<{ member_id: string }>(`SELECT member_id FROM member_sso_identities WHERE issuer = $1 AND subject = $2`, [
      issuer,
      subject,
    ]);
    return rows[0]?.member_id ?? null;
  }

  /** Links the member to a provider identity (again, after the account moved to another issuer). */
  async linkIdentity(memberId: string, issuer: string, subject: string): Promise<void> {
    await this.db.query(
      `INSERT INTO member_sso_identities (member_id, issuer, subject) VALUES ($1, $2, $3)
       ON CONFLICT (member_id) DO UPDATE SET issuer = EXCLUDED.issuer, subject = EXCLUDED.subject, linked_at = now()`,
      [memberId, issuer, subject],
    );
  }

  /** Ends the portal sessions of the account's members but its owners (when "SSO required" is turned on); answers how many. */
  async endSessionsOfNonOwners(accountId: string): Promise<number> {
    const rows = await this.db.query<{ id_hash: string }>(
      `DELETE FROM portal_sessions WHERE account_id = $1 AND member_id IN (SELECT id FROM members WHERE account_id = $1 AND role <> 'owner') RETURNING id_hash`,
      [accountId],
    );
    return rows.length;
  }
}

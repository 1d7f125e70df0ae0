import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SSO domains need DNS proof: one row per domain an account's single sign-on lists, with the value its
 * TXT record at `_platform-sso-challenge.<domain>` must hold. Only a `verified` row routes sign-ins, and
 * at most one account has a domain verified (the partial unique index). Domains listed before this are
 * kept pending: their accounts prove them once, as every account does from now on.
 */
export class SsoDomainProofs1764610000001 implements MigrationInterface {
  name = 'SsoDomainProofs1764610000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sso_domain_proofs (
        account_id          varchar(40)    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        domain              varchar(253)   NOT NULL,
        status              varchar(16)    NOT NULL CHECK (status IN ('pending', 'verified')),
        verification_token  varchar(64)    NOT NULL,
        last_check          jsonb,
        verified_at         timestamptz(3),
        created_at          timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (account_id, domain)
      )`);
    await q.query(`CREATE UNIQUE INDEX sso_domain_proofs_verified_key ON sso_domain_proofs (domain) WHERE status = 'verified'`);
    await q.query(`
      INSERT INTO sso_domain_proofs (account_id, domain, status, verification_token)
      SELECT account_id, d, 'pending', md5(random()::text || clock_timestamp()::text || d)
        FROM account_security, unnest(sso_domains) AS d WHERE sso_issuer IS NOT NULL
      ON CONFLICT DO NOTHING`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sso_domain_proofs`);
  }
}

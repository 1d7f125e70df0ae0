import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Proven SSO domains are checked again, as verified custom domains are (the same worker job and schedule, see
 * domain-schedule.ts): `next_check_at` is when (null: never — pending and lapsed rows are checked on demand only),
 * `proof_missing_since` when a check first found the TXT proof gone. After the grace period the row is `lapsed`: it
 * routes no sign-in, and whoever proves the domain next owns it. Domains proven before this get their first
 * re-check within a day.
 */
export class SsoDomainRechecks1764750000000 implements MigrationInterface {
  name = 'SsoDomainRechecks1764750000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sso_domain_proofs DROP CONSTRAINT IF EXISTS sso_domain_proofs_status_check`);
    await q.query(`ALTER TABLE sso_domain_proofs ADD CONSTRAINT sso_domain_proofs_status_check CHECK (status IN ('pending', 'verified', 'lapsed'))`);
    await q.query(`ALTER TABLE sso_domain_proofs ADD COLUMN next_check_at timestamptz(3), ADD COLUMN proof_missing_since timestamptz(3)`);
    await q.query(`CREATE INDEX sso_domain_proofs_due_idx ON sso_domain_proofs (next_check_at) WHERE status = 'verified'`);
    await q.query(`UPDATE sso_domain_proofs SET next_check_at = now() + random() * interval '1 day' WHERE status = 'verified'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sso_domain_proofs WHERE status = 'lapsed'`);
    await q.query(`DROP INDEX sso_domain_proofs_due_idx`);
    await q.query(`ALTER TABLE sso_domain_proofs DROP COLUMN next_check_at, DROP COLUMN proof_missing_since`);
    await q.query(`ALTER TABLE sso_domain_proofs DROP CONSTRAINT sso_domain_proofs_status_check`);
    await q.query(`ALTER TABLE sso_domain_proofs ADD CONSTRAINT sso_domain_proofs_status_check CHECK (status IN ('pending', 'verified'))`);
  }
}

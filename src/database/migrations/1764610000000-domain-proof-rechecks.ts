import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Verified custom domains are checked again (daily, see domain-schedule.ts): `proof_missing_since`
 * is when a check of a verified domain first found no TXT proof (null while it is there); after the
 * grace period the domain is `lapsed` — no longer served, and free for whoever proves control next.
 * The due index now covers verified domains too. Domains verified before this get their first
 * re-check within a day.
 */
export class DomainProofRechecks1764610000000 implements MigrationInterface {
  name = 'DomainProofRechecks1764610000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE domains DROP CONSTRAINT IF EXISTS domains_status_check`);
    await q.query(`ALTER TABLE domains ADD CONSTRAINT domains_status_check CHECK (status IN ('pending', 'verified', 'failed', 'lapsed'))`);
    await q.query(`ALTER TABLE domains ADD COLUMN proof_missing_since timestamptz(3)`);
    await q.query(`DROP INDEX domains_due_idx`);
    await q.query(`CREATE INDEX domains_due_idx ON domains (next_check_at) WHERE status IN ('pending', 'verified')`);
    await q.query(`UPDATE domains SET next_check_at = now() + random() * interval '1 day' WHERE status = 'verified'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE domains SET next_check_at = NULL WHERE status = 'verified'`);
    await q.query(`UPDATE domains SET status = 'failed' WHERE status = 'lapsed'`);
    await q.query(`DROP INDEX domains_due_idx`);
    await q.query(`CREATE INDEX domains_due_idx ON domains (next_check_at) WHERE status = 'pending'`);
    await q.query(`ALTER TABLE domains DROP COLUMN proof_missing_since`);
    await q.query(`ALTER TABLE domains DROP CONSTRAINT domains_status_check`);
    await q.query(`ALTER TABLE domains ADD CONSTRAINT domains_status_check CHECK (status IN ('pending', 'verified', 'failed'))`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Credentials follow their creator (issue 45, T1–T3):
 *
 * - A service account records the member who created it (`created_by`), whose current role bounds
 *   it and its tokens, as an API key's creator bounds the key. Service accounts made before are
 *   given the creator the audit log names (a member in the portal, or the creator of the API key
 *   that made it); those it cannot name (the operator's, or older than the audit log) stay without
 *   one. A service account whose creator was removed already is revoked now, with its tokens, as a
 *   removal does from now on; the audit log says so (`service_account.revoked`, the operator's
 *   `system` as actor).
 * - Invitations can be revoked (`revoked_at`); the pending ones of members removed already are
 *   revoked now. `mailed_at` marks an invitation whose link was e-mailed: at most 3 such e-mails go
 *   to one address per 15 minutes.
 * - Indexes for what a removal or a demotion looks up: credentials by creator, tokens by service account.
 */
export class TeamCredentials1764300000000 implements MigrationInterface {
  name = 'TeamCredentials1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE service_accounts ADD COLUMN created_by varchar(40)`);
    await q.query(`
      UPDATE service_accounts s SET created_by = named.member_id
        FROM (SELECT a.target_id AS service_account_id, CASE WHEN a.actor_type = 'member' THEN a.actor_id ELSE k.created_by END AS member_id
                FROM audit_log a LEFT JOIN api_keys k ON a.actor_type = 'credential' AND k.id = a.actor_id
               WHERE a.action = 'service_account.created') named
       WHERE s.id = named.service_account_id AND named.member_id IS NOT NULL`);
    // One statement: the service accounts, their tokens and the audit entries together.
    await q.query(`
      WITH revoked AS (
        UPDATE service_accounts s SET revoked_at = now()
         WHERE s.revoked_at IS NULL AND s.created_by IS NOT NULL AND NOT EXISTS (SELECT 1 FROM members m WHERE m.id = s.created_by)
         RETURNING s.id, s.account_id
      ), tokens AS (
        UPDATE access_tokens t SET revoked_at = now() FROM revoked r WHERE t.service_account_id = r.id AND t.revoked_at IS NULL
      )
      INSERT INTO audit_log (id, account_id, actor_type, actor_id, actor_label, action, target_type, target_id)
      SELECT 'aud_' || upper(substr(md5('creator-gone:' || r.id), 1, 26)), r.account_id, 'operator', 'system',
             'upgrade: its creator had been removed', 'service_account.revoked', 'service_account', r.id
        FROM revoked r`);
    await q.query(`CREATE INDEX service_accounts_created_by_idx ON service_accounts (created_by) WHERE revoked_at IS NULL`);
    await q.query(`CREATE INDEX api_keys_created_by_idx ON api_keys (created_by) WHERE revoked_at IS NULL`);
    await q.query(`CREATE INDEX access_tokens_service_account_idx ON access_tokens (service_account_id) WHERE revoked_at IS NULL`);

    await q.query(`ALTER TABLE member_invitations ADD COLUMN revoked_at timestamptz(3), ADD COLUMN mailed_at timestamptz(3)`);
    await q.query(`
      UPDATE member_invitations i SET revoked_at = now()
       WHERE i.accepted_at IS NULL AND i.invited_by IS NOT NULL AND NOT EXISTS (SELECT 1 FROM members m WHERE m.id = i.invited_by)`);
    await q.query(`DROP INDEX member_invitations_account_idx`);
    await q.query(
      `CREATE INDEX member_invitations_pending_idx ON member_invitations (account_id, created_at DESC, id DESC) WHERE accepted_at IS NULL AND revoked_at IS NULL`,
    );
    await q.query(`CREATE INDEX member_invitations_invited_by_idx ON member_invitations (invited_by) WHERE accepted_at IS NULL AND revoked_at IS NULL`);
    await q.query(`CREATE INDEX member_invitations_mailed_idx ON member_invitations (email, mailed_at) WHERE mailed_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX member_invitations_mailed_idx, member_invitations_invited_by_idx, member_invitations_pending_idx`);
    await q.query(`CREATE INDEX member_invitations_account_idx ON member_invitations (account_id, created_at DESC)`);
    await q.query(`ALTER TABLE member_invitations DROP COLUMN mailed_at, DROP COLUMN revoked_at`);
    await q.query(`DROP INDEX access_tokens_service_account_idx, api_keys_created_by_idx, service_accounts_created_by_idx`);
    await q.query(`ALTER TABLE service_accounts DROP COLUMN created_by`);
  }
}

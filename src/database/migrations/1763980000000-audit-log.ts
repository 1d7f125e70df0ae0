import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log: who did what in an account, append-only. A trigger refuses every UPDATE and
 * TRUNCATE, and every DELETE but of entries past the 400 days they are kept (the retention job's).
 * No foreign key to accounts: an account's deletion must not cascade into its record.
 */
export class AuditLog1763980000000 implements MigrationInterface {
  name = 'AuditLog1763980000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_log (
        id           varchar(40)    PRIMARY KEY,
        account_id   varchar(40)    NOT NULL,
        created_at   timestamptz(3) NOT NULL DEFAULT now(),
        actor_type   varchar(16)    NOT NULL CHECK (actor_type IN ('member', 'credential', 'operator')),
        actor_id     varchar(64)    NOT NULL,
        actor_label  varchar(320)   NOT NULL,
        action       varchar(64)    NOT NULL,
        target_type  varchar(32)    NOT NULL,
        target_id    varchar(320)   NOT NULL,
        ip           varchar(64)
      )`);
    await q.query(`CREATE INDEX audit_log_account_created_idx ON audit_log (account_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX audit_log_created_idx ON audit_log (created_at)`);
    await q.query(`
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          IF OLD.created_at < now() - interval '400 days' THEN
            RETURN OLD;
          END IF;
        END IF;
        RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END
      $$`);
    await q.query(`CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`);
    await q.query(`CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE audit_log`);
    await q.query(`DROP FUNCTION audit_log_append_only()`);
  }
}

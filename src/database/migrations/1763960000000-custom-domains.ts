import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Custom domains: the host names accounts claim for their apps. A name may be claimed by several
 * accounts (once each); the first to verify owns it — at most one `verified` row per hostname. A
 * domain goes with its app. The worker finds pending domains due for a check by `next_check_at`.
 */
export class CustomDomains1763960000000 implements MigrationInterface {
  name = 'CustomDomains1763960000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE domains (
        id                  varchar(40)    PRIMARY KEY,
        account_id          varchar(40)    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        app_id              varchar(40)    NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
        hostname            varchar(253)   NOT NULL,
        status              varchar(16)    NOT NULL CHECK (status IN ('pending', 'verified', 'failed')),
        verification_token  varchar(64)    NOT NULL,
        configured          boolean        NOT NULL DEFAULT false,
        last_check          jsonb,
        next_check_at       timestamptz(3),
        verified_at         timestamptz(3),
        created_at          timestamptz(3) NOT NULL DEFAULT now(),
        updated_at          timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX domains_account_hostname_key ON domains (account_id, hostname)`);
    await q.query(`CREATE UNIQUE INDEX domains_verified_hostname_key ON domains (hostname) WHERE status = 'verified'`);
    await q.query(`CREATE INDEX domains_app_created_idx ON domains (app_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX domains_due_idx ON domains (next_check_at) WHERE status = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE domains`);
  }
}

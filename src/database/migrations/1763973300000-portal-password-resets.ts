import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Password resets by e-mail: one row per link sent, holding only the SHA-256 of its token, valid
 * until `expires_at` (1 hour) and used once (`used_at`; using one also closes the account's others).
 */
export class PortalPasswordResets1763973300000 implements MigrationInterface {
  name = 'PortalPasswordResets1763973300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE portal_password_resets (
        token_hash  varchar(64)    PRIMARY KEY,
        account_id  varchar(40)    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created_at  timestamptz(3) NOT NULL DEFAULT now(),
        expires_at  timestamptz(3) NOT NULL,
        used_at     timestamptz(3)
      )`);
    await q.query(`CREATE INDEX portal_password_resets_account_idx ON portal_password_resets (account_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE portal_password_resets`);
  }
}

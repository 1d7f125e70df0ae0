import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The developer portal's sign-in: a password per account (scrypt), single-use invites, server-side
 * sessions (revocable rows; only hashes of the invite tokens and session ids are stored) and failed
 * sign-ins per e-mail hash for the lockout.
 */
export class CreatePortal1763910000000 implements MigrationInterface {
  name = 'CreatePortal1763910000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE portal_passwords (
        account_id  varchar(40)    PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        hash        varchar(200)   NOT NULL,
        updated_at  timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE portal_invites (
        token_hash  varchar(64)    PRIMARY KEY,
        account_id  varchar(40)    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        expires_at  timestamptz(3) NOT NULL,
        used_at     timestamptz(3)
      )`);
    await q.query(`
      CREATE TABLE portal_sessions (
        id_hash       varchar(64)    PRIMARY KEY,
        account_id    varchar(40)    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created_at    timestamptz(3) NOT NULL DEFAULT now(),
        last_seen_at  timestamptz(3) NOT NULL DEFAULT now()
      )`);
    for (const statement of CREATE_PORTAL_LOGIN_FAILURES) await q.query(statement);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE portal_login_failures, portal_sessions, portal_invites, portal_passwords`);
  }
}

// portal_login_failures as made here: 1763934000000-portal-sign-in-attempts.ts drops it, and its down re-creates it with these (frozen, shared).
export const CREATE_PORTAL_LOGIN_FAILURES = [
  `
      CREATE TABLE portal_login_failures (
        email_hash  varchar(64)    NOT NULL,
        failed_at   timestamptz(3) NOT NULL DEFAULT now()
      )`,
  `CREATE INDEX portal_login_failures_idx ON portal_login_failures (email_hash, failed_at)`,
];

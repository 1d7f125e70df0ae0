import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in hardening (issue 45, M1 and L1):
 * - `portal_sign_in_attempts` counts per e-mail *and client network* (`network`: the /24 or /48 the
 *   audit log keeps); the row with `network = ''` is the e-mail-wide count of attempts from networks
 *   the e-mail has not signed in from. The rows counting now become e-mail-wide rows.
 * - `portal_sign_in_networks`: the networks each e-mail signed in from (or was unlocked from), which
 *   the e-mail-wide count does not hold back.
 * - `portal_unlock_links`: the e-mailed link that clears a lock; one per member at a time (a new
 *   one, at most every 15 minutes, replaces it), only its token's SHA-256 stored.
 * - `portal_sign_in_tickets`: the ticket between the password and the code step, used once (it was
 *   a signed cookie that could be replayed).
 * - `portal_sessions.reauthenticated_at`: when the member last typed their password (or signed in);
 *   MFA changes need it within 5 minutes. Sessions open now count from their start.
 */
export class SignInHardening1764052000000 implements MigrationInterface {
  name = 'SignInHardening1764052000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE portal_sign_in_attempts ADD COLUMN network varchar(64) NOT NULL DEFAULT ''`);
    await q.query(`ALTER TABLE portal_sign_in_attempts DROP CONSTRAINT portal_sign_in_attempts_pkey`);
    await q.query(`ALTER TABLE portal_sign_in_attempts ADD PRIMARY KEY (email_hash, network)`);
    await q.query(`
      CREATE TABLE portal_sign_in_networks (
        email_hash    varchar(64)    NOT NULL,
        network       varchar(64)    NOT NULL,
        signed_in_at  timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (email_hash, network)
      )`);
    await q.query(`
      CREATE TABLE portal_unlock_links (
        member_id   varchar(40)    PRIMARY KEY REFERENCES members(id) ON DELETE CASCADE,
        account_id  varchar(40)    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        token_hash  varchar(64)    NOT NULL UNIQUE,
        created_at  timestamptz(3) NOT NULL DEFAULT now(),
        expires_at  timestamptz(3) NOT NULL,
        used_at     timestamptz(3)
      )`);
    await q.query(`
      CREATE TABLE portal_sign_in_tickets (
        id_hash               varchar(64)    PRIMARY KEY,
        account_id            varchar(40)    NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        member_id             varchar(40)    NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        password_fingerprint  varchar(64)    NOT NULL,
        expires_at            timestamptz(3) NOT NULL,
        used_at               timestamptz(3)
      )`);
    await q.query(`CREATE INDEX portal_sign_in_tickets_member_idx ON portal_sign_in_tickets (member_id)`);
    await q.query(`CREATE INDEX portal_sign_in_tickets_expires_idx ON portal_sign_in_tickets (expires_at)`);
    await q.query(`ALTER TABLE portal_sessions ADD COLUMN reauthenticated_at timestamptz(3)`);
    await q.query(`UPDATE portal_sessions SET reauthenticated_at = created_at`);
    await q.query(`ALTER TABLE portal_sessions ALTER COLUMN reauthenticated_at SET NOT NULL, ALTER COLUMN reauthenticated_at SET DEFAULT now()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE portal_sessions DROP COLUMN reauthenticated_at`);
    await q.query(`DROP TABLE portal_sign_in_tickets, portal_unlock_links, portal_sign_in_networks`);
    // Back to one count per e-mail: the attempts of all its networks, merged.
    await q.query(`
      CREATE TEMPORARY TABLE merged_sign_in_attempts AS
      SELECT email_hash, array_agg(t ORDER BY t) AS attempted_at FROM portal_sign_in_attempts, unnest(attempted_at) t GROUP BY email_hash`);
    await q.query(`DELETE FROM portal_sign_in_attempts`);
    await q.query(`ALTER TABLE portal_sign_in_attempts DROP CONSTRAINT portal_sign_in_attempts_pkey`);
    await q.query(`ALTER TABLE portal_sign_in_attempts DROP COLUMN network`);
    await q.query(`ALTER TABLE portal_sign_in_attempts ADD PRIMARY KEY (email_hash)`);
    await q.query(`INSERT INTO portal_sign_in_attempts (email_hash, attempted_at) SELECT email_hash, attempted_at FROM merged_sign_in_attempts`);
    await q.query(`DROP TABLE merged_sign_in_attempts`);
  }
}

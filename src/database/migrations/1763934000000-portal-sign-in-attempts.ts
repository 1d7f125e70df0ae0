import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The portal's lockout counts sign-in attempts, not failures after the fact: one row per e-mail
 * hash holding the times of its attempts of the last 15 minutes, updated by one statement that
 * also checks the limit (see PortalRepository.takeSignInAttempt), so parallel guesses are counted
 * before any password is verified. Replaces the failure log, whose count was read before a
 * password check and written after it.
 */
export class PortalSignInAttempts1763934000000 implements MigrationInterface {
  name = 'PortalSignInAttempts1763934000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE portal_sign_in_attempts (
        email_hash    varchar(64)      PRIMARY KEY,
        attempted_at  timestamptz(3)[] NOT NULL
      )`);
    // Lockouts running now carry over.
    await q.query(`
      INSERT INTO portal_sign_in_attempts (email_hash, attempted_at)
      SELECT email_hash, array_agg(failed_at ORDER BY failed_at) FROM portal_login_failures
       WHERE failed_at > now() - interval '15 minutes' GROUP BY email_hash`);
    await q.query(`DROP TABLE portal_login_failures`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE portal_login_failures (
        email_hash  varchar(64)    NOT NULL,
        failed_at   timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX portal_login_failures_idx ON portal_login_failures (email_hash, failed_at)`);
    await q.query(`INSERT INTO portal_login_failures (email_hash, failed_at) SELECT email_hash, unnest(attempted_at) FROM portal_sign_in_attempts`);
    await q.query(`DROP TABLE portal_sign_in_attempts`);
  }
}

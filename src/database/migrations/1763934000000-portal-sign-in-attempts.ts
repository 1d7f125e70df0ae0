import { MigrationInterface, QueryRunner } from 'typeorm';
import { CREATE_PORTAL_LOGIN_FAILURES } from './1763910000000-create-portal.js';

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
    // The table back as 1763910000000-create-portal.ts made it (its statements, frozen there).
    for (const statement of CREATE_PORTAL_LOGIN_FAILURES) await q.query(statement);
    await q.query(`INSERT INTO portal_login_failures (email_hash, failed_at) SELECT email_hash, unnest(attempted_at) FROM portal_sign_in_attempts`);
    await q.query(`DROP TABLE portal_sign_in_attempts`);
  }
}

import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';

export interface StoredMfa {
  secret: string;
  enrolledAt: Date | null;
  lastStep: number;
}

/** member_mfa and member_recovery_codes (secrets sealed, recovery codes hashed), and the accounts' MFA policy. */
@Injectable()
export class MfaRepository {
  constructor(private readonly db: Transactions) {}

  async find(memberId: string): Promise<StoredMfa | null> {
    const rows = await this.db.query<{ secret: string; enrolled_at: Date | null; last_step: string }>(
      `SELECT secret, enrolled_at, last_step FROM member_mfa WHERE member_id = $1`,
      [memberId],
    );
    return rows[0] ? { secret: rows[0].secret, enrolledAt: rows[0].enrolled_at, lastStep: Number(rows[0].last_step) } : null;
  }

  /** A new enrolment awaiting its first code (replacing one that awaited; never an enrolled secret). */
  async savePending(memberId: string, sealedSecret: string): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO member_mfa (member_id, secret) VALUES ($1, $2)
       ON CONFLICT (member_id) DO UPDATE SET secret = EXCLUDED.secret, last_step = 0, created_at = now() WHERE member_mfa.enrolled_at IS NULL
       RETURNING member_id`,
      [memberId, sealedSecret],
    );
    return rows.length > 0;
  }

  async markEnrolled(memberId: string, step: number): Promise<void> {
    await this.db.query(`UPDATE member_mfa SET enrolled_at = now(), last_step = $2 WHERE member_id = $1`, [memberId, step]);
  }

  /** Accepts time step `step` if it is later than the last one accepted: one statement, so a code raced twice is accepted once. */
  async takeStep(memberId: string, step: number): Promise<boolean> {
    const rows = await this.db.query(`UPDATE member_mfa SET last_step = $2 WHERE member_id = $1 AND last_step < $2 RETURNING member_id`, [memberId, step]);
    return rows.length > 0;
  }

  async replaceRecoveryCodes(memberId: string, hashes: string[]): Promise<void> {
    await this.db.query(`DELETE FROM member_recovery_codes WHERE member_id = $1`, [memberId]);
    await this.db.query(`INSERT INTO member_recovery_codes (member_id, code_hash) SELECT $1, unnest($2::text[])`, [memberId, hashes]);
  }

  /** Uses the recovery code with this hash if it is unused: true once, false ever after. */
  async useRecoveryCode(memberId: string, hash: string): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE member_recovery_codes SET used_at = now() WHERE member_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING member_id`,
      [memberId, hash],
    );
    return rows.length > 0;
  }

  async unusedRecoveryCodes(memberId: string): Promise<number> {
    const rows = await this.db.query<{ n: string }>(`SELECT count(*) AS n FROM member_recovery_codes WHERE member_id = $1 AND used_at IS NULL`, [memberId]);
    return Number(rows[0].n);
  }

  async remove(memberId: string): Promise<boolean> {
    await this.db.query(`DELETE FROM member_recovery_codes WHERE member_id = $1`, [memberId]);
    const rows = await this.db.query(`DELETE FROM member_mfa WHERE member_id = $1 AND enrolled_at IS NOT NULL RETURNING member_id`, [memberId]);
    return rows.length > 0;
  }

  async mfaRequired(accountId: string): Promise<boolean> {
    const rows = await this.db.query<{ mfa_required: boolean }>(`SELECT mfa_required FROM account_security WHERE account_id = $1`, [accountId]);
    return rows[0]?.mfa_required ?? false;
  }

  async setMfaRequired(accountId: string, required: boolean): Promise<void> {
    await this.db.query(
      `INSERT INTO account_security (account_id, mfa_required) VALUES ($1, $2)
       ON CONFLICT (account_id) DO UPDATE SET mfa_required = EXCLUDED.mfa_required, updated_at = now()`,
      [accountId, required],
    );
  }
}

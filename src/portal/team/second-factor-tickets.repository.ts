import { Injectable } from '@nestjs/common';
import { Transactions } from '../../database/transactions.js';

/** A ticket's holder: who passed the password step, and their password hash's fingerprint then. */
export interface HeldTicket {
  accountId: string;
  memberId: string;
  email: string;
  passwordFingerprint: string;
}

/** The tickets between a sign-in's password and its code: only the SHA-256 of each is stored, and each is used once. */
@Injectable()
export class SecondFactorTicketsRepository {
  constructor(private readonly db: Transactions) {}

  /** A new ticket valid for `ttlMs`; the member's used or expired ones, and anyone's expired a day ago, go at the same time. */
  async insert(idHash: string, accountId: string, memberId: string, passwordFingerprint: string, ttlMs: number): Promise<void> {
    await this.db.query(
      `DELETE FROM portal_sign_in_tickets WHERE (member_id = $1 AND (used_at IS NOT NULL OR expires_at <= now())) OR expires_at < now() - interval '1 day'`,
      [memberId],
    );
    await this.db.query(
      `INSERT INTO portal_sign_in_tickets (id_hash, account_id, member_id, password_fingerprint, expires_at)
       VALUES ($1, $2, $3, $4, now() + ($5::int * interval '1 millisecond'))`,
      [idHash, accountId, memberId, passwordFingerprint, ttlMs],
    );
  }

  /** Whether the ticket is unused and unexpired. */
  async isOpen(idHash: string): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM portal_sign_in_tickets WHERE id_hash = $1 AND used_at IS NULL AND expires_at > now()`, [idHash]);
    return rows.length > 0;
  }

  /**
   * The ticket if it is unused and unexpired, locked until the caller's transaction ends: a second
   * exchange of the same ticket waits here, then finds it used.
   */
  async hold(idHash: string): Promise<HeldTicket | null> {
    const rows = await this.db.query<{ account_id: string; member_id: string; email: string; password_fingerprint: string }>(
      `SELECT t.account_id, t.member_id, m.email, t.password_fingerprint FROM portal_sign_in_tickets t JOIN members m ON m.id = t.member_id
        WHERE t.id_hash = $1 AND t.used_at IS NULL AND t.expires_at > now() FOR UPDATE OF t`,
      [idHash],
    );
    const row = rows[0];
    return row ? { accountId: row.account_id, memberId: row.member_id, email: row.email, passwordFingerprint: row.password_fingerprint } : null;
  }

  async use(idHash: string): Promise<void> {
    await this.db.query(`UPDATE portal_sign_in_tickets SET used_at = now() WHERE id_hash = $1`, [idHash]);
  }
}

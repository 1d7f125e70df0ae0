import { Injectable } from '@nestjs/common';
import { Transactions } from '../../database/transactions.js';

/** Whose password a reset link sets: a member. */
export interface ResetLogin {
  memberId: string;
  accountId: string;
  email: string;
}

/** Password-reset links: only the SHA-256 of each token is stored. */
@Injectable()
export class PasswordResetsRepository {
  constructor(private readonly db: Transactions) {}

  /** The member signing in with this e-mail (lowercase): their id, account, and the address as stored. */
  async memberOf(email: string): Promise<ResetLogin | null> {
    const rows = await this.db.query<{ id: string; account_id: string; email: string }>(`SELECT id, account_id, email FROM members WHERE email = $1`, [email]);
    return rows[0] ? { memberId: rows[0].id, accountId: rows[0].account_id, email: rows[0].email } : null;
  }

  /** A new link for the member; their links that are used or expired go at the same time. */
  async insert(tokenHash: string, login: ResetLogin, expiresAt: Date): Promise<void> {
    await this.db.query(`DELETE FROM portal_password_resets WHERE member_id = $1 AND (used_at IS NOT NULL OR expires_at <= now())`, [login.memberId]);
    await this.db.query(`INSERT INTO portal_password_resets (token_hash, account_id, member_id, expires_at) VALUES ($1, $2, $3, $4)`, [
      tokenHash,
      login.accountId,
      login.memberId,
      expiresAt,
    ]);
  }

  /** The link's member if it is unused and unexpired, locked for the caller's transaction. */
  async open(tokenHash: string): Promise<ResetLogin | null> {
    const rows = await this.db.query<{ account_id: string; member_id: string; email: string }>(
      `SELECT r.account_id, r.member_id, m.email FROM portal_password_resets r JOIN members m ON m.id = r.member_id
        WHERE r.token_hash = $1 AND r.used_at IS NULL AND r.expires_at > now() FOR UPDATE OF r`,
      [tokenHash],
    );
    return rows[0] ? { accountId: rows[0].account_id, memberId: rows[0].member_id, email: rows[0].email } : null;
  }

  /** Marks every open link of the member used: one was, or the password changed another way. */
  async closeAll(memberId: string): Promise<void> {
    await this.db.query(`UPDATE portal_password_resets SET used_at = now() WHERE member_id = $1 AND used_at IS NULL`, [memberId]);
  }
}

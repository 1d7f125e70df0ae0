import { Injectable } from '@nestjs/common';
import { Transactions } from '../../database/transactions.js';

/** Password-reset links: only the SHA-256 of each token is stored. */
@Injectable()
export class PasswordResetsRepository {
  constructor(private readonly db: Transactions) {}

  /** The account signing in with this e-mail (lowercase), and the address as stored. */
  async accountOf(email: string): Promise<{ id: string; email: string } | null> {
    const rows = await this.db.query<{ id: string; email: string }>(`SELECT id, email FROM accounts WHERE email = $1`, [email]);
    return rows[0] ?? null;
  }

  /** A new link for the account; the account's links that are used or expired go at the same time. */
  async insert(tokenHash: string, accountId: string, expiresAt: Date): Promise<void> {
    await this.db.query(`DELETE FROM portal_password_resets WHERE account_id = $1 AND (used_at IS NOT NULL OR expires_at <= now())`, [accountId]);
    await this.db.query(`INSERT INTO portal_password_resets (token_hash, account_id, expires_at) VALUES ($1, $2, $3)`, [tokenHash, accountId, expiresAt]);
  }

  /** The link's account if it is unused and unexpired, locked for the caller's transaction. */
  async open(tokenHash: string): Promise<string | null> {
    const rows = await this.db.query<{ account_id: string }>(
      `SELECT account_id FROM portal_password_resets WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() FOR UPDATE`,
      [tokenHash],
    );
    return rows[0]?.account_id ?? null;
  }

  /** Marks every open link of the account used: one was, or the password changed another way. */
  async closeAll(accountId: string): Promise<void> {
    await this.db.query(`UPDATE portal_password_resets SET used_at = now() WHERE account_id = $1 AND used_at IS NULL`, [accountId]);
  }
}

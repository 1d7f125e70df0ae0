import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';

/** The portal's tables: passwords, invites, sessions and failed sign-ins. Only hashes of tokens and session ids. */
@Injectable()
export class PortalRepository {
  constructor(private readonly db: Transactions) {}

  async insertInvite(tokenHash: string, accountId: string, expiresAt: Date): Promise<void> {
    await this.db.manager.query(`INSERT INTO portal_invites (token_hash, account_id, expires_at) VALUES ($1, $2, $3)`, [tokenHash, accountId, expiresAt]);
  }

  /** The invite's account if it is unused and unexpired, locked for the caller's transaction. */
  async openInvite(tokenHash: string): Promise<string | null> {
    const rows: Array<{ account_id: string }> = await this.db.manager.query(
      `SELECT account_id FROM portal_invites WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() FOR UPDATE`,
      [tokenHash],
    );
    return rows[0]?.account_id ?? null;
  }

  async useInvite(tokenHash: string): Promise<void> {
    await this.db.manager.query(`UPDATE portal_invites SET used_at = now() WHERE token_hash = $1`, [tokenHash]);
  }

  async setPassword(accountId: string, hash: string): Promise<void> {
    await this.db.manager.query(
      `INSERT INTO portal_passwords (account_id, hash) VALUES ($1, $2) ON CONFLICT (account_id) DO UPDATE SET hash = EXCLUDED.hash, updated_at = now()`,
      [accountId, hash],
    );
  }

  async passwordOf(email: string): Promise<{ accountId: string; hash: string } | null> {
    const rows: Array<{ account_id: string; hash: string }> = await this.db.manager.query(
      `SELECT p.account_id, p.hash FROM portal_passwords p JOIN accounts a ON a.id = p.account_id WHERE a.email = $1`,
      [email],
    );
    return rows[0] ? { accountId: rows[0].account_id, hash: rows[0].hash } : null;
  }

  async insertSession(idHash: string, accountId: string): Promise<void> {
    await this.db.manager.query(`INSERT INTO portal_sessions (id_hash, account_id) VALUES ($1, $2)`, [idHash, accountId]);
  }

  /** The session's account if it was used within `idleMs` (marked used now); an idle one is deleted. */
  async touchSession(idHash: string, idleMs: number): Promise<string | null> {
    // TypeORM answers an UPDATE … RETURNING as [rows, count].
    const [rows]: [Array<{ account_id: string }>, number] = await this.db.manager.query(
      `UPDATE portal_sessions SET last_seen_at = now() WHERE id_hash = $1 AND last_seen_at > now() - ($2::int * interval '1 millisecond') RETURNING account_id`,
      [idHash, idleMs],
    );
    if (rows.length > 0) return rows[0].account_id;
    await this.deleteSession(idHash); // idle too long: gone for good
    return null;
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.db.manager.query(`DELETE FROM portal_sessions WHERE id_hash = $1`, [idHash]);
  }

  async recordFailure(emailHash: string): Promise<void> {
    await this.db.manager.query(`INSERT INTO portal_login_failures (email_hash) VALUES ($1)`, [emailHash]);
  }

  async failuresSince(emailHash: string, since: Date): Promise<{ count: number; last: Date | null }> {
    const [row]: Array<{ count: number; last: Date | null }> = await this.db.manager.query(
      `SELECT count(*)::int AS count, max(failed_at) AS last FROM portal_login_failures WHERE email_hash = $1 AND failed_at > $2`,
      [emailHash, since],
    );
    return { count: row.count, last: row.last ? new Date(row.last) : null };
  }

  async clearFailures(emailHash: string): Promise<void> {
    await this.db.manager.query(`DELETE FROM portal_login_failures WHERE email_hash = $1`, [emailHash]);
  }
}

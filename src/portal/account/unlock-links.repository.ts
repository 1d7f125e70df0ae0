import { Injectable } from '@nestjs/common';
import { Transactions } from '../../database/transactions.js';
import type { ResetLogin } from './password-resets.repository.js';

/** Whose sign-in an unlock link clears: a member (as a reset link's). */
export type UnlockLogin = ResetLogin;

/** Unlock links: one per member at a time, only the SHA-256 of its token stored. */
@Injectable()
export class UnlockLinksRepository {
  constructor(private readonly db: Transactions) {}

  /**
   * A new link for the member, valid for `ttlMs`, unless one was made within `everyMs`: then nothing
   * changes and the answer is false. One statement (the member's row, locked by the upsert), so
   * locks on several instances at once make one link.
   */
  async issue(tokenHash: string, login: UnlockLogin, ttlMs: number, everyMs: number): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO portal_unlock_links AS l (member_id, account_id, token_hash, expires_at)
       VALUES ($1, $2, $3, now() + ($4::int * interval '1 millisecond'))
       ON CONFLICT (member_id) DO UPDATE
         SET account_id = EXCLUDED.account_id, token_hash = EXCLUDED.token_hash, created_at = now(), expires_at = EXCLUDED.expires_at, used_at = NULL
       WHERE l.created_at <= now() - ($5::int * interval '1 millisecond')
       RETURNING member_id`,
      [login.memberId, login.accountId, tokenHash, ttlMs, everyMs],
    );
    return rows.length > 0;
  }

  /** The link's member if it is unused and unexpired, locked for the caller's transaction. */
  async open(tokenHash: string): Promise<UnlockLogin | null> {
    const rows = await this.db.query<{ account_id: string; member_id: string; email: string }>(
      `SELECT l.account_id, l.member_id, m.email FROM portal_unlock_links l JOIN members m ON m.id = l.member_id
        WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.expires_at > now() FOR UPDATE OF l`,
      [tokenHash],
    );
    return rows[0] ? { accountId: rows[0].account_id, memberId: rows[0].member_id, email: rows[0].email } : null;
  }

  async use(tokenHash: string): Promise<void> {
    await this.db.query(`UPDATE portal_unlock_links SET used_at = now() WHERE token_hash = $1`, [tokenHash]);
  }
}

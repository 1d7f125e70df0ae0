import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';

/** What a storage check sees, in one snapshot. */
export interface StorageRoom {
  /** The account's kept files, in bytes (`account_storage`, kept by triggers on `files`). */
  stored: number;
  /** Live holds of uploads under way, but this file's own. */
  held: number;
  /** The account keeps this file already: an upload of it stores nothing new. */
  has: boolean;
}

/** `storage.bytes`: each account's level (a counter the `files` table's triggers keep) and the holds of uploads under way. */
@Injectable()
export class StorageRepository {
  constructor(private readonly db: Transactions) {}

  /** The bytes the account's kept files take now. */
  async level(accountId: string): Promise<number> {
    const [row] = await this.db.query<{ bytes: string }>(`SELECT bytes FROM account_storage WHERE account_id = $1`, [accountId]);
    return Number(row?.bytes ?? 0);
  }

  /**
   * The level, the live holds but this file's and whether the account has the file, in one statement: an
   * upload that stores its row meanwhile (its hold deleted, its size added, in one transaction) is counted
   * once, never twice or not at all.
   */
  async room(accountId: string, sha256: string): Promise<StorageRoom> {
    const [row] = await this.db.query<{ stored: string; held: string; has: boolean }>(
      `SELECT (SELECT coalesce(max(bytes), 0) FROM account_storage WHERE account_id = $1) AS stored,
              (SELECT coalesce(sum(quantity), 0) FROM quota_reservations
                WHERE account_id = $1 AND meter = 'storage.bytes' AND expires_at > now() AND held_for IS DISTINCT FROM $2) AS held,
              EXISTS (SELECT 1 FROM files WHERE account_id = $1 AND sha256 = $2) AS has`,
      [accountId, sha256],
    );
    return { stored: Number(row.stored), held: Number(row.held), has: row.has };
  }

  /** Holds `bytes` for the upload of this file for `ttlMs` (the database's clock); one hold per file: a second upload of it renews the first. */
  async hold(id: string, accountId: string, sha256: string, bytes: number, ttlMs: number): Promise<void> {
    await this.db.query(
      `INSERT INTO quota_reservations AS r (id, account_id, meter, quantity, expires_at, held_for)
       VALUES ($1, $2, 'storage.bytes', $3, now() + ($4::int * interval '1 millisecond'), $5)
       ON CONFLICT (account_id, meter, held_for) WHERE held_for IS NOT NULL
       DO UPDATE SET quantity = EXCLUDED.quantity, expires_at = EXCLUDED.expires_at`,
      [id, accountId, bytes, ttlMs, sha256],
    );
  }

  /** The accounts that keep something, after `after` (by id), with their levels: a page of the daily sample. */
  async levelsAfter(after: string, limit: number): Promise<Array<{ accountId: string; bytes: number }>> {
    const rows = await this.db.query<{ account_id: string; bytes: string }>(
      `SELECT account_id, bytes FROM account_storage WHERE account_id > $1 AND bytes > 0 ORDER BY account_id LIMIT $2`,
      [after, limit],
    );
    return rows.map((r) => ({ accountId: r.account_id, bytes: Number(r.bytes) }));
  }
}

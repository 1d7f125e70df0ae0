import { Injectable } from '@nestjs/common';
import { Transactions } from '../../database/transactions.js';

export interface IdempotencyFingerprint {
  accountId: string;
  key: string;
  method: string;
  path: string;
  requestHash: string;
}

export interface StoredIdempotencyRecord {
  method: string;
  path: string;
  requestHash: string;
  /** null while the first request is still running */
  statusCode: number | null;
  /** the first response's JSON text (null for an empty body) */
  responseBody: string | null;
}

/** SQL of the idempotency_keys table. Each call is one statement: nothing is held between them (except inside a caller's transaction). */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly db: Transactions) {}

  /**
   * Takes the key for this request: inserts the row, or takes over one that has expired, or one
   * left in flight by a crashed process (same request, older than `abandonedAfterSeconds`).
   * Returns false when someone else holds the key.
   */
  async claim(f: IdempotencyFingerprint, retentionSeconds: number, abandonedAfterSeconds: number): Promise<boolean> {
    const rows = await this.db.query<unknown>(
      `INSERT INTO idempotency_keys (account_id, key, method, path, request_hash)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (account_id, key) DO UPDATE
         SET method = EXCLUDED.method, path = EXCLUDED.path, request_hash = EXCLUDED.request_hash,
             status_code = NULL, response_body = NULL, created_at = now(), completed_at = NULL
         WHERE idempotency_keys.created_at < now() - make_interval(secs => $6)
            OR (idempotency_keys.status_code IS NULL
                AND idempotency_keys.created_at < now() - make_interval(secs => $7)
                AND idempotency_keys.method = EXCLUDED.method
                AND idempotency_keys.path = EXCLUDED.path
                AND idempotency_keys.request_hash = EXCLUDED.request_hash)
       RETURNING 1 AS claimed`,
      [f.accountId, f.key, f.method, f.path, f.requestHash, retentionSeconds, abandonedAfterSeconds],
    );
    return rows.length === 1;
  }

  async find(accountId: string, key: string): Promise<StoredIdempotencyRecord | undefined> {
    const rows = await this.db.query<{ method: string; path: string; request_hash: string; status_code: number | null; response_body: string | null }>(
      `SELECT method, path, request_hash, status_code, response_body FROM idempotency_keys WHERE account_id = $1 AND key = $2`,
      [accountId, key],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      method: row.method,
      path: row.path,
      requestHash: row.request_hash,
      statusCode: row.status_code === null ? null : Number(row.status_code),
      responseBody: row.response_body,
    };
  }

  async complete(f: IdempotencyFingerprint, statusCode: number, responseBody: string | null): Promise<void> {
    await this.db.query(
      `UPDATE idempotency_keys SET status_code = $3, response_body = $4, completed_at = now()
       WHERE account_id = $1 AND key = $2 AND request_hash = $5 AND status_code IS NULL`,
      [f.accountId, f.key, statusCode, responseBody, f.requestHash],
    );
  }

  /** Gives the key back (the request failed), so the client may retry with it. */
  async release(f: IdempotencyFingerprint): Promise<void> {
    await this.db.query(`DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND request_hash = $3 AND status_code IS NULL`, [
      f.accountId,
      f.key,
      f.requestHash,
    ]);
  }

  /** Deletes up to `batch` expired rows; returns how many went. */
  async deleteExpired(retentionSeconds: number, batch: number): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      `WITH gone AS (
         DELETE FROM idempotency_keys WHERE ctid IN (
           SELECT ctid FROM idempotency_keys WHERE created_at < now() - make_interval(secs => $1) LIMIT $2)
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [retentionSeconds, batch],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Inside the caller's transaction: drops stored responses whose body is one of these resources `{ id, … }` (erasure). */
  async deleteResponsesOf(accountId: string, resourceIds: string[]): Promise<void> {
    if (resourceIds.length === 0) return;
    await this.db.query(`DELETE FROM idempotency_keys WHERE account_id = $1 AND response_body IS NOT NULL AND response_body::jsonb ->> 'id' = ANY($2)`, [
      accountId,
      resourceIds,
    ]);
  }
}

import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';

/** One row of `files`, as the sweep sees it. */
export interface FileKey {
  accountId: string;
  sha256: string;
}

/**
 * The `files` table: what each account uploaded (the contents are blobs), whether a live deployment
 * references it, and when it was last uploaded. Plain SQL: manifests carry up to 20,000 hashes.
 */
@Injectable()
export class FilesRepository {
  constructor(private readonly db: Transactions) {}

  /** An upload of a file the account has: restarts its 24 h and answers its size, or undefined when it has none. */
  async touch(accountId: string, sha256: string): Promise<number | undefined> {
    const rows = await this.db.query<{ size: string }>(`UPDATE files SET created_at = now() WHERE account_id = $1 AND sha256 = $2 RETURNING size`, [
      accountId,
      sha256,
    ]);
    return rows.length ? Number(rows[0].size) : undefined;
  }

  /** Records an upload whose blob is written; whether the row is new (a concurrent upload of the same file may have made it). */
  async insert(accountId: string, sha256: string, size: number): Promise<boolean> {
    const rows = await this.db.query<{ inserted: boolean }>(
      `INSERT INTO files (account_id, sha256, size, created_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (account_id, sha256) DO UPDATE SET created_at = now() RETURNING (xmax = 0) AS inserted`,
      [accountId, sha256, size],
    );
    return rows[0].inserted;
  }

  /**
   * In a deploy's transaction: the sizes of those of `hashes` the account has, their rows share-locked
   * until the deploy commits, so no sweep deletes a file a deployment is about to reference.
   */
  async lockForDeploy(accountId: string, hashes: string[]): Promise<Map<string, number>> {
    const rows = await this.db.query<{ sha256: string; size: string }>(
      `SELECT sha256, size FROM files WHERE account_id = $1 AND sha256 = ANY($2::char(64)[]) FOR KEY SHARE`,
      [accountId, hashes],
    );
    return new Map(rows.map((r) => [r.sha256, Number(r.size)]));
  }

  /** In a deploy's transaction (queued: goes out with its COMMIT): these files are referenced now. */
  markReferenced(accountId: string, hashes: string[]): void {
    this.db.queueWrite(`UPDATE files SET referenced = true WHERE account_id = $1 AND sha256 = ANY($2::char(64)[]) AND NOT referenced`, [accountId, hashes]);
  }

  /** The hashes the deployments of an app reference (each once). */
  async hashesOfApp(appId: string): Promise<string[]> {
    const rows = await this.db.query<{ sha256: string }>(
      `SELECT DISTINCT e.value AS sha256 FROM deployments d CROSS JOIN LATERAL jsonb_each_text(d.files) e(path, value) WHERE d.app_id = $1 AND d.files IS NOT NULL`,
      [appId],
    );
    return rows.map((r) => r.sha256);
  }

  /** In the transaction deleting an app: locks these files of the account against deploys, until it commits. */
  async lockForUpdate(accountId: string, hashes: string[]): Promise<void> {
    await this.db.query(`SELECT 1 FROM files WHERE account_id = $1 AND sha256 = ANY($2::char(64)[]) FOR UPDATE`, [accountId, hashes]);
  }

  /** Those of `hashes` that a deployment of another of the account's apps references. */
  async referencedByOtherApps(accountId: string, appId: string, hashes: string[]): Promise<Set<string>> {
    const rows = await this.db.query<{ sha256: string }>(
      `SELECT DISTINCT e.value AS sha256 FROM deployments d CROSS JOIN LATERAL jsonb_each_text(d.files) e(path, value)
       WHERE d.account_id = $1 AND d.app_id <> $2 AND d.files IS NOT NULL AND e.value = ANY($3::text[])`,
      [accountId, appId, hashes],
    );
    return new Set(rows.map((r) => r.sha256));
  }

  /** No live deployment references these files any more (their app is being deleted). */
  async markUnreferenced(accountId: string, hashes: string[]): Promise<void> {
    await this.db.query(`UPDATE files SET referenced = false WHERE account_id = $1 AND sha256 = ANY($2::char(64)[])`, [accountId, hashes]);
  }

  /**
   * In the sweep's transaction: up to `limit` unreferenced files last uploaded before `before`, locked
   * for deletion. Rows a deploy holds are skipped (it is about to reference them).
   */
  async lockSweepable(before: Date, limit: number): Promise<FileKey[]> {
    return this.db.query<FileKey>(
      `SELECT account_id AS "accountId", sha256 FROM files WHERE NOT referenced AND created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [before, limit],
    );
  }

  /** The same, for given files of one account whatever their age (what an app's deletion left unreferenced). */
  async lockUnreferenced(accountId: string, hashes: string[]): Promise<FileKey[]> {
    return this.db.query<FileKey>(
      `SELECT account_id AS "accountId", sha256 FROM files WHERE account_id = $1 AND sha256 = ANY($2::char(64)[]) AND NOT referenced FOR UPDATE SKIP LOCKED`,
      [accountId, hashes],
    );
  }

  async delete(keys: FileKey[]): Promise<void> {
    await this.db.query(`DELETE FROM files WHERE (account_id, sha256) IN (SELECT * FROM unnest($1::varchar[], $2::char(64)[]))`, [
      keys.map((k) => k.accountId),
      keys.map((k) => k.sha256),
    ]);
  }
}

import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';

/** A variant of a split test: a deployment and its share of visitors (percent). */
export interface SplitVariant {
  deploymentId: string;
  weight: number;
}

export interface Split {
  id: string;
  accountId: string;
  appId: string;
  variants: SplitVariant[];
  startedAt: Date;
}

/** How a split test ended. */
export type SplitEnd = 'deleted' | 'published' | 'unpublished' | 'replaced';

interface SplitRow {
  id: string;
  account_id: string;
  app_id: string;
  variants: SplitVariant[];
  started_at: Date;
}

/** The app_splits table: at most one running test per app (the partial unique index). */
@Injectable()
export class SplitRepository {
  constructor(private readonly db: Transactions) {}

  async running(appId: string): Promise<Split | undefined> {
    const [row] = await this.db.query<SplitRow>(`SELECT id, account_id, app_id, variants, started_at FROM app_splits WHERE app_id = $1 AND ended_at IS NULL`, [
      appId,
    ]);
    return row && toSplit(row);
  }

  async insert(split: Split): Promise<void> {
    await this.db.query(`INSERT INTO app_splits (id, account_id, app_id, variants, started_at) VALUES ($1, $2, $3, $4, $5)`, [
      split.id,
      split.accountId,
      split.appId,
      JSON.stringify(split.variants),
      split.startedAt,
    ]);
  }

  async end(id: string, by: SplitEnd, at: Date): Promise<void> {
    await this.db.query(`UPDATE app_splits SET ended_at = $2, ended_by = $3 WHERE id = $1 AND ended_at IS NULL`, [id, at, by]);
  }
}

function toSplit(row: SplitRow): Split {
  return { id: row.id, accountId: row.account_id, appId: row.app_id, variants: row.variants, startedAt: row.started_at };
}

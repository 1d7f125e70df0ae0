import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';

export interface AnalyticsShare {
  id: string;
  appId: string;
  name: string;
  passwordHash: string | null;
  createdAt: Date;
}

/** A share found by its token, with the account that owns its app (the dashboard is read as that account). */
export interface ResolvedShare extends AnalyticsShare {
  accountId: string;
}

interface ShareRow {
  id: string;
  app_id: string;
  name: string;
  password_hash: string | null;
  created_at: Date;
  account_id?: string;
}

/** The analytics_shares table. */
@Injectable()
export class AnalyticsSharesRepository {
  constructor(private readonly db: Transactions) {}

  async insert(share: Omit<AnalyticsShare, 'createdAt'> & { tokenHash: string }): Promise<AnalyticsShare> {
    const [row] = await this.db.query<ShareRow>(
      `INSERT INTO analytics_shares (id, app_id, name, token_hash, password_hash) VALUES ($1, $2, $3, $4, $5) RETURNING *`,
      [share.id, share.appId, share.name, share.tokenHash, share.passwordHash],
    );
    return toShare(row);
  }

  /** The app's shares, oldest first. */
  async list(appId: string): Promise<AnalyticsShare[]> {
    return (await this.db.query<ShareRow>(`SELECT * FROM analytics_shares WHERE app_id = $1 ORDER BY created_at, id`, [appId])).map(toShare);
  }

  async count(appId: string): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM analytics_shares WHERE app_id = $1`, [appId]);
    return row.n;
  }

  /** Deletes one share of the app: whether there was one. */
  async delete(appId: string, id: string): Promise<boolean> {
    return (await this.db.query(`DELETE FROM analytics_shares WHERE app_id = $1 AND id = $2 RETURNING id`, [appId, id])).length > 0;
  }

  /** The share whose token has this SHA-256, and its app's account; null once deleted (or its app is). */
  async findByTokenHash(tokenHash: string): Promise<ResolvedShare | null> {
    const [row] = await this.db.query<ShareRow>(`SELECT s.*, a.account_id FROM analytics_shares s JOIN apps a ON a.id = s.app_id WHERE s.token_hash = $1`, [
      tokenHash,
    ]);
    return row ? { ...toShare(row), accountId: row.account_id! } : null;
  }
}

function toShare(row: ShareRow): AnalyticsShare {
  return { id: row.id, appId: row.app_id, name: row.name, passwordHash: row.password_hash, createdAt: new Date(row.created_at) };
}

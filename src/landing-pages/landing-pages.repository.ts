import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';
import type { LandingPage } from './landing-page.js';
import { LandingPageRow, LandingPageSource } from './landing-page.entity.js';

/** The landing_pages table. */
@Injectable()
export class LandingPagesRepository {
  constructor(private readonly db: Transactions) {}

  /** On the deploy path (docs/decisions/2026-11-22-plain-sql-hot-paths.md): plain SQL, no entity metadata per read. */
  async find(appId: string): Promise<LandingPageRow | null> {
    const [row] = await this.db.query<{ account_id: string; source: LandingPageSource; page: LandingPage; updated_at: Date }>(
      'SELECT account_id, source, page, updated_at FROM landing_pages WHERE app_id = $1',
      [appId],
    );
    return row ? { appId, accountId: row.account_id, source: row.source, page: row.page, updatedAt: row.updated_at } : null;
  }

  /** Inserts or replaces the app's page; returns the stored row. */
  async save(row: { appId: string; accountId: string; source: LandingPageSource; page: LandingPage }): Promise<LandingPageRow> {
    const rows = await this.db.query<{ updated_at: Date }>(
      `INSERT INTO landing_pages (app_id, account_id, source, page, updated_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (app_id) DO UPDATE SET source = EXCLUDED.source, page = EXCLUDED.page, updated_at = EXCLUDED.updated_at
       RETURNING updated_at`,
      [row.appId, row.accountId, row.source, JSON.stringify(row.page)],
    );
    return { ...row, updatedAt: rows[0].updated_at };
  }
}

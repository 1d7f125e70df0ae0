import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';
import { AiUsage } from './ai-usage.entity.js';

/** Sums of one UTC day, as PostgreSQL returns them (bigint sums arrive as strings). */
export interface AiUsageDayRow {
  date: string;
  requests: string;
  failed: string;
  prompt: string;
  completion: string;
  total: string;
}

/** The ai_usage table: one row per generation that reached a provider. */
@Injectable()
export class AiUsageRepository {
  constructor(private readonly db: Transactions) {}

  async insert(entry: Omit<AiUsage, 'createdAt'>): Promise<void> {
    await this.db.manager.getRepository(AiUsage).insert(entry);
  }

  /** Days in [from, to] (YYYY-MM-DD, UTC, both included) that have usage; quiet days are absent. */
  dailyTotals(accountId: string, from: string, to: string): Promise<AiUsageDayRow[]> {
    return this.db.query<AiUsageDayRow>(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date,
              count(*) AS requests,
              count(*) FILTER (WHERE outcome <> 'success') AS failed,
              coalesce(sum(prompt_tokens), 0) AS prompt,
              coalesce(sum(completion_tokens), 0) AS completion,
              coalesce(sum(total_tokens), 0) AS total
         FROM ai_usage
        WHERE account_id = $1
          AND created_at >= ($2::date AT TIME ZONE 'UTC')
          AND created_at < (($3::date + 1) AT TIME ZONE 'UTC')
        GROUP BY 1`,
      [accountId, from, to],
    );
  }
}

import { Injectable, Logger } from '@nestjs/common';
import { Meters, type QuotaReservation } from '../billing/meters.js';
import { Transactions } from '../database/transactions.js';
import type { AiUsage } from './ai-usage.entity.js';
import { AiUsageRepository } from './ai-usage.repository.js';
import type { UsageDayDto } from './dto/usage.dto.js';

export type AiUsageRecord = Omit<AiUsage, 'createdAt'>;

/** One UTC day of usage, as the API answers it. */
export type AiUsageDay = UsageDayDto;

/**
 * The one place AI usage is written and summed. Analytics and billing read through here, so what
 * counts as a request or a token is decided once.
 */
@Injectable()
export class AiUsageService {
  private readonly logger = new Logger(AiUsageService.name);

  constructor(
    private readonly db: Transactions,
    private readonly usage: AiUsageRepository,
    private readonly meters: Meters,
  ) {}

  /**
   * Records one generation, and its tokens on the `ai.tokens` meter (against the credential's AI
   * budget too: `subjectId`), and gives back the quota it held, in one transaction (so a quota check counts its tokens once, as held or as used). Metering
   * must not fail the generation it meters: errors are logged (the hold then lapses when it expires).
   */
  async record(entry: AiUsageRecord, reservation: QuotaReservation | null = null, subjectId: string | null = null): Promise<void> {
    try {
      await this.db.run(async () => {
        this.usage.queueInsert(entry);
        await this.meters.record(entry.accountId, 'ai.tokens', entry.totalTokens, entry.id, new Date(), subjectId);
        await this.meters.release(reservation);
      });
    } catch (err) {
      this.logger.error({ err: { message: (err as Error)?.message }, generationId: entry.id }, 'Could not record AI usage');
    }
  }

  /** One row per UTC day in [from, to] (YYYY-MM-DD, both included), zeros for quiet days. */
  async dailyTotals(accountId: string, from: string, to: string): Promise<AiUsageDay[]> {
    const rows = await this.usage.dailyTotals(accountId, from, to);
    const byDate = new Map(rows.map((r) => [r.date, r]));
    const days: AiUsageDay[] = [];
    for (let day = Date.parse(`${from}T00:00:00Z`); day <= Date.parse(`${to}T00:00:00Z`); day += 86_400_000) {
      const date = new Date(day).toISOString().slice(0, 10);
      const r = byDate.get(date);
      days.push({
        date,
        requests: Number(r?.requests ?? 0),
        failed: Number(r?.failed ?? 0),
        promptTokens: Number(r?.prompt ?? 0),
        completionTokens: Number(r?.completion ?? 0),
        totalTokens: Number(r?.total ?? 0),
      });
    }
    return days;
  }
}

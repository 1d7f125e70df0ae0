import { Injectable } from '@nestjs/common';
import { newId } from '../common/ids.js';
import { Transactions } from '../database/transactions.js';
import type { Meter } from './plans.js';

/** The usage ledger (one row per billable thing), its daily rollups and the thresholds already announced. */
@Injectable()
export class UsageRepository {
  constructor(private readonly db: Transactions) {}

  /** Records `quantity` of `meter` for the thing `sourceId`, unless it was recorded before; answers the new row's id, or null. */
  async insertOnce(accountId: string, meter: Meter, quantity: number, sourceId: string, day: string): Promise<string | null> {
    const rows: Array<{ id: string }> = await this.db.manager.query(
      `INSERT INTO usage_records (id, account_id, meter, source_id, quantity) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (meter, source_id) DO NOTHING RETURNING id`,
      [newId('use'), accountId, meter, sourceId, quantity],
    );
    if (rows.length === 0) return null;
    await this.db.manager.query(
      `INSERT INTO usage_daily AS u (account_id, meter, day, quantity) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id, meter, day) DO UPDATE SET quantity = u.quantity + EXCLUDED.quantity`,
      [accountId, meter, day, quantity],
    );
    return rows[0].id;
  }

  /** Each meter's total over [from, to) (days, YYYY-MM-DD). */
  async totals(accountId: string, from: string, to: string): Promise<Map<string, number>> {
    const rows: Array<{ meter: string; used: string }> = await this.db.manager.query(
      `SELECT meter, sum(quantity)::bigint AS used FROM usage_daily WHERE account_id = $1 AND day >= $2 AND day < $3 GROUP BY meter`,
      [accountId, from, to],
    );
    return new Map(rows.map((r) => [r.meter, Number(r.used)]));
  }

  async total(accountId: string, meter: Meter, from: string, to: string): Promise<number> {
    const [row]: Array<{ used: string | null }> = await this.db.manager.query(
      `SELECT sum(quantity)::bigint AS used FROM usage_daily WHERE account_id = $1 AND meter = $2 AND day >= $3 AND day < $4`,
      [accountId, meter, from, to],
    );
    return Number(row.used ?? 0);
  }

  /** One meter's quantity per day over [from, to] (both included). */
  async daily(accountId: string, meter: Meter, from: string, to: string): Promise<Map<string, number>> {
    const rows: Array<{ day: string; quantity: string }> = await this.db.manager.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, quantity FROM usage_daily WHERE account_id = $1 AND meter = $2 AND day BETWEEN $3 AND $4`,
      [accountId, meter, from, to],
    );
    return new Map(rows.map((r) => [r.day, Number(r.quantity)]));
  }

  /** Notes that a threshold was reached this period; true only the first time. */
  async markThreshold(accountId: string, meter: Meter, threshold: number, periodStart: string): Promise<boolean> {
    const rows = await this.db.manager.query(
      `INSERT INTO usage_thresholds (account_id, meter, threshold, period_start) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING threshold`,
      [accountId, meter, threshold, periodStart],
    );
    return rows.length > 0;
  }

  /** Serialises quota checks and records of one account's meter within transactions (a check and its record must not interleave with another's). */
  async lockMeter(accountId: string, meter: Meter): Promise<void> {
    await this.db.manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('quota:' || $1 || ':' || $2, 0))`, [accountId, meter]);
  }
}

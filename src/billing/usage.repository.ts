import { Injectable } from '@nestjs/common';
import { newId } from '../common/ids.js';
import { Transactions } from '../database/transactions.js';
import type { Meter } from './plans.js';

export interface UsageToRecord {
  accountId: string;
  meter: Meter;
  quantity: number;
  /** The billable thing: recorded once per meter, however often it is given. */
  sourceId: string;
  /** Its day (YYYY-MM-DD, UTC). */
  day: string;
  /** Whose budget it counts against besides the account's quota (an API key's or a service account's id), if anyone's. */
  subjectId?: string | null;
}

/** What counts against a subject's limits: its recorded usage since each period's start, and its live holds. */
export interface SubjectCommitted {
  usedToday: number;
  usedThisMonth: number;
  held: number;
}

/** An account's usage per meter and day: the rollups plus what is still waiting to be rolled up ($1: the account). */
const USAGE_BY_DAY = `SELECT meter, day, quantity FROM usage_daily WHERE account_id = $1
  UNION ALL SELECT meter, day, quantity FROM usage_pending WHERE account_id = $1`;

/** The ledger row and its pending rollup row of each record, unless recorded before; answers the rows written. */
const INSERT_MANY_ONCE = `WITH input AS (
  SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[], $5::bigint[], $6::date[], $7::varchar[])
     AS i(id, account_id, meter, source_id, quantity, day, subject_id)
 ), recorded AS (
   INSERT INTO usage_records (id, account_id, meter, source_id, quantity, subject_id)
   SELECT id, account_id, meter, source_id, quantity, subject_id FROM input
   ON CONFLICT (meter, source_id) DO NOTHING RETURNING id
 ), pending AS (
   INSERT INTO usage_pending (record_id, account_id, meter, day, quantity)
   SELECT i.id, i.account_id, i.meter, i.day, i.quantity FROM input i JOIN recorded r USING (id)
 )
 SELECT i.id, i.account_id, i.meter FROM input i JOIN recorded r USING (id)`;

function insertManyOnceParameters(records: UsageToRecord[]): unknown[] {
  return [
    records.map(() => newId('use')),
    records.map((r) => r.accountId),
    records.map((r) => r.meter),
    records.map((r) => r.sourceId),
    records.map((r) => r.quantity),
    records.map((r) => r.day),
    records.map((r) => r.subjectId ?? null),
  ];
}

/** The usage ledger (one row per billable thing), its daily rollups, the thresholds already announced and the quota reserved by work in flight. */
@Injectable()
export class UsageRepository {
  constructor(private readonly db: Transactions) {}

  /** Records `quantity` of `meter` for the thing `sourceId`, unless it was recorded before; answers the new row's id, or null. */
  async insertOnce(accountId: string, meter: Meter, quantity: number, sourceId: string, day: string): Promise<string | null> {
    const [row] = await this.insertManyOnce([{ accountId, meter, quantity, sourceId, day }]);
    return row?.id ?? null;
  }

  /**
   * Records several things at once (one statement), each unless recorded before; answers the rows
   * written. The ledger row and its pending rollup row are written together; `rollUp` adds the
   * latter to `usage_daily` later, off the caller's transaction.
   */
  async insertManyOnce(records: UsageToRecord[]): Promise<Array<{ id: string; accountId: string; meter: Meter }>> {
    if (records.length === 0) return [];
    const rows = await this.db.query<{ id: string; account_id: string; meter: Meter }>(INSERT_MANY_ONCE, insertManyOnceParameters(records));
    return rows.map((r) => ({ id: r.id, accountId: r.account_id, meter: r.meter }));
  }

  /** `insertManyOnce` when nobody needs to know which rows were new: queued in the running transaction (see Transactions). */
  queueManyOnce(records: UsageToRecord[]): void {
    if (records.length > 0) this.db.queueWrite(INSERT_MANY_ONCE, insertManyOnceParameters(records));
  }

  /** Up to `limit` pending rows to roll up, but for those in `except` (set aside: the rollup refused them). */
  async pendingIds(limit: number, except: string[]): Promise<string[]> {
    const rows = await this.db.query<{ record_id: string }>(`SELECT record_id FROM usage_pending WHERE record_id <> ALL($2::varchar[]) LIMIT $1`, [
      limit,
      except,
    ]);
    return rows.map((r) => r.record_id);
  }

  /**
   * Moves these pending rows into their daily rollups, in one statement (so a reader sees them in
   * one table or the other, never both or neither); answers how many moved. Rows another instance
   * is moving at the same time are skipped (it moves them).
   */
  async rollUp(recordIds: string[]): Promise<number> {
    const [{ moved }] = await this.db.query<{ moved: number }>(
      `WITH moved AS (
         DELETE FROM usage_pending WHERE record_id IN (SELECT record_id FROM usage_pending WHERE record_id = ANY($1::varchar[]) FOR UPDATE SKIP LOCKED)
         RETURNING account_id, meter, day, quantity
       ), added AS (
         INSERT INTO usage_daily AS u (account_id, meter, day, quantity)
         SELECT account_id, meter, day, sum(quantity) FROM moved GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
         ON CONFLICT (account_id, meter, day) DO UPDATE SET quantity = u.quantity + EXCLUDED.quantity
       )
       SELECT count(*)::int AS moved FROM moved`,
      [recordIds],
    );
    return moved;
  }

  /** Each meter's total over [from, to) (days, YYYY-MM-DD). */
  async totals(accountId: string, from: string, to: string): Promise<Map<string, number>> {
    const rows = await this.db.query<{ meter: string; used: string }>(
      `SELECT meter, sum(quantity)::bigint AS used FROM (${USAGE_BY_DAY}) u WHERE day >= $2 AND day < $3 GROUP BY meter`,
      [accountId, from, to],
    );
    return new Map(rows.map((r) => [r.meter, Number(r.used)]));
  }

  async total(accountId: string, meter: Meter, from: string, to: string): Promise<number> {
    const [row] = await this.db.query<{ used: string | null }>(
      `SELECT sum(quantity)::bigint AS used FROM (${USAGE_BY_DAY}) u WHERE meter = $2 AND day >= $3 AND day < $4`,
      [accountId, meter, from, to],
    );
    return Number(row.used ?? 0);
  }

  /** One meter's quantity per day over [from, to] (both included). */
  async daily(accountId: string, meter: Meter, from: string, to: string): Promise<Map<string, number>> {
    const rows = await this.db.query<{ day: string; quantity: string }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(quantity)::bigint AS quantity FROM (${USAGE_BY_DAY}) u
        WHERE meter = $2 AND day BETWEEN $3 AND $4 GROUP BY day`,
      [accountId, meter, from, to],
    );
    return new Map(rows.map((r) => [r.day, Number(r.quantity)]));
  }

  /** Notes that a threshold was reached this period; true only the first time. */
  async markThreshold(accountId: string, meter: Meter, threshold: number, periodStart: string): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO usage_thresholds (account_id, meter, threshold, period_start) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING threshold`,
      [accountId, meter, threshold, periodStart],
    );
    return rows.length > 0;
  }

  /**
   * What counts against a quota over [from, to): the usage recorded, plus what live reservations
   * hold. One statement, so one snapshot: a generation that settles meanwhile (its usage recorded
   * and its reservation deleted in one transaction) is counted once, never twice or not at all.
   */
  async committed(accountId: string, meter: Meter, from: string, to: string): Promise<number> {
    const [row] = await this.db.query<{ used: string }>(
      `SELECT (SELECT coalesce(sum(quantity), 0) FROM (${USAGE_BY_DAY}) u WHERE meter = $2 AND day >= $3 AND day < $4)
            + (SELECT coalesce(sum(quantity), 0) FROM quota_reservations WHERE account_id = $1 AND meter = $2 AND expires_at > now()) AS used`,
      [accountId, meter, from, to],
    );
    return Number(row.used);
  }

  /** Holds `quantity` of the meter for `ttlMs` (on the database's clock, the same for every instance), against a subject's limits too when given. */
  async insertReservation(id: string, accountId: string, meter: Meter, quantity: number, ttlMs: number, subjectId: string | null = null): Promise<void> {
    await this.db.query(
      `INSERT INTO quota_reservations (id, account_id, meter, quantity, expires_at, subject_id) VALUES ($1, $2, $3, $4, now() + ($5::int * interval '1 millisecond'), $6)`,
      [id, accountId, meter, quantity, ttlMs, subjectId],
    );
  }

  /**
   * A subject's usage of the meter since the day's and the month's starts, and what its live holds
   * keep: one statement, so one snapshot (a call settling meanwhile is counted once, as used or as held).
   */
  async subjectCommitted(subjectId: string, meter: Meter, dayStart: Date, monthStart: Date): Promise<SubjectCommitted> {
    const [row] = await this.db.query<{ today: string; month: string; held: string }>(
      `SELECT (SELECT coalesce(sum(quantity), 0) FROM usage_records WHERE subject_id = $1 AND meter = $2 AND recorded_at >= $3) AS today,
              (SELECT coalesce(sum(quantity), 0) FROM usage_records WHERE subject_id = $1 AND meter = $2 AND recorded_at >= $4) AS month,
              (SELECT coalesce(sum(quantity), 0) FROM quota_reservations WHERE subject_id = $1 AND meter = $2 AND expires_at > now()) AS held`,
      [subjectId, meter, dayStart, monthStart],
    );
    return { usedToday: Number(row.today), usedThisMonth: Number(row.month), held: Number(row.held) };
  }

  async deleteReservation(id: string): Promise<void> {
    await this.db.query(`DELETE FROM quota_reservations WHERE id = $1`, [id]);
  }

  /** Reservations left by processes that died before settling them: they count no more, and go. */
  async deleteExpiredReservations(accountId: string, meter: Meter): Promise<void> {
    await this.db.query(`DELETE FROM quota_reservations WHERE account_id = $1 AND meter = $2 AND expires_at <= now()`, [accountId, meter]);
  }

  /** Serialises quota checks and records of one account's meter within transactions (a check and its record must not interleave with another's). */
  async lockMeter(accountId: string, meter: Meter): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(hashtextextended('quota:' || $1 || ':' || $2, 0))`, [accountId, meter]);
  }
}

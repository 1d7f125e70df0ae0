import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';
import type { AnalyticsEvent } from './analytics-event.js';
import { EVENT_COLUMNS_SQL, EVENT_FIELDS_SQL, eventColumns, insertEventsSql } from './event-columns.js';

/** How far behind the stitching is: the events waiting (counted up to a cap) and how old the oldest is. */
export interface InboxBacklog {
  events: number;
  oldestSeconds: number;
}

/** Counting the inbox stops here: a backlog this long is as alarming as a longer one, and counting it costs more. */
const COUNT_UP_TO = 1_000_000;
/** A key of its own for the transaction-scoped advisory lock that makes one stitcher at a time. */
const STITCH_LOCK = `hashtextextended('analytics:inbox', 0)`;

/** The analytics inbox (analytics_inbox): events the API took, in order, until a worker stitches them. */
@Injectable()
export class AnalyticsInboxRepository {
  constructor(private readonly db: Transactions) {}

  /** One statement for the whole batch (the caller's transaction, if any): no visit lookup, no rollup. */
  async append(events: AnalyticsEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.query(insertEventsSql('analytics_inbox'), eventColumns(events));
  }

  /**
   * Takes the stitching lock for this transaction, or answers false when another stitcher holds it:
   * one stitcher at a time, so rows are stitched once and each visitor's in order.
   */
  async lockForStitching(): Promise<boolean> {
    const [row] = await this.db.query<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock(${STITCH_LOCK}) AS locked`);
    return row.locked;
  }

  /**
   * Takes the first `limit` events waiting, in the order they came in: deleted in the caller's
   * transaction, so they are gone only if it commits (and back in line if it rolls back).
   */
  async take(limit: number): Promise<AnalyticsEvent[]> {
    const rows = await this.db.query<AnalyticsEvent>(
      `WITH taken AS (
         DELETE FROM analytics_inbox WHERE id IN (SELECT id FROM analytics_inbox ORDER BY id LIMIT $1) RETURNING id, ${EVENT_COLUMNS_SQL})
       SELECT ${EVENT_FIELDS_SQL} FROM taken ORDER BY id`,
      [limit],
    );
    for (const row of rows) row.occurredAt = new Date(row.occurredAt);
    return rows;
  }

  /**
   * Runs `work` inside a savepoint of the caller's transaction: when it fails, what it did is undone
   * and the transaction goes on (its locks and the rest of its work kept).
   */
  async inSavepoint<T>(work: () => Promise<T>): Promise<T> {
    await this.db.query('SAVEPOINT analytics_stitch');
    let result: T;
    try {
      result = await work();
      await this.db.query('RELEASE SAVEPOINT analytics_stitch');
    } catch (err) {
      await this.db.query('ROLLBACK TO SAVEPOINT analytics_stitch');
      throw err;
    }
    return result;
  }

  async backlog(): Promise<InboxBacklog> {
    const [row] = await this.db.query<{ events: number; oldest_seconds: number | null }>(
      `SELECT (SELECT count(*) FROM (SELECT 1 FROM analytics_inbox LIMIT ${COUNT_UP_TO}) AS capped)::int AS events,
              extract(epoch FROM now() - (SELECT occurred_at FROM analytics_inbox ORDER BY id LIMIT 1))::float8 AS oldest_seconds`,
    );
    return { events: row.events, oldestSeconds: Math.max(0, row.oldest_seconds ?? 0) };
  }
}

import { Injectable } from '@nestjs/common';
import { In, IsNull, LessThan, MoreThan } from 'typeorm';
import type { PageRequest } from '../common/pagination/page.js';
import { applyKeyset } from '../database/keyset-pagination.js';
import { Transactions } from '../database/transactions.js';
import { StoredEvent } from './stored-event.entity.js';

const STORED_EVENT_COLUMNS = 'id, account_id, kind, data, created_at, dispatched_at, dispatch_failures';

interface StoredEventRow {
  id: string;
  account_id: string;
  kind: string;
  data: Record<string, unknown>;
  created_at: Date;
  dispatched_at: Date | null;
  dispatch_failures: number;
}

const toStoredEvent = (r: StoredEventRow): StoredEvent => ({
  id: r.id,
  accountId: r.account_id,
  kind: r.kind,
  data: r.data,
  createdAt: r.created_at,
  dispatchedAt: r.dispatched_at,
  dispatchFailures: r.dispatch_failures,
});

/** The `events` table: the outbox the dispatcher and the relay work through, and the public event log. */
@Injectable()
export class EventLogRepository {
  constructor(private readonly db: Transactions) {}

  private get events() {
    return this.db.manager.getRepository(StoredEvent);
  }

  /**
   * In the running transaction, queued: it goes out with the transaction's next statement or its
   * COMMIT (see Transactions). Written as dispatched when `dispatchWhen` (SQL on the row `e`, see
   * `@ListensOnlyWhen`) is false, or at `dispatchedAt` when that is given.
   */
  insert(event: Pick<StoredEvent, 'id' | 'accountId' | 'kind' | 'data' | 'createdAt'> & { dispatchedAt?: Date }, dispatchWhen = 'TRUE'): void {
    const values = [event.id, event.accountId, event.kind, JSON.stringify(event.data), event.createdAt];
    if (event.dispatchedAt) values.push(event.dispatchedAt);
    const dispatchedAt = event.dispatchedAt
      ? '$6::timestamptz'
      : dispatchWhen === 'TRUE'
        ? 'NULL'
        : `CASE WHEN ${dispatchWhen} THEN NULL ELSE e.created_at END`;
    // Plain SQL: every write that raises an event runs this (docs/decisions/2026-11-22-plain-sql-hot-paths.md).
    this.db.queueWrite(
      `INSERT INTO events (id, account_id, kind, data, created_at, dispatched_at)
       SELECT e.id, e.account_id, e.kind, e.data, e.created_at, ${dispatchedAt}
         FROM (VALUES ($1::varchar, $2::varchar, $3::varchar, $4::jsonb, $5::timestamptz)) AS e (id, account_id, kind, data, created_at)`,
      values,
    );
  }

  /**
   * Of these events, the ones still to dispatch, locked for this transaction. SKIP LOCKED: an event
   * another process is dispatching right now is left to it, never dispatched twice.
   */
  async lockUndispatched(ids: string[]): Promise<StoredEvent[]> {
    // Plain SQL, like markDispatched: the dispatcher runs both for every batch of raised events (docs/decisions/2026-11-24-dispatch-batches.md).
    const rows = await this.db.query<StoredEventRow>(
      `SELECT ${STORED_EVENT_COLUMNS} FROM events WHERE id = ANY($1) AND dispatched_at IS NULL ORDER BY created_at FOR UPDATE SKIP LOCKED`,
      [ids],
    );
    return rows.map(toStoredEvent);
  }

  /**
   * Events still to dispatch that were raised before `before`, locked (SKIP LOCKED) for this
   * transaction: those that never failed first, oldest first, so one that keeps failing does not
   * hold the others up.
   */
  async lockOldestUndispatched(before: Date, limit: number): Promise<StoredEvent[]> {
    const rows = await this.db.query<StoredEventRow>(
      `SELECT ${STORED_EVENT_COLUMNS} FROM events WHERE dispatched_at IS NULL AND created_at < $1
        ORDER BY dispatch_failures, created_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [before, limit],
    );
    return rows.map(toStoredEvent);
  }

  async markDispatched(ids: string[], at = new Date()): Promise<void> {
    if (ids.length > 0) await this.db.query('UPDATE events SET dispatched_at = $2 WHERE id = ANY($1)', [ids, at]);
  }

  async countDispatchFailure(id: string): Promise<void> {
    await this.events.increment({ id }, 'dispatchFailures', 1);
  }

  countUndispatched(): Promise<number> {
    return this.events.countBy({ dispatchedAt: IsNull() });
  }

  find(accountId: string, id: string, since: Date): Promise<StoredEvent | null> {
    return this.events.findOneBy({ accountId, id, createdAt: MoreThan(since) });
  }

  list(accountId: string, kind: string | undefined, since: Date, page: PageRequest): Promise<StoredEvent[]> {
    const qb = this.events.createQueryBuilder('ev').where('ev.accountId = :accountId AND ev.createdAt > :since', { accountId, since });
    if (kind) qb.andWhere('ev.kind = :kind', { kind });
    return applyKeyset(qb, 'ev', page).getMany();
  }

  /** These events as delivered (for lists that show what each delivery carried). */
  payloadsOf(ids: string[]): Promise<Array<Pick<StoredEvent, 'id' | 'kind' | 'createdAt' | 'data'>>> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.events.find({ select: { id: true, kind: true, createdAt: true, data: true }, where: { id: In([...new Set(ids)]) } });
  }

  /** Erasure: drops the e-mail from the stored `user.created` events of these users (deliveries not yet sent read it here too). */
  async forgetUserEmails(accountId: string, userIds: string[]): Promise<void> {
    if (userIds.length === 0) return;
    await this.db.query(
      `UPDATE events SET data = data - 'email' WHERE account_id = $1 AND kind = 'user.created' AND data->>'id' = ANY($2) AND data ? 'email'`,
      [accountId, userIds],
    );
  }

  /** Deletes dispatched events older than `before` (their deliveries and attempts go with them); returns how many. */
  async purgeDispatchedBefore(before: Date): Promise<number> {
    const result = await this.events.delete({ createdAt: LessThan(before), dispatchedAt: MoreThan(new Date(0)) });
    return result.affected ?? 0;
  }
}

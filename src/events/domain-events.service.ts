import { Injectable } from '@nestjs/common';
import { newId } from '../common/ids.js';
import { Transactions } from '../database/transactions.js';
import type { AnyDomainEvent, DomainEvent, DomainEventMap, DomainEventName } from './domain-events.js';
import { EventDispatcher } from './event-dispatcher.js';
import { EventLogRepository } from './event-log.repository.js';

/**
 * Raising a domain event is writing it to the outbox (the `events` table) in the transaction of the
 * change that raised it: the event commits with the change or not at all. Once committed it is
 * handed to the dispatcher; if this process dies first, the outbox relay finds it. An event no
 * listener can have work for (`@ListensOnlyWhen`) is written as dispatched already.
 */
@Injectable()
export class DomainEvents {
  private readonly committed: Array<(event: AnyDomainEvent) => void> = [];

  constructor(
    private readonly db: Transactions,
    private readonly log: EventLogRepository,
    private readonly dispatcher: EventDispatcher,
  ) {}

  /** Call inside `Transactions.run()`, after the write the event describes. */
  async raise<K extends DomainEventName>(name: K, accountId: string, data: DomainEventMap[K]): Promise<DomainEvent<K>> {
    if (!this.db.active) throw new Error(`raise('${name}') needs the transaction of the change it describes: call it inside Transactions.run()`);
    const event: DomainEvent<K> = { id: newId('evt'), name, accountId, data, occurredAt: new Date() };
    const row = { id: event.id, accountId, kind: name, data: data as unknown as Record<string, unknown>, createdAt: event.occurredAt };
    this.log.insert(row, this.dispatcher.dispatchWhen);
    this.db.afterCommit(() => {
      this.dispatcher.schedule(event.id);
      for (const observer of this.committed) observer(event as unknown as AnyDomainEvent);
    });
    return event;
  }

  /**
   * Calls `observer` with each event raised in this process, once its change has committed (before
   * the request that made it is answered). For in-memory state derived from the rows (caches), not
   * for work: that is for `@OnDomainEvent` listeners, which the outbox guarantees.
   */
  observeCommitted(observer: (event: AnyDomainEvent) => void): void {
    this.committed.push(observer);
  }
}

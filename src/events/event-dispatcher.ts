import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Counter } from 'prom-client';
import { Transactions } from '../database/transactions.js';
import { MetricsService } from '../metrics/metrics.service.js';
import type { AnyDomainEvent } from './domain-events.js';
import { EventLogRepository } from './event-log.repository.js';
import { DOMAIN_EVENT_BATCH_LISTENER, DOMAIN_EVENT_INTEREST, DOMAIN_EVENT_LISTENER } from './on-domain-event.decorator.js';
import type { StoredEvent } from './stored-event.entity.js';

interface Listener {
  names: string[];
  handle(event: AnyDomainEvent): Promise<void> | void;
}

interface BatchListener {
  names: string[];
  handle(events: AnyDomainEvent[]): Promise<void> | void;
}

const listens = (names: string[], event: AnyDomainEvent) => names.includes('*') || names.includes(event.name);

/** SQL on the event row `e`: whether a listener of these names (and this `@ListensOnlyWhen` condition) can have work for it. */
function interestOf(names: string[], condition: string | undefined): string {
  const kinds = names.includes('*') ? undefined : `e.kind IN (${names.map((n) => `'${n.replaceAll("'", "''")}'`).join(', ')})`;
  return [kinds, condition].flatMap((term) => (term ? [`(${term})`] : [])).join(' AND ') || 'TRUE';
}

/** Events dispatched in one transaction at most. */
const BATCH = 100;
/**
 * How long the first scheduled event waits for others to join its batch. A batch costs about the
 * same few round trips whatever its size, so under load this takes most of the dispatch cost off
 * each write (docs/decisions/2026-11-24-dispatch-batches.md); it adds as much to an event's latency, which has 1 s to spare.
 */
const GATHER_MS = 10;

/**
 * Hands committed events to the listeners (`@OnDomainEvent`) and marks them dispatched, in one
 * transaction per batch. Raised events are queued here in memory after their commit and dispatched
 * within GATHER_MS, off the request path; events this process never got to (it died, or its batch
 * failed) are picked up by the OutboxRelay of a worker, through the same `dispatch` code.
 */
@Injectable()
export class EventDispatcher implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('EventDispatcher');
  private readonly listeners: Listener[] = [];
  private readonly batchListeners: BatchListener[] = [];
  private readonly pending = new Set<string>();
  /**
   * When some listener can have work for an event, as SQL on the event row `e` (see
   * `@ListensOnlyWhen`): an event for which it is false is written as dispatched.
   */
  dispatchWhen = 'TRUE';
  private draining?: Promise<void>;
  private closed = false;
  private readonly dispatched: Counter;
  private readonly failures: Counter;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly db: Transactions,
    private readonly log: EventLogRepository,
    metrics: MetricsService,
  ) {
    this.dispatched = metrics.counter({ name: 'domain_events_dispatched_total', help: 'Domain events handed to their listeners' });
    this.failures = metrics.counter({
      name: 'domain_event_dispatch_failures_total',
      help: 'Dispatches of one event that failed (a listener threw); the outbox relay tries again',
    });
  }

  onModuleInit(): void {
    const interests: string[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const handler = instance[method];
        if (typeof handler !== 'function') continue;
        const names = Reflect.getMetadata(DOMAIN_EVENT_LISTENER, handler) as string[] | undefined;
        if (names) this.listeners.push({ names, handle: (handler as Listener['handle']).bind(instance) });
        const batchNames = Reflect.getMetadata(DOMAIN_EVENT_BATCH_LISTENER, handler) as string[] | undefined;
        if (batchNames) this.batchListeners.push({ names: batchNames, handle: (handler as BatchListener['handle']).bind(instance) });
        const condition = Reflect.getMetadata(DOMAIN_EVENT_INTEREST, handler) as string | undefined;
        for (const listened of [names, batchNames]) if (listened) interests.push(interestOf(listened, condition));
      }
    }
    if (interests.length === 0) this.dispatchWhen = 'FALSE';
    else if (interests.includes('TRUE')) this.dispatchWhen = 'TRUE';
    else this.dispatchWhen = interests.length === 1 ? interests[0] : interests.map((i) => `(${i})`).join(' OR ');
  }

  /** After a commit: dispatch this event soon, in this process. */
  schedule(eventId: string): void {
    if (this.closed) return; // shutting down: the relay will find it
    this.pending.add(eventId);
    this.draining ??= sleep(GATHER_MS)
      .then(() => this.drain())
      .finally(() => (this.draining = undefined));
  }

  /** Waits until every event scheduled so far has been dispatched (or left to the relay). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  async onApplicationShutdown(): Promise<void> {
    // The HTTP server is closed by now: finish what the last requests raised while the database is still up.
    await this.idle();
    this.closed = true;
  }

  /**
   * Dispatches the oldest events raised before `before` that nobody has dispatched (the relay's
   * work). Returns how many were dispatched.
   */
  async dispatchLeftovers(before: Date, limit = BATCH): Promise<number> {
    try {
      return await this.db.run(async () => this.deliver(await this.log.lockOldestUndispatched(before, limit)));
    } catch {
      // One bad event must not hold up the others: find it by dispatching them one by one.
      const ids = (await this.db.run(() => this.log.lockOldestUndispatched(before, limit))).map((e) => e.id);
      let dispatched = 0;
      for (const id of ids) if (await this.dispatchIds([id])) dispatched++;
      return dispatched;
    }
  }

  private async drain(): Promise<void> {
    while (this.pending.size > 0) {
      const batch = [...this.pending].slice(0, BATCH);
      for (const id of batch) this.pending.delete(id);
      await this.dispatchIds(batch);
    }
  }

  /** False when an event failed (and was left to the relay). */
  private async dispatchIds(ids: string[]): Promise<boolean> {
    try {
      await this.db.run(async () => this.deliver(await this.log.lockUndispatched(ids)));
      return true;
    } catch (err) {
      if (ids.length > 1) {
        let ok = true;
        for (const id of ids) ok = (await this.dispatchIds([id])) && ok;
        return ok;
      }
      this.failures.inc();
      this.logger.error({ err, eventId: ids[0] }, 'Dispatching an event failed; the outbox relay will try again');
      await this.log.countDispatchFailure(ids[0]).catch(() => undefined);
      return false;
    }
  }

  /** Inside the transaction that locked these rows: every matching listener, then the dispatched mark. */
  private async deliver(rows: StoredEvent[]): Promise<number> {
    const events = rows.map(
      (row) => ({ id: row.id, name: row.kind, accountId: row.accountId, data: row.data, occurredAt: row.createdAt }) as unknown as AnyDomainEvent,
    );
    for (const event of events) {
      for (const listener of this.listeners) if (listens(listener.names, event)) await listener.handle(event);
    }
    for (const listener of this.batchListeners) {
      const matching = events.filter((event) => listens(listener.names, event));
      if (matching.length > 0) await listener.handle(matching);
    }
    await this.log.markDispatched(rows.map((r) => r.id));
    this.dispatched.inc(rows.length);
    return rows.length;
  }
}

import { Injectable } from '@nestjs/common';
import { newId } from '../common/ids.js';
import { Transactions } from '../database/transactions.js';
import type { AnyDomainEvent } from '../events/domain-events.js';
import { ListensOnlyWhen, OnDomainEventBatch } from '../events/on-domain-event.decorator.js';
import { DeliveryQueue } from './delivery-queue.js';
import { matchesFilters } from './event-kinds.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import type { WebhookEndpoint } from './webhook.entities.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

/**
 * Events → deliveries: one `webhook_deliveries` row per Active endpoint of the account that
 * subscribes to the kind, written in the dispatcher's transaction, and one queue job per delivery
 * once that commits. An endpoint gets the events raised once it exists (its row committed before
 * the event's). In bulk, a batch of events at a time: one query for the endpoints of every account
 * in it, one insert for all their deliveries, one round trip to queue the jobs. If the process dies
 * before the jobs are queued, the sweep queues them.
 */
@Injectable()
export class WebhookFanOut {
  constructor(
    private readonly db: Transactions,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly queue: DeliveryQueue,
  ) {}

  @OnDomainEventBatch('*')
  // An account without an Active endpoint gets no deliveries: its events are written as dispatched.
  @ListensOnlyWhen(`EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.account_id = e.account_id AND w.status = 'Active')`)
  async onDomainEvents(events: AnyDomainEvent[]): Promise<void> {
    const active = await this.endpoints.activeOf([...new Set(events.map((e) => e.accountId))]);
    const rows = events.flatMap((event) =>
      active.filter((e) => e.accountId === event.accountId && matchesFilters(e.events, event.name)).map((e) => newDelivery(event.accountId, event.id, e)),
    );
    await this.write(rows);
  }

  /** In the caller's transaction: a delivery of this event to each endpoint (none twice); returns the new ones' ids. */
  deliver(accountId: string, eventId: string, endpoints: WebhookEndpoint[]): Promise<string[]> {
    return this.write(endpoints.map((e) => newDelivery(accountId, eventId, e)));
  }

  private async write(rows: Array<ReturnType<typeof newDelivery>>): Promise<string[]> {
    const ids = await this.deliveries.insertNew(rows);
    if (ids.length > 0) {
      const created = new Set(ids);
      this.db.afterCommit(() => this.queue.addNew(rows.filter((r) => created.has(r.id))));
    }
    return ids;
  }
}

function newDelivery(accountId: string, eventId: string, endpoint: WebhookEndpoint) {
  return { id: newId('del'), accountId, endpointId: endpoint.id, eventId };
}

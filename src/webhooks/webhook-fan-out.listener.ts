import { Injectable } from '@nestjs/common';
import { newId } from '../common/ids.js';
import { Transactions } from '../database/transactions.js';
import type { AnyDomainEvent } from '../events/domain-events.js';
import { OnDomainEvent } from '../events/on-domain-event.decorator.js';
import { DeliveryQueue } from './delivery-queue.js';
import { matchesFilters } from './event-kinds.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import type { WebhookEndpoint } from './webhook.entities.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

/**
 * Event → deliveries: one `webhook_deliveries` row per Active endpoint of the account that
 * subscribes to the kind, written in the dispatcher's transaction, and one queue job per delivery
 * once that commits. If the process dies before the jobs are queued, the sweep queues them.
 */
@Injectable()
export class WebhookFanOut {
  constructor(
    private readonly db: Transactions,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly queue: DeliveryQueue,
  ) {}

  @OnDomainEvent('*')
  async onDomainEvent(event: AnyDomainEvent): Promise<void> {
    const targets = (await this.endpoints.active(event.accountId)).filter((e) => matchesFilters(e.events, event.name));
    await this.deliver(event.accountId, event.id, targets);
  }

  /** In the caller's transaction: a delivery of this event to each endpoint (none twice); returns the new ones' ids. */
  async deliver(accountId: string, eventId: string, endpoints: WebhookEndpoint[]): Promise<string[]> {
    const ids = await this.deliveries.insertNew(endpoints.map((e) => ({ id: newId('del'), accountId, endpointId: e.id, eventId })));
    if (ids.length > 0) {
      this.db.afterCommit(async () => {
        for (const id of ids) await this.queue.add({ id, status: 'pending', attemptCount: 0 });
      });
    }
    return ids;
  }
}

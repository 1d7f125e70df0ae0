import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { PageRequest } from '../common/pagination/page.js';
import { applyKeyset } from '../database/keyset-pagination.js';
import { Transactions } from '../database/transactions.js';
import { StoredEvent } from '../events/stored-event.entity.js';
import { DeliveryStatus, WebhookAttempt, WebhookDelivery, WebhookEndpoint } from './webhook.entities.js';

/** What the delivery processor needs for one try, read in one go. */
export interface DeliveryContext {
  delivery: WebhookDelivery;
  endpoint: WebhookEndpoint;
  event: StoredEvent;
}

export type NewDelivery = Pick<WebhookDelivery, 'id' | 'accountId' | 'endpointId' | 'eventId'>;

/** The webhook_deliveries and webhook_attempts tables. */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(private readonly db: Transactions) {}

  private get deliveries() {
    return this.db.manager.getRepository(WebhookDelivery);
  }

  /**
   * Inserts the deliveries that do not exist yet (one per event and endpoint: an event dispatched
   * twice is not delivered twice) and returns the ids of the new ones.
   */
  async insertNew(rows: NewDelivery[]): Promise<string[]> {
    if (rows.length === 0) return [];
    const result = await this.deliveries
      .createQueryBuilder()
      .insert()
      .values(rows.map((r) => ({ ...r, status: 'pending' as const, attemptCount: 0 })))
      .orIgnore()
      .returning(['id'])
      .execute();
    return (result.raw as Array<{ id: string }>).map((r) => r.id);
  }

  find(accountId: string, id: string): Promise<WebhookDelivery | null> {
    return this.deliveries.findOneBy({ accountId, id });
  }

  listForEndpoint(endpointId: string, page: PageRequest): Promise<WebhookDelivery[]> {
    return applyKeyset(this.deliveries.createQueryBuilder('d').where('d.endpointId = :endpointId', { endpointId }), 'd', page).getMany();
  }

  attemptsOf(deliveryIds: string[]): Promise<WebhookAttempt[]> {
    if (deliveryIds.length === 0) return Promise.resolve([]);
    return this.db.manager.getRepository(WebhookAttempt).find({ where: { deliveryId: In(deliveryIds) }, order: { attemptedAt: 'ASC', attempt: 'ASC' } });
  }

  /** The delivery with its endpoint and event, in one round trip (the worker's first read per job). */
  async context(deliveryId: string): Promise<DeliveryContext | null> {
    const row = (await this.deliveries
      .createQueryBuilder('delivery')
      .innerJoinAndMapOne('delivery.endpoint', WebhookEndpoint, 'endpoint', 'endpoint.id = delivery.endpointId')
      .innerJoinAndMapOne('delivery.event', StoredEvent, 'event', 'event.id = delivery.eventId')
      .where('delivery.id = :deliveryId', { deliveryId })
      .getOne()) as (WebhookDelivery & { endpoint: WebhookEndpoint; event: StoredEvent }) | null;
    if (!row) return null;
    const { endpoint, event, ...delivery } = row;
    return { delivery: delivery as WebhookDelivery, endpoint, event };
  }

  /** Marks a delivery pending again (manual retry). */
  async setPending(id: string): Promise<void> {
    await this.deliveries.update({ id }, { status: 'pending' });
  }

  /**
   * The attempt row and the delivery's new state in one statement: atomic without a transaction,
   * and one round trip on the worker's hottest path (see bench/).
   */
  async recordAttempt(attempt: WebhookAttempt, delivery: { id: string; status: DeliveryStatus; attemptCount: number }): Promise<void> {
    await this.db.manager.query(
      `WITH attempt AS (
         INSERT INTO webhook_attempts (id, delivery_id, attempt, attempted_at, status_code, duration_ms, response_body, error)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8))
       UPDATE webhook_deliveries SET status = $9, attempt_count = $10, updated_at = now() WHERE id = $2`,
      [
        attempt.id,
        delivery.id,
        attempt.attempt,
        attempt.attemptedAt,
        attempt.statusCode,
        attempt.durationMs,
        attempt.responseBody,
        attempt.error,
        delivery.status,
        delivery.attemptCount,
      ],
    );
  }

  /** Pending deliveries created before `before`, oldest first. */
  pending(before: Date, limit: number): Promise<WebhookDelivery[]> {
    return this.deliveries
      .createQueryBuilder('d')
      .where(`d.status = 'pending' AND d.createdAt < :before`, { before })
      .orderBy('d.createdAt', 'ASC')
      .limit(limit)
      .getMany();
  }
}

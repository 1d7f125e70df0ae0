import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, LessThan, MoreThan, Repository } from 'typeorm';
import { applyKeyset, PageRequest } from '../common/pagination/pagination.js';
import { WebhookAttempt, WebhookDelivery, WebhookEndpoint, WebhookEvent } from './webhook.entities.js';

/** What the delivery processor needs for one try, read in one go. */
export interface DeliveryContext {
  delivery: WebhookDelivery;
  endpoint: WebhookEndpoint;
  event: WebhookEvent;
}

/** The four webhook tables. Methods taking a manager run in the caller's transaction. */
@Injectable()
export class WebhooksRepository {
  constructor(
    @InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>,
    @InjectRepository(WebhookEvent) private readonly events: Repository<WebhookEvent>,
    @InjectRepository(WebhookDelivery) private readonly deliveries: Repository<WebhookDelivery>,
    @InjectRepository(WebhookAttempt) private readonly attempts: Repository<WebhookAttempt>,
  ) {}

  // endpoints

  insertEndpoint(endpoint: Partial<WebhookEndpoint>): Promise<WebhookEndpoint> {
    return this.endpoints.save(this.endpoints.create(endpoint));
  }

  findEndpoint(accountId: string, id: string): Promise<WebhookEndpoint | null> {
    return this.endpoints.findOneBy({ accountId, id });
  }

  findEndpointForUpdate(m: EntityManager, accountId: string, id: string): Promise<WebhookEndpoint | null> {
    return m.getRepository(WebhookEndpoint).createQueryBuilder('e').setLock('pessimistic_write')
      .where('e.accountId = :accountId AND e.id = :id', { accountId, id }).getOne();
  }

  listEndpoints(accountId: string, page: PageRequest): Promise<WebhookEndpoint[]> {
    const qb = this.endpoints.createQueryBuilder('e').where('e.accountId = :accountId', { accountId });
    return applyKeyset(qb, 'e', page).getMany();
  }

  activeEndpoints(m: EntityManager, accountId: string): Promise<WebhookEndpoint[]> {
    return m.getRepository(WebhookEndpoint).findBy({ accountId, status: 'Active' });
  }

  saveEndpoint(m: EntityManager, endpoint: WebhookEndpoint): Promise<WebhookEndpoint> {
    return m.getRepository(WebhookEndpoint).save(endpoint);
  }

  async disableEndpoint(m: EntityManager, id: string): Promise<void> {
    await m.getRepository(WebhookEndpoint).update({ id }, { status: 'Disabled' });
  }

  async deleteEndpoint(accountId: string, id: string): Promise<boolean> {
    const result = await this.endpoints.delete({ accountId, id });
    return (result.affected ?? 0) > 0;
  }

  // events and deliveries

  async insertEvent(m: EntityManager, event: WebhookEvent): Promise<void> {
    await m.getRepository(WebhookEvent).insert(event as never);
  }

  async insertDeliveries(m: EntityManager, rows: Array<Pick<WebhookDelivery, 'id' | 'accountId' | 'endpointId' | 'eventId'>>): Promise<void> {
    if (rows.length === 0) return;
    await m.getRepository(WebhookDelivery).insert(rows.map((r) => ({ ...r, status: 'pending' as const, attemptCount: 0 })));
  }

  /** Erasure: drops the e-mail from the stored `user.created` events of this user. */
  async forgetUserEmail(m: EntityManager, accountId: string, userId: string): Promise<void> {
    await m.query(
      `UPDATE events SET data = data - 'email' WHERE account_id = $1 AND kind = 'user.created' AND data->>'id' = $2 AND data ? 'email'`,
      [accountId, userId],
    );
  }

  findEvent(accountId: string, id: string, since: Date): Promise<WebhookEvent | null> {
    return this.events.findOneBy({ accountId, id, createdAt: MoreThan(since) });
  }

  listEvents(accountId: string, kind: string | undefined, since: Date, page: PageRequest): Promise<WebhookEvent[]> {
    const qb = this.events.createQueryBuilder('ev')
      .where('ev.accountId = :accountId AND ev.createdAt > :since', { accountId, since });
    if (kind) qb.andWhere('ev.kind = :kind', { kind });
    return applyKeyset(qb, 'ev', page).getMany();
  }

  findDelivery(accountId: string, id: string): Promise<WebhookDelivery | null> {
    return this.deliveries.findOneBy({ accountId, id });
  }

  listDeliveries(endpointId: string, page: PageRequest): Promise<WebhookDelivery[]> {
    const qb = this.deliveries.createQueryBuilder('d').where('d.endpointId = :endpointId', { endpointId });
    return applyKeyset(qb, 'd', page).getMany();
  }

  attemptsOf(deliveryIds: string[]): Promise<WebhookAttempt[]> {
    if (deliveryIds.length === 0) return Promise.resolve([]);
    return this.attempts.find({ where: { deliveryId: In(deliveryIds) }, order: { attemptedAt: 'ASC', attempt: 'ASC' } });
  }

  kindsOf(eventIds: string[]): Promise<WebhookEvent[]> {
    if (eventIds.length === 0) return Promise.resolve([]);
    return this.events.find({ select: { id: true, kind: true }, where: { id: In([...new Set(eventIds)]) } });
  }

  /** The delivery with its endpoint and event, in one round trip (the worker's first read per job). */
  async deliveryContext(deliveryId: string): Promise<DeliveryContext | null> {
    const row = (await this.deliveries
      .createQueryBuilder('delivery')
      .innerJoinAndMapOne('delivery.endpoint', WebhookEndpoint, 'endpoint', 'endpoint.id = delivery.endpointId')
      .innerJoinAndMapOne('delivery.event', WebhookEvent, 'event', 'event.id = delivery.eventId')
      .where('delivery.id = :deliveryId', { deliveryId })
      .getOne()) as (WebhookDelivery & { endpoint: WebhookEndpoint; event: WebhookEvent }) | null;
    if (!row) return null;
    const { endpoint, event, ...delivery } = row;
    return { delivery: delivery as WebhookDelivery, endpoint, event };
  }

  /** Marks a delivery pending again (manual retry). */
  async setPending(m: EntityManager, id: string): Promise<void> {
    await m.getRepository(WebhookDelivery).update({ id }, { status: 'pending' });
  }

  /**
   * The attempt row and the delivery's new state in one statement: atomic without a transaction,
   * and one round trip on the worker's hottest path (see bench/).
   */
  async recordAttempt(m: EntityManager, attempt: WebhookAttempt, delivery: Pick<WebhookDelivery, 'id' | 'status' | 'attemptCount'>): Promise<void> {
    await m.query(
      `WITH attempt AS (
         INSERT INTO webhook_attempts (id, delivery_id, attempt, attempted_at, status_code, duration_ms, response_body, error)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8))
       UPDATE webhook_deliveries SET status = $9, attempt_count = $10, updated_at = now() WHERE id = $2`,
      [attempt.id, delivery.id, attempt.attempt, attempt.attemptedAt, attempt.statusCode, attempt.durationMs, attempt.responseBody, attempt.error, delivery.status, delivery.attemptCount],
    );
  }

  /** Pending deliveries created before `before`, oldest first. */
  pendingDeliveries(before: Date, limit: number): Promise<WebhookDelivery[]> {
    return this.deliveries.find({ where: { status: 'pending', createdAt: LessThan(before) }, order: { createdAt: 'ASC' }, take: limit });
  }

  /** Deletes events older than `before`; their deliveries and attempts go with them. */
  async purgeEvents(before: Date): Promise<number> {
    const result = await this.events.delete({ createdAt: LessThan(before) });
    return result.affected ?? 0;
  }
}

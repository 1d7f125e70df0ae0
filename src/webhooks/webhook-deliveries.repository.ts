import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { PageRequest } from '../common/pagination/page.js';
import { applyKeyset } from '../database/keyset-pagination.js';
import { Transactions } from '../database/transactions.js';
import { StoredEvent } from '../events/stored-event.entity.js';
import { DeliveryStatus, WebhookAttempt, WebhookDelivery, WebhookEndpoint } from './webhook.entities.js';

/** What an attempt leaves a delivery in. */
export interface AttemptOutcome {
  id: string;
  status: DeliveryStatus;
  attemptCount: number;
}

/** What the delivery processor needs for one try, read in one go. */
export interface DeliveryContext {
  delivery: Pick<WebhookDelivery, 'id' | 'status' | 'attemptCount'>;
  endpoint: Pick<WebhookEndpoint, 'id' | 'accountId' | 'url' | 'status' | 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>;
  event: Pick<StoredEvent, 'id' | 'kind' | 'createdAt' | 'data'>;
}

interface ContextRow {
  id: string;
  status: DeliveryStatus;
  attempt_count: number;
  endpoint_id: string;
  account_id: string;
  url: string;
  endpoint_status: WebhookEndpoint['status'];
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  event_id: string;
  kind: string;
  created_at: Date;
  data: Record<string, unknown>;
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

  /** What the tries of these deliveries need, in one query (the worker's batched read, plain SQL: docs/decisions/2026-11-22-webhook-worker-groups.md); null where one is gone. */
  async contexts(deliveryIds: string[]): Promise<Array<DeliveryContext | null>> {
    const rows = await this.db.query<ContextRow>(
      `SELECT d.id, d.status, d.attempt_count,
              w.id AS endpoint_id, w.account_id, w.url, w.status AS endpoint_status, w.secret, w.previous_secret, w.previous_secret_expires_at,
              e.id AS event_id, e.kind, e.created_at, e.data
         FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN events e ON e.id = d.event_id
        WHERE d.id = ANY($1)`,
      [deliveryIds],
    );
    const byId = new Map(
      rows.map((r): [string, DeliveryContext] => [
        r.id,
        {
          delivery: { id: r.id, status: r.status, attemptCount: r.attempt_count },
          endpoint: {
            id: r.endpoint_id,
            accountId: r.account_id,
            url: r.url,
            status: r.endpoint_status,
            secret: r.secret,
            previousSecret: r.previous_secret,
            previousSecretExpiresAt: r.previous_secret_expires_at,
          },
          event: { id: r.event_id, kind: r.kind, createdAt: r.created_at, data: r.data },
        },
      ]),
    );
    return deliveryIds.map((id) => byId.get(id) ?? null);
  }

  /** Marks a delivery pending again (manual retry). */
  async setPending(id: string): Promise<void> {
    await this.deliveries.update({ id }, { status: 'pending' });
  }

  async recordAttempt(attempt: WebhookAttempt, delivery: AttemptOutcome): Promise<void> {
    await this.recordAttempts([{ attempt, delivery }]);
  }

  /**
   * Attempt rows and their deliveries' new states, many at once, in one statement: atomic without
   * a transaction, and one round trip for a whole batch on the worker's hottest path (docs/decisions/2026-11-22-webhook-worker-groups.md).
   */
  async recordAttempts(items: Array<{ attempt: WebhookAttempt; delivery: AttemptOutcome }>): Promise<void> {
    const column = <T>(pick: (item: { attempt: WebhookAttempt; delivery: AttemptOutcome }) => T) => items.map(pick);
    await this.db.query(
      `WITH attempts AS (
         INSERT INTO webhook_attempts (id, delivery_id, attempt, attempted_at, status_code, duration_ms, response_body, error)
         SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::int[], $4::timestamptz[], $5::smallint[], $6::int[], $7::varchar[], $8::varchar[]))
       UPDATE webhook_deliveries d SET status = u.status, attempt_count = u.attempt_count, updated_at = now()
         FROM unnest($2::varchar[], $9::varchar[], $10::int[]) AS u(id, status, attempt_count) WHERE d.id = u.id`,
      [
        column((i) => i.attempt.id),
        column((i) => i.delivery.id),
        column((i) => i.attempt.attempt),
        column((i) => i.attempt.attemptedAt),
        column((i) => i.attempt.statusCode),
        column((i) => i.attempt.durationMs),
        column((i) => i.attempt.responseBody),
        column((i) => i.attempt.error),
        column((i) => i.delivery.status),
        column((i) => i.delivery.attemptCount),
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

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
  /** Pending: the wait before the next try (its due time is set by the database's clock). */
  nextDelayMs?: number;
}

/** What the delivery processor needs for one try, read in one go. */
export interface DeliveryContext {
  delivery: Pick<WebhookDelivery, 'id' | 'status' | 'attemptCount'>;
  endpoint: Pick<WebhookEndpoint, 'id' | 'accountId' | 'url' | 'status' | 'secret' | 'previousSecret' | 'previousSecretExpiresAt'> & {
    failingSince: Date | null;
  };
  event: Pick<StoredEvent, 'id' | 'kind' | 'createdAt' | 'data'>;
}

/** A job asking to make a try: its delivery, and which try (absent in jobs of older versions: the next one). */
export interface ClaimRequest {
  deliveryId: string;
  attempt?: number;
}

/**
 * The answer to a claim: the try is this job's to make (`ctx`), or it should come back in
 * `retryInMs` (not due yet, or another job holds it and may have died), or there is nothing to do
 * (settled, that try already made, or the delivery gone).
 */
export interface Claim {
  ctx?: DeliveryContext;
  retryInMs?: number;
}

/** A pending delivery whose next try is due by some time, with how long until it is. */
export interface DueDelivery {
  id: string;
  endpointId: string;
  attemptCount: number;
  nextAttemptAt: Date;
  dueInMs: number;
}

/** A delivery made pending again by hand (retry, recover). */
export type Requeued = Pick<WebhookDelivery, 'id' | 'endpointId' | 'attemptCount' | 'createdAt'>;

interface ClaimRow {
  n: number;
  id: string;
  claimed: boolean;
  status: DeliveryStatus;
  attempt_count: number;
  due_in_ms: number | null;
  leased_for_ms: number | null;
  endpoint_id: string;
  account_id: string;
  url: string;
  endpoint_status: WebhookEndpoint['status'];
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  event_id: string;
  kind: string;
  created_at: Date;
  data: Record<string, unknown>;
}

/** How many of an endpoint's deliveries of a period stand where. */
export interface DeliveryOutcomes {
  succeeded: number;
  failed: number;
  pending: number;
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

  /**
   * Claims tries for their jobs, in one statement: a try is claimed when its delivery is pending,
   * due, not under way (no live lease) and, for a job that names its try, not made yet. The claim
   * is a lease (`attempting_until`) that recording the attempt clears; a job whose worker died
   * leaves it to run out, and the try is made again then (by the same job back from the queue, or
   * the sweep's). So one try is sent by one job, whatever duplicates the queue or the sweep hold.
   * Also reads what the try needs (plain SQL: docs/decisions/2026-11-22-webhook-worker-groups.md).
   */
  async claim(jobs: ClaimRequest[], leaseMs: number): Promise<Claim[]> {
    const rows = await this.db.query<ClaimRow>(
      `WITH jobs AS (SELECT * FROM unnest($1::varchar[], $2::int[]) WITH ORDINALITY AS j(id, wanted, n)),
       claimed AS (
         UPDATE webhook_deliveries d SET attempting_until = now() + $3 * interval '1 millisecond'
           FROM jobs j
          WHERE d.id = j.id AND d.status = 'pending' AND (j.wanted IS NULL OR d.attempt_count = j.wanted - 1)
            AND coalesce(d.next_attempt_at, '-infinity') <= now() AND (d.attempting_until IS NULL OR d.attempting_until < now())
          RETURNING d.id)
       SELECT j.n::int, d.id, c.id IS NOT NULL AS claimed, d.status, d.attempt_count,
              CASE WHEN d.next_attempt_at > now() THEN ceil(extract(epoch FROM d.next_attempt_at - now()) * 1000)::int END AS due_in_ms,
              CASE WHEN d.attempting_until >= now() THEN ceil(extract(epoch FROM d.attempting_until - now()) * 1000)::int END AS leased_for_ms,
              w.id AS endpoint_id, w.account_id, w.url, w.status AS endpoint_status, w.secret, w.previous_secret, w.previous_secret_expires_at, w.failing_since,
              e.id AS event_id, e.kind, e.created_at, e.data
         FROM jobs j JOIN webhook_deliveries d ON d.id = j.id LEFT JOIN claimed c ON c.id = d.id
         JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN events e ON e.id = d.event_id`,
      [jobs.map((j) => j.deliveryId), jobs.map((j) => j.attempt ?? null), leaseMs],
    );
    // The rows show the deliveries as they were before this claim.
    const byJob = new Map(rows.map((r) => [r.n - 1, r]));
    const given = new Set<string>();
    return jobs.map((job, i): Claim => {
      const r = byJob.get(i);
      if (!r || r.status !== 'pending') return {};
      if (job.attempt !== undefined && job.attempt !== r.attempt_count + 1) return {}; // that try is made
      if (r.claimed) {
        if (given.has(r.id)) return {}; // the same try twice in one group: the first job makes it
        given.add(r.id);
        return { ctx: toContext(r) };
      }
      if (r.leased_for_ms !== null) return { retryInMs: r.leased_for_ms + 100 };
      if (r.due_in_ms !== null) return { retryInMs: r.due_in_ms };
      return {}; // claimed by another worker just now
    });
  }

  /**
   * One more try now, by hand: pending again and due now, unless a try is under way (a live
   * lease). Null when it is, or when there is no such delivery.
   */
  async retryNow(accountId: string, id: string): Promise<Requeued | null> {
    const rows = await this.db.query<Requeued>(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), updated_at = now()
        WHERE account_id = $1 AND id = $2 AND (attempting_until IS NULL OR attempting_until < now())
        RETURNING id, endpoint_id AS "endpointId", attempt_count AS "attemptCount", created_at AS "createdAt"`,
      [accountId, id],
    );
    return rows[0] ?? null;
  }

  /**
   * The endpoint's failed deliveries of events raised at or after `since`, pending again and due
   * now; oldest event first (its `createdAt`, then its id: the order receivers are told to sort by).
   */
  async recoverFailed(endpointId: string, since: Date): Promise<Requeued[]> {
    // A delivery is written after its event: its own created_at bounds the scan (the endpoint's index).
    return this.db.query<Requeued>(
      `WITH recovered AS (
         UPDATE webhook_deliveries d SET status = 'pending', next_attempt_at = now(), updated_at = now()
           FROM events e
          WHERE d.endpoint_id = $1 AND d.status = 'failed' AND d.created_at >= $2 AND e.id = d.event_id AND e.created_at >= $2
          RETURNING d.id, d.endpoint_id, d.attempt_count, d.created_at, e.created_at AS event_created_at, e.id AS event_id)
       SELECT id, endpoint_id AS "endpointId", attempt_count AS "attemptCount", created_at AS "createdAt"
         FROM recovered ORDER BY event_created_at, event_id`,
      [endpointId, since],
    );
  }

  /** Per endpoint (of those given, of the account), how its deliveries created since `since` stand. */
  async outcomesSince(accountId: string, endpointIds: string[], since: Date): Promise<Map<string, DeliveryOutcomes>> {
    if (endpointIds.length === 0) return new Map();
    const rows = await this.db.query<DeliveryOutcomes & { endpointId: string }>(
      `SELECT endpoint_id AS "endpointId", count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
              count(*) FILTER (WHERE status = 'failed')::int AS failed, count(*) FILTER (WHERE status = 'pending')::int AS pending
         FROM webhook_deliveries WHERE endpoint_id = ANY($1::varchar[]) AND created_at >= $2 AND account_id = $3 GROUP BY endpoint_id`,
      [endpointIds, since, accountId],
    );
    return new Map(rows.map(({ endpointId, ...outcomes }) => [endpointId, outcomes]));
  }

  async recordAttempt(attempt: WebhookAttempt, delivery: AttemptOutcome): Promise<void> {
    await this.recordAttempts([{ attempt, delivery }]);
  }

  /**
   * Attempt rows and their deliveries' new states, many at once, in one statement: atomic without
   * a transaction, and one round trip for a whole batch on the worker's hottest path (docs/decisions/2026-11-22-webhook-worker-groups.md).
   * Each lease ends; a pending delivery's next try is due `nextDelayMs` from now by the database's
   * clock (the one claims compare with), and its attempt row keeps that time.
   */
  async recordAttempts(items: Array<{ attempt: WebhookAttempt; delivery: AttemptOutcome }>): Promise<void> {
    const column = <T>(pick: (item: { attempt: WebhookAttempt; delivery: AttemptOutcome }) => T) => items.map(pick);
    await this.db.query(
      `WITH attempts AS (
         INSERT INTO webhook_attempts (id, delivery_id, attempt, attempted_at, status_code, duration_ms, response_body, error, next_attempt_at)
         SELECT a.id, a.delivery_id, a.attempt, a.attempted_at, a.status_code, a.duration_ms, a.response_body, a.error, now() + a.delay * interval '1 millisecond'
           FROM unnest($1::varchar[], $2::varchar[], $3::int[], $4::timestamptz[], $5::smallint[], $6::int[], $7::varchar[], $8::varchar[], $11::int[])
                AS a(id, delivery_id, attempt, attempted_at, status_code, duration_ms, response_body, error, delay))
       UPDATE webhook_deliveries d
          SET status = u.status, attempt_count = u.attempt_count, next_attempt_at = now() + u.delay * interval '1 millisecond',
              attempting_until = NULL, updated_at = now()
         FROM unnest($2::varchar[], $9::varchar[], $10::int[], $11::int[]) AS u(id, status, attempt_count, delay) WHERE d.id = u.id`,
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
        column((i) => i.delivery.nextDelayMs ?? null),
      ],
    );
  }

  /**
   * Pending deliveries whose next try is due by `horizon` and not under way, soonest first, after
   * the cursor `after` (the last one of the previous page).
   */
  async dueBy(horizon: Date, limit: number, after?: Pick<DueDelivery, 'nextAttemptAt' | 'id'>): Promise<DueDelivery[]> {
    return this.db.query<DueDelivery>(
      `SELECT id, endpoint_id AS "endpointId", attempt_count AS "attemptCount", next_attempt_at AS "nextAttemptAt",
              greatest(0, ceil(extract(epoch FROM next_attempt_at - now()) * 1000))::int AS "dueInMs"
         FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at <= $1 AND (attempting_until IS NULL OR attempting_until < now())
          AND (next_attempt_at, id) > ($2::timestamptz, $3::varchar)
        ORDER BY next_attempt_at, id LIMIT $4`,
      [horizon, after?.nextAttemptAt ?? new Date(0), after?.id ?? '', limit],
    );
  }
}

function toContext(r: ClaimRow): DeliveryContext {
  return {
    delivery: { id: r.id, status: r.status, attemptCount: r.attempt_count },
    endpoint: {
      id: r.endpoint_id,
      accountId: r.account_id,
      url: r.url,
      status: r.endpoint_status,
      secret: r.secret,
      previousSecret: r.previous_secret,
      previousSecretExpiresAt: r.previous_secret_expires_at,
      failingSince: r.failing_since,
    },
    event: { id: r.event_id, kind: r.kind, createdAt: r.created_at, data: r.data },
  };
}

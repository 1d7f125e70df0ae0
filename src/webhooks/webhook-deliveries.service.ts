import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { newId } from '../common/ids.js';
import { AppConfig } from '../config/app-config.js';
import type { DomainEvent } from '../events/domain-events.js';
import { OnDomainEvent } from '../events/event-bus.service.js';
import { QueueService } from '../queue/queue.service.js';
import { isPublicKind, matchesFilters } from './event-kinds.js';
import { SecretBox } from './secret-box.js';
import { signatureHeader } from './signature.js';
import { WebhookMetrics } from './webhook-metrics.js';
import { sendWebhook } from './webhook-sender.js';
import { WebhookAttempt, WebhookEndpoint, WebhookEvent } from './webhook.entities.js';
import { WebhooksRepository } from './webhooks.repository.js';

/** 1 try + 3 retries (the contract). */
export const MAX_ATTEMPTS = 4;
export const EVENT_RETENTION_MS = 30 * 24 * 3600 * 1000;
const SWEEP_INTERVAL_MS = 60_000;
const PURGE_INTERVAL_MS = 3600_000;
/** A pending delivery younger than this may still be on its way into the queue (fan-out in flight). */
const SWEEP_GRACE_MS = 10_000;
const SWEEP_BATCH = 500;
const CONCURRENCY = 20;

export interface DeliverJob {
  deliveryId: string;
}

/** The webhook body: serialized once, and those exact bytes are signed and sent. */
export function webhookBody(event: WebhookEvent): string {
  return JSON.stringify({ id: event.id, event: event.kind, createdAt: event.createdAt.toISOString(), data: event.data });
}

/** Secrets that sign now: the current one, and the previous one during the 24 h after a rotation. */
export function signingSecrets(endpoint: WebhookEndpoint, box: SecretBox, now = new Date()): string[] {
  const secrets = [box.open(endpoint.secret)];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) secrets.push(box.open(endpoint.previousSecret));
  return secrets;
}

/**
 * Domain event → event row + one delivery per matching Active endpoint (one transaction) → one
 * queue job per delivery → the processor signs and POSTs, records the attempt, and throws so the
 * queue retries with backoff. A sweep re-queues pending deliveries that have no live job.
 */
@Injectable()
export class WebhookDeliveriesService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private sweepTimer?: NodeJS.Timeout;
  private lastPurge = 0;
  private sweeping?: Promise<void>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly repo: WebhooksRepository,
    private readonly queue: QueueService,
    private readonly config: AppConfig,
    private readonly metrics: WebhookMetrics,
    private readonly secrets: SecretBox,
  ) {}

  onApplicationBootstrap(): void {
    this.queue.registerProcessor<DeliverJob>('webhooks', 'deliver', (data, job) => this.deliver(data.deliveryId, job.attempt, job.maxAttempts), {
      concurrency: CONCURRENCY,
    });
    if (!this.config.runsWorkers) return;
    // On start every pending delivery is due (a crash may have lost its job); later only those past the grace period.
    this.sweeping = this.sweep(new Date()).finally(() => (this.sweeping = undefined));
    this.sweepTimer = setInterval(() => {
      if (this.sweeping) return;
      this.sweeping = this.sweep(new Date(Date.now() - SWEEP_GRACE_MS)).finally(() => (this.sweeping = undefined));
    }, SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.sweeping;
  }

  /** Every domain event: log it and fan it out. Runs after the owner's commit (EventBus contract). */
  @OnDomainEvent('**')
  async onDomainEvent(event: DomainEvent): Promise<void> {
    if (!event?.name || !isPublicKind(event.name)) return;
    await this.record(event.accountId, event.name, event.data as unknown as Record<string, unknown>, event.occurredAt);
  }

  /**
   * Writes the event and its deliveries in one transaction, then enqueues. `onlyEndpoint`: the
   * `webhook.test` case, one endpoint regardless of its filters.
   */
  async record(accountId: string, kind: string, data: Record<string, unknown>, at = new Date(), onlyEndpoint?: WebhookEndpoint): Promise<{ eventId: string; deliveryIds: string[] }> {
    const event: WebhookEvent = { id: newId('evt'), accountId, kind, data, createdAt: at };
    const deliveryIds = await this.dataSource.transaction(async (m) => {
      await this.repo.insertEvent(m, event);
      // The person is erased: so is their e-mail in the log (and in deliveries not yet sent).
      if (kind === 'user.deleted' && typeof data.id === 'string') await this.repo.forgetUserEmail(m, accountId, data.id);
      const targets = onlyEndpoint ? [onlyEndpoint] : (await this.repo.activeEndpoints(m, accountId)).filter((e) => matchesFilters(e.events, kind));
      const rows = targets.map((e) => ({ id: newId('del'), accountId, endpointId: e.id, eventId: event.id }));
      await this.repo.insertDeliveries(m, rows);
      return rows.map((r) => r.id);
    });
    for (const id of deliveryIds) await this.enqueue(id, MAX_ATTEMPTS);
    return { eventId: event.id, deliveryIds };
  }

  /** A job for this delivery is waiting, delayed or running. */
  isQueued(deliveryId: string): Promise<boolean> {
    return this.queue.isLive('webhooks', deliveryId);
  }

  enqueue(deliveryId: string, attempts: number): Promise<string> {
    return this.queue.add<DeliverJob>('webhooks', 'deliver', { deliveryId }, {
      attempts,
      backoffMs: this.config.WEBHOOK_RETRY_BASE_MS,
      jobId: deliveryId,
    });
  }

  /** The job: one try. Throws on a retryable failure so the queue retries. */
  async deliver(deliveryId: string, jobAttempt: number, jobMaxAttempts: number): Promise<void> {
    const ctx = await this.repo.deliveryContext(deliveryId);
    if (!ctx || ctx.delivery.status !== 'pending') return; // deleted, or already settled (duplicate job)
    const { delivery, endpoint, event } = ctx;
    const attempt = delivery.attemptCount + 1;
    const attemptedAt = new Date();
    if (endpoint.status !== 'Active') {
      await this.repo.recordAttempt(this.dataSource.manager, attemptRow(delivery.id, attempt, attemptedAt, { error: 'endpoint disabled', durationMs: 0 }), {
        id: delivery.id, status: 'failed', attemptCount: attempt,
      });
      return;
    }
    const body = webhookBody(event);
    const t = Math.floor(attemptedAt.getTime() / 1000);
    const result = await sendWebhook(
      endpoint.url,
      body,
      {
        'content-type': 'application/json',
        'x-service-signature': signatureHeader(signingSecrets(endpoint, this.secrets, attemptedAt), t, body),
        'x-service-event-id': event.id,
        'x-service-delivery-attempt': String(attempt),
      },
      { timeoutMs: this.config.WEBHOOK_TIMEOUT_MS, allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE },
    );
    const status = result.statusCode;
    const ok = status !== undefined && status >= 200 && status < 300;
    const gone = status === 410;
    const last = jobAttempt >= jobMaxAttempts;
    const outcome = ok ? 'succeeded' : gone ? 'disabled' : last ? 'failed' : 'retrying';
    const row = attemptRow(delivery.id, attempt, attemptedAt, result);
    const state = { id: delivery.id, status: ok ? 'succeeded' : gone || last ? 'failed' : 'pending', attemptCount: attempt } as const;
    if (gone) {
      await this.dataSource.transaction(async (m) => {
        await this.repo.recordAttempt(m, row, state);
        await this.repo.disableEndpoint(m, endpoint.id);
      });
    } else {
      await this.repo.recordAttempt(this.dataSource.manager, row, state); // one atomic statement
    }
    this.metrics.observe(outcome, result.durationMs);
    if (gone) this.logger.warn(`Endpoint ${endpoint.id} answered 410 Gone: disabled`);
    if (!ok && !gone) throw new Error(result.error ?? `HTTP ${status}`);
  }

  /** Re-queues pending deliveries created before `before` that have no live job. */
  async sweep(before: Date): Promise<void> {
    try {
      const pending = await this.repo.pendingDeliveries(before, SWEEP_BATCH);
      let requeued = 0;
      for (const d of pending) {
        if (await this.queue.isLive('webhooks', d.id)) continue;
        await this.enqueue(d.id, Math.max(1, MAX_ATTEMPTS - d.attemptCount));
        requeued++;
      }
      if (requeued > 0) this.logger.log(`Recovery sweep re-queued ${requeued} pending deliveries`);
      if (Date.now() - this.lastPurge >= PURGE_INTERVAL_MS) {
        this.lastPurge = Date.now();
        const purged = await this.repo.purgeEvents(new Date(Date.now() - EVENT_RETENTION_MS));
        if (purged > 0) this.logger.log(`Purged ${purged} events older than 30 days`);
      }
    } catch (err) {
      this.logger.error({ err }, 'Webhook recovery sweep failed');
    }
  }
}

function attemptRow(
  deliveryId: string,
  attempt: number,
  attemptedAt: Date,
  result: { statusCode?: number; body?: string; error?: string; durationMs: number },
): WebhookAttempt {
  return {
    id: newId('att'),
    deliveryId,
    attempt,
    attemptedAt,
    statusCode: result.statusCode ?? null,
    durationMs: result.durationMs,
    responseBody: result.body ?? null,
    error: result.error?.slice(0, 500) ?? null,
  };
}

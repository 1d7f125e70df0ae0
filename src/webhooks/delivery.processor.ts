import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { GroupBatcher } from '../common/group-batcher.js';
import { newId } from '../common/ids.js';
import { AppConfig } from '../config/app-config.js';
import type { StoredEvent } from '../events/stored-event.entity.js';
import { JobDeferred } from '../queue/queue.types.js';
import { AttemptRecorder, BATCHING } from './attempt-recorder.js';
import { DeliverJob, DeliveryQueue } from './delivery-queue.js';
import { EndpointSlot, EndpointSlots } from './endpoint-slots.js';
import { SecretBox } from './secret-box.js';
import { signatureHeader } from './signature.js';
import { DeliveryContext, WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookMetrics } from './webhook-metrics.js';
import { ReceiverAgents, receiverAgents, sendWebhook } from './webhook-sender.js';
import { WebhookAttempt, WebhookEndpoint } from './webhook.entities.js';

/** The webhook body: serialized once, and those exact bytes are signed and sent. */
export function webhookBody(event: Pick<StoredEvent, 'id' | 'kind' | 'createdAt' | 'data'>): string {
  return JSON.stringify({ id: event.id, event: event.kind, createdAt: event.createdAt.toISOString(), data: event.data });
}

/** Secrets that sign now: the current one, and the previous one during the 24 h after a rotation. */
export function signingSecrets(
  endpoint: Pick<WebhookEndpoint, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>,
  box: Pick<SecretBox, 'open'>,
  now = new Date(),
): string[] {
  const secrets = [box.open(endpoint.secret)];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) secrets.push(box.open(endpoint.previousSecret));
  return secrets;
}

/**
 * The `webhooks/deliver` job: one try of one delivery. Signs and POSTs, records the attempt, and
 * throws on a retryable failure so the queue retries with backoff. Runs in worker processes.
 *
 * The database work of concurrent tries is grouped: their deliveries are read in one query, and
 * their attempts written together (`AttemptRecorder`), which each job waits for before it
 * completes — so a job never finishes before its attempt is stored. Each endpoint has its share of
 * the worker's WEBHOOK_CONCURRENCY slots (`EndpointSlots`).
 */
@Injectable()
export class DeliveryProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly agents: ReceiverAgents;
  /** Each endpoint's share of this worker's WEBHOOK_CONCURRENCY slots. */
  readonly slots: EndpointSlots;
  private readonly reads: GroupBatcher<string, DeliveryContext | null>;
  /** Opened signing secrets by their sealed form (a rotation seals a new one): no decryption per delivery. */
  private readonly opened = new Map<string, string>();

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly recorder: AttemptRecorder,
    private readonly queue: DeliveryQueue,
    private readonly config: AppConfig,
    private readonly metrics: WebhookMetrics,
    private readonly secrets: SecretBox,
  ) {
    this.agents = receiverAgents(config.WEBHOOK_CONCURRENCY);
    this.slots = new EndpointSlots(config.WEBHOOK_CONCURRENCY, config.WEBHOOK_TIMEOUT_MS);
    this.reads = new GroupBatcher((ids) => this.deliveries.contexts(ids), BATCHING);
  }

  onApplicationBootstrap(): void {
    this.queue.process((job, info) => this.deliver(job, info.attempt >= info.maxAttempts), this.config.WEBHOOK_CONCURRENCY);
  }

  onApplicationShutdown(): void {
    this.agents.destroy();
  }

  /**
   * One try, in one of its endpoint's slots (or back to the queue untried when the endpoint has
   * none free: `JobDeferred`); `lastTry`: the job has no attempt left after this one.
   */
  async deliver(job: DeliverJob, lastTry: boolean): Promise<void> {
    let ctx: DeliveryContext | null | undefined;
    let endpointId = job.endpointId;
    if (!endpointId) {
      // Queued by an older version, which did not name the endpoint in the job: the delivery says it.
      ctx = await this.reads.add(job.deliveryId);
      if (!ctx) return;
      endpointId = ctx.endpoint.id;
    }
    const slot = await this.slots.take(endpointId).catch((err: unknown) => {
      if (err instanceof JobDeferred) this.metrics.deferred.inc();
      throw err;
    });
    try {
      ctx ??= await this.reads.add(job.deliveryId);
      if (ctx) await this.attempt(ctx, lastTry, slot);
    } finally {
      slot.release();
    }
  }

  private async attempt(ctx: DeliveryContext, lastTry: boolean, slot: EndpointSlot): Promise<void> {
    if (ctx.delivery.status !== 'pending') return; // already settled (duplicate job)
    const { delivery, endpoint, event } = ctx;
    const attempt = delivery.attemptCount + 1;
    const attemptedAt = new Date();
    if (endpoint.status !== 'Active') {
      await this.deliveries.recordAttempt(attemptRow(delivery.id, attempt, attemptedAt, { error: 'endpoint disabled', durationMs: 0 }), {
        id: delivery.id,
        status: 'failed',
        attemptCount: attempt,
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
        'x-service-signature': signatureHeader(signingSecrets(endpoint, this.box, attemptedAt), t, body),
        'x-service-event-id': event.id,
        'x-service-delivery-attempt': String(attempt),
      },
      { timeoutMs: this.config.WEBHOOK_TIMEOUT_MS, allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE, agents: this.agents },
    );
    // The receiver is done with: its slot goes to the endpoint's next job while the attempt is recorded.
    slot.release({ durationMs: result.durationMs, timedOut: result.error === 'timeout' });
    const status = result.statusCode;
    const ok = status !== undefined && status >= 200 && status < 300;
    const gone = status === 410;
    const outcome = ok ? 'succeeded' : gone ? 'disabled' : lastTry ? 'failed' : 'retrying';
    const failure = await this.recorder.record({
      attempt: attemptRow(delivery.id, attempt, attemptedAt, result),
      delivery: { id: delivery.id, status: ok ? 'succeeded' : gone || lastTry ? 'failed' : 'pending', attemptCount: attempt },
      accountId: endpoint.accountId,
      disableEndpoint: gone ? endpoint.id : undefined,
    });
    if (failure) throw failure; // not recorded: the queue tries again
    this.metrics.observe(outcome, result.durationMs);
    if (gone) this.logger.warn(`Endpoint ${endpoint.id} answered 410 Gone: disabled`);
    // An operator problem, not the receiver's: say so where operators look.
    if (result.error === 'blocked address') {
      this.logger.warn(
        `Endpoint ${endpoint.id} resolves to a private or reserved address: attempt refused (WEBHOOK_ALLOW_PRIVATE=true allows it, for development)`,
      );
    }
    if (!ok && !gone) throw new Error(result.error ?? `HTTP ${status}`);
  }

  /** SecretBox, remembering what it opened (bounded). */
  private readonly box = {
    open: (sealed: string): string => {
      let secret = this.opened.get(sealed);
      if (secret === undefined) {
        if (this.opened.size >= 10_000) this.opened.clear();
        this.opened.set(sealed, (secret = this.secrets.open(sealed)));
      }
      return secret;
    },
  };
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

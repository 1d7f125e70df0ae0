import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { GroupBatcher } from '../common/group-batcher.js';
import { newId } from '../common/ids.js';
import { AppConfig } from '../config/app-config.js';
import type { StoredEvent } from '../events/stored-event.entity.js';
import { JobDeferred } from '../queue/queue.types.js';
import { AttemptRecorder, BATCHING } from './attempt-recorder.js';
import { DeliverJob, DeliveryQueue } from './delivery-queue.js';
import { EndpointSlot, EndpointSlots } from './endpoint-slots.js';
import { retryAfterMs, RetrySchedule } from './retry-schedule.js';
import { SecretBox } from './secret-box.js';
import { signatureHeader, standardSignatureHeader } from './signature.js';
import { Claim, ClaimRequest, DeliveryContext, WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookMetrics } from './webhook-metrics.js';
import { ReceiverAgents, receiverAgents, sendWebhook } from './webhook-sender.js';
import { WebhookAttempt, WebhookEndpoint } from './webhook.entities.js';

/** The webhook body: serialized once, and those exact bytes are signed and sent. */
export function webhookBody(event: Pick<StoredEvent, 'id' | 'kind' | 'createdAt' | 'data'>): string {
  return JSON.stringify({ id: event.id, event: event.kind, createdAt: event.createdAt.toISOString(), data: event.data });
}

/** The headers of a delivery: both signature schemes (Stripe's and Standard Webhooks'), the event id, the try's number. */
export function deliveryHeaders(secrets: string[], eventId: string, attempt: number, timestamp: number, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-service-signature': signatureHeader(secrets, timestamp, body),
    'x-service-event-id': eventId,
    'x-service-delivery-attempt': String(attempt),
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignatureHeader(secrets, eventId, timestamp, body),
  };
}

/**
 * How long a claimed try is its job's: the receiver's whole time to answer, and 15 s to record the
 * attempt. A job whose worker died holds the delivery no longer than this.
 */
export function attemptLeaseMs(timeoutMs: number): number {
  return timeoutMs + 15_000;
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
 * The `webhooks/deliver` job: one try of one delivery. Claims the try (so no other job sends it),
 * signs and POSTs, records the attempt and, when it failed and a retry is left, when the next try
 * is due — in the database, which is what says so — and queues a job for then. Runs in worker
 * processes. A job that comes too early (not due yet, or the try held by a job that may have died)
 * goes back to the queue for as long as that lasts.
 *
 * The database work of concurrent tries is grouped: their claims are one statement, and their
 * attempts written together (`AttemptRecorder`), which each job waits for before it completes — so
 * a job never finishes before its attempt is stored. Each endpoint has its share of the worker's
 * WEBHOOK_CONCURRENCY slots (`EndpointSlots`).
 */
@Injectable()
export class DeliveryProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly agents: ReceiverAgents;
  /** Each endpoint's share of this worker's WEBHOOK_CONCURRENCY slots. */
  readonly slots: EndpointSlots;
  readonly schedule: RetrySchedule;
  private readonly leaseMs: number;
  private readonly claims: GroupBatcher<ClaimRequest, Claim>;
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
    this.agents = receiverAgents(config.WEBHOOK_CONCURRENCY, config.WEBHOOK_ALLOW_PRIVATE);
    this.slots = new EndpointSlots(config.WEBHOOK_CONCURRENCY, config.WEBHOOK_TIMEOUT_MS);
    this.schedule = new RetrySchedule(config.retryOffsetsMs);
    this.leaseMs = attemptLeaseMs(config.WEBHOOK_TIMEOUT_MS);
    this.claims = new GroupBatcher((jobs) => this.deliveries.claim(jobs, this.leaseMs), BATCHING);
  }

  onApplicationBootstrap(): void {
    this.queue.process((job) => this.deliver(job), this.config.WEBHOOK_CONCURRENCY);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.agents.destroy();
  }

  /**
   * One try, in one of its endpoint's slots (or back to the queue untried when the endpoint has
   * none free: `JobDeferred`).
   */
  async deliver(job: DeliverJob): Promise<void> {
    // Jobs of older versions did not name the endpoint: their delivery is its own lane.
    const slot = await this.slots.take(job.endpointId ?? job.deliveryId).catch((err: unknown) => {
      if (err instanceof JobDeferred) this.metrics.deferred.inc();
      throw err;
    });
    try {
      const claim = await this.claims.add({ deliveryId: job.deliveryId, attempt: job.attempt });
      if (claim.ctx) await this.attempt(claim.ctx, slot);
      else if (claim.retryInMs !== undefined) throw new JobDeferred(claim.retryInMs);
    } finally {
      slot.release();
    }
  }

  private async attempt(ctx: DeliveryContext, slot: EndpointSlot): Promise<void> {
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
    const result = await sendWebhook(endpoint.url, body, deliveryHeaders(signingSecrets(endpoint, this.box, attemptedAt), event.id, attempt, t, body), {
      timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
      allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE,
      agents: this.agents,
    });
    // The receiver is done with: its slot goes to the endpoint's next job while the attempt is recorded.
    slot.release({ durationMs: result.durationMs, timedOut: result.error === 'timeout' });
    const status = result.statusCode;
    const ok = status !== undefined && status >= 200 && status < 300;
    const gone = status === 410;
    const nextDelayMs = ok || gone ? undefined : this.schedule.delayAfter(attempt, retryAfterMs(status, result.retryAfter));
    const outcome = ok ? 'succeeded' : gone ? 'disabled' : nextDelayMs === undefined ? 'failed' : 'retrying';
    const failure = await this.recorder.record({
      attempt: attemptRow(delivery.id, attempt, attemptedAt, result),
      delivery: { id: delivery.id, status: ok ? 'succeeded' : nextDelayMs === undefined ? 'failed' : 'pending', attemptCount: attempt, nextDelayMs },
      accountId: endpoint.accountId,
      disableEndpoint: gone ? endpoint.id : undefined,
      health: gone ? undefined : { endpointId: endpoint.id, succeeded: ok, endpointWasFailing: endpoint.failingSince !== null },
    });
    // Not recorded (the database is down): this job makes the try again once its lease has run out.
    if (failure) throw new JobDeferred(this.leaseMs);
    this.metrics.observe(outcome, result.durationMs);
    // An operator problem, not the receiver's: say so where operators look.
    if (result.error === 'blocked address') {
      this.logger.warn(
        `Endpoint ${endpoint.id} resolves to a private or reserved address: attempt refused (WEBHOOK_ALLOW_PRIVATE=true allows it, for development)`,
      );
    }
    if (nextDelayMs === undefined) return;
    // The database holds the retry; this job is how a worker hears of it on time (the sweep queues it if this fails).
    await this.queue
      .schedule({ id: delivery.id, endpointId: endpoint.id }, attempt + 1, nextDelayMs)
      .catch((err: unknown) => this.logger.warn(`Could not queue try ${attempt + 1} of delivery ${delivery.id} (the sweep will): ${String(err)}`));
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
  // NUL characters cannot be stored in text (a receiver's TLS or DNS error may carry one).
  return {
    id: newId('att'),
    deliveryId,
    attempt,
    attemptedAt,
    statusCode: result.statusCode ?? null,
    durationMs: result.durationMs,
    responseBody: result.body ?? null,
    error: result.error?.replaceAll('\u0000', '').slice(0, 500) ?? null,
  };
}

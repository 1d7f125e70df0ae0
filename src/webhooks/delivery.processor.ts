import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { newId } from '../common/ids.js';
import { Meters } from '../billing/meters.js';
import { AppConfig } from '../config/app-config.js';
import { Transactions } from '../database/transactions.js';
import type { StoredEvent } from '../events/stored-event.entity.js';
import { DeliveryQueue } from './delivery-queue.js';
import { SecretBox } from './secret-box.js';
import { signatureHeader } from './signature.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WebhookMetrics } from './webhook-metrics.js';
import { sendWebhook } from './webhook-sender.js';
import { WebhookAttempt, WebhookEndpoint } from './webhook.entities.js';

const CONCURRENCY = 20;

/** The webhook body: serialized once, and those exact bytes are signed and sent. */
export function webhookBody(event: StoredEvent): string {
  return JSON.stringify({ id: event.id, event: event.kind, createdAt: event.createdAt.toISOString(), data: event.data });
}

/** Secrets that sign now: the current one, and the previous one during the 24 h after a rotation. */
export function signingSecrets(endpoint: WebhookEndpoint, box: SecretBox, now = new Date()): string[] {
  const secrets = [box.open(endpoint.secret)];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) secrets.push(box.open(endpoint.previousSecret));
  return secrets;
}

/**
 * The `webhooks/deliver` job: one try of one delivery. Signs and POSTs, records the attempt, and
 * throws on a retryable failure so the queue retries with backoff. Runs in worker processes.
 */
@Injectable()
export class DeliveryProcessor implements OnApplicationBootstrap {
  private readonly logger = new Logger('Webhooks');

  constructor(
    private readonly db: Transactions,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly queue: DeliveryQueue,
    private readonly config: AppConfig,
    private readonly metrics: WebhookMetrics,
    private readonly secrets: SecretBox,
    private readonly meters: Meters,
  ) {}

  onApplicationBootstrap(): void {
    this.queue.process((job, info) => this.deliver(job.deliveryId, info.attempt >= info.maxAttempts), CONCURRENCY);
  }

  /** One try; `lastTry`: the job has no attempt left after this one. */
  async deliver(deliveryId: string, lastTry: boolean): Promise<void> {
    const ctx = await this.deliveries.context(deliveryId);
    if (!ctx || ctx.delivery.status !== 'pending') return; // deleted, or already settled (duplicate job)
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
        'x-service-signature': signatureHeader(signingSecrets(endpoint, this.secrets, attemptedAt), t, body),
        'x-service-event-id': event.id,
        'x-service-delivery-attempt': String(attempt),
      },
      { timeoutMs: this.config.WEBHOOK_TIMEOUT_MS, allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE },
    );
    const status = result.statusCode;
    const ok = status !== undefined && status >= 200 && status < 300;
    const gone = status === 410;
    const outcome = ok ? 'succeeded' : gone ? 'disabled' : lastTry ? 'failed' : 'retrying';
    const row = attemptRow(delivery.id, attempt, attemptedAt, result);
    const state = { id: delivery.id, status: ok ? 'succeeded' : gone || lastTry ? 'failed' : 'pending', attemptCount: attempt } as const;
    // The attempt, what it changes, and the delivery on the webhook.deliveries meter (once per delivery, however many attempts): one transaction.
    await this.db.run(async () => {
      await this.deliveries.recordAttempt(row, state);
      if (gone) await this.endpoints.disable(endpoint.id);
      await this.meters.record(endpoint.accountId, 'webhook.deliveries', 1, delivery.id, attemptedAt);
    });
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

import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { GroupBatcher } from '../common/group-batcher.js';
import { newId } from '../common/ids.js';
import { Meters } from '../billing/meters.js';
import { AppConfig } from '../config/app-config.js';
import { Transactions } from '../database/transactions.js';
import type { StoredEvent } from '../events/stored-event.entity.js';
import { DeliveryQueue } from './delivery-queue.js';
import { SecretBox } from './secret-box.js';
import { signatureHeader } from './signature.js';
import { AttemptOutcome, DeliveryContext, WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WebhookMetrics } from './webhook-metrics.js';
import { ReceiverAgents, receiverAgents, sendWebhook } from './webhook-sender.js';
import { WebhookAttempt, WebhookEndpoint } from './webhook.entities.js';

/** Tries grouped per database round trip, and round trips at once, for the worker's reads and writes. */
const BATCHING = { maxBatch: 100, maxInFlight: 1 };

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

/** What one try leaves to record. */
interface TryOutcome {
  attempt: WebhookAttempt;
  delivery: AttemptOutcome;
  accountId: string;
  /** The endpoint answered 410 Gone: it is disabled with the attempt. */
  disableEndpoint?: string;
}

/**
 * The `webhooks/deliver` job: one try of one delivery. Signs and POSTs, records the attempt, and
 * throws on a retryable failure so the queue retries with backoff. Runs in worker processes.
 *
 * The database work of concurrent tries is grouped: their deliveries are read in one query, and
 * their attempts (rows, delivery states, the `webhook.deliveries` meter) written in one
 * transaction, which each job waits for before it completes — so a job never finishes before its
 * attempt is stored.
 */
@Injectable()
export class DeliveryProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly agents: ReceiverAgents;
  private readonly reads: GroupBatcher<string, DeliveryContext | null>;
  private readonly writes: GroupBatcher<TryOutcome, unknown>;
  /** Opened signing secrets by their sealed form (a rotation seals a new one): no decryption per delivery. */
  private readonly opened = new Map<string, string>();

  constructor(
    private readonly db: Transactions,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly queue: DeliveryQueue,
    private readonly config: AppConfig,
    private readonly metrics: WebhookMetrics,
    private readonly secrets: SecretBox,
    private readonly meters: Meters,
  ) {
    this.agents = receiverAgents(config.WEBHOOK_CONCURRENCY);
    this.reads = new GroupBatcher((ids) => this.deliveries.contexts(ids), BATCHING);
    this.writes = new GroupBatcher((outcomes) => this.record(outcomes), BATCHING);
  }

  onApplicationBootstrap(): void {
    this.queue.process((job, info) => this.deliver(job.deliveryId, info.attempt >= info.maxAttempts), this.config.WEBHOOK_CONCURRENCY);
  }

  onApplicationShutdown(): void {
    this.agents.destroy();
  }

  /** One try; `lastTry`: the job has no attempt left after this one. */
  async deliver(deliveryId: string, lastTry: boolean): Promise<void> {
    const ctx = await this.reads.add(deliveryId);
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
        'x-service-signature': signatureHeader(signingSecrets(endpoint, this.box, attemptedAt), t, body),
        'x-service-event-id': event.id,
        'x-service-delivery-attempt': String(attempt),
      },
      { timeoutMs: this.config.WEBHOOK_TIMEOUT_MS, allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE, agents: this.agents },
    );
    const status = result.statusCode;
    const ok = status !== undefined && status >= 200 && status < 300;
    const gone = status === 410;
    const outcome = ok ? 'succeeded' : gone ? 'disabled' : lastTry ? 'failed' : 'retrying';
    const failure = await this.writes.add({
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

  /**
   * Tries' attempts, what they change, and their deliveries on the webhook.deliveries meter (once
   * per delivery, however many attempts): one transaction. Should the batch fail, each try is
   * recorded alone, so one bad row fails only its own job. Answers each try's error, if any.
   */
  private async record(outcomes: TryOutcome[]): Promise<unknown[]> {
    try {
      await this.recordTogether(outcomes);
      return outcomes.map(() => undefined);
    } catch (err) {
      if (outcomes.length === 1) return [err];
      return Promise.all(
        outcomes.map((o) =>
          this.recordTogether([o]).then(
            () => undefined,
            (e: unknown) => e,
          ),
        ),
      );
    }
  }

  private recordTogether(outcomes: TryOutcome[]): Promise<void> {
    return this.db.run(async () => {
      await this.deliveries.recordAttempts(outcomes);
      for (const id of new Set(outcomes.map((o) => o.disableEndpoint).filter((id) => id !== undefined))) await this.endpoints.disable(id);
      await this.meters.recordMany(
        outcomes.map((o) => ({ accountId: o.accountId, meter: 'webhook.deliveries', quantity: 1, sourceId: o.delivery.id, at: o.attempt.attemptedAt })),
      );
    });
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

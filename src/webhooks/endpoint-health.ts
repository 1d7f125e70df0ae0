import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { formatDuration } from '../config/durations.js';
import { DomainEvents } from '../events/domain-events.service.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

/** How one try went, for its endpoint's health. */
export interface TryHealth {
  endpointId: string;
  succeeded: boolean;
  /** The endpoint was failing when the try was claimed (a success then has something to clear). */
  endpointWasFailing: boolean;
}

/** What EndpointHealth reads of a recorded try. */
export interface HealthOutcome {
  attempt: { attemptedAt: Date };
  /** The endpoint answered 410 Gone. */
  disableEndpoint?: string;
  health?: TryHealth;
}

export const GONE_REASON = 'the receiver answered 410 Gone';

/**
 * Endpoints that stop answering are disabled rather than tried forever: on a 410 Gone, or once
 * their deliveries have kept failing for WEBHOOK_DISABLE_AFTER (5 days) with no success between
 * (`failing_since`: the first failure after the last success). Each is disabled once, with its
 * reason, and `webhook_endpoint.disabled` goes to the account's other Active endpoints (the outbox:
 * raised in the transaction that records the tries). Enabling an endpoint again clears both.
 */
@Injectable()
export class EndpointHealth {
  private readonly logger = new Logger('Webhooks');

  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly events: DomainEvents,
    private readonly config: AppConfig,
  ) {}

  /** In the transaction that records these tries. */
  async record(outcomes: HealthOutcome[]): Promise<void> {
    const gone = [...new Set(outcomes.flatMap((o) => (o.disableEndpoint ? [o.disableEndpoint] : [])))];
    const tries = outcomes.flatMap((o) => (o.health ? [{ ...o.health, at: o.attempt.attemptedAt }] : []));
    const succeeding = new Set(tries.filter((t) => t.succeeded).map((t) => t.endpointId));
    const failing = new Map<string, Date>();
    for (const t of tries) {
      if (t.succeeded || succeeding.has(t.endpointId)) continue;
      const first = failing.get(t.endpointId);
      if (!first || t.at < first) failing.set(t.endpointId, t.at);
    }
    const healed = [...new Set(tries.filter((t) => t.succeeded && t.endpointWasFailing).map((t) => t.endpointId))];
    if (healed.length > 0) await this.endpoints.markSucceeding(healed);
    if (failing.size > 0) await this.endpoints.markFailing([...failing].map(([id, at]) => ({ id, at })));
    if (gone.length === 0 && failing.size === 0) return;
    const windowMs = this.config.disableAfterMs;
    const disabled = await this.endpoints.disableAutomatically(gone, [...failing.keys()], windowMs, {
      gone: GONE_REASON,
      failing: `no delivery succeeded for ${formatDuration(windowMs)} while deliveries kept failing`,
    });
    for (const e of disabled) {
      await this.events.raise('webhook_endpoint.disabled', e.accountId, { endpointId: e.id, url: e.url, reason: e.reason });
      this.logger.warn(`Endpoint ${e.id} disabled: ${e.reason}`);
    }
  }
}

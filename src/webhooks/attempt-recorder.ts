import { Injectable, Logger } from '@nestjs/common';
import { Meters } from '../billing/meters.js';
import { BatchWriter } from '../common/batch-writer.js';
import { GroupBatcher } from '../common/group-batcher.js';
import { Transactions } from '../database/transactions.js';
import { WritePaths } from '../health/write-paths.js';
import { EndpointHealth, TryHealth } from './endpoint-health.js';
import { AttemptOutcome, WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import type { WebhookAttempt } from './webhook.entities.js';

/** Tries grouped per database round trip, and round trips at once. */
export const BATCHING = { maxBatch: 100, maxInFlight: 1 };

/** The `writer` label of this path in `batch_rows_set_aside_total`. */
export const ATTEMPTS_WRITER = 'webhook_attempts';

/** The error an attempt is recorded with when the database refused what the receiver's answer left in it. */
export const UNSTORABLE_DETAILS = "attempt details not stored: the database refused them (the receiver's answer held a character it cannot store)";

/** What one try leaves to record. */
export interface TryOutcome {
  attempt: WebhookAttempt;
  delivery: AttemptOutcome;
  accountId: string;
  /** The endpoint answered 410 Gone: it is disabled with the attempt. */
  disableEndpoint?: string;
  /** How the try went for its endpoint's health (`EndpointHealth`); absent: it does not count. */
  health?: TryHealth;
}

/**
 * Records the tries of the delivery worker: their attempt rows, their deliveries' new states, their
 * endpoints' health (`EndpointHealth`: a 410, or failing too long, disables) and the `webhook.deliveries` meter (once per delivery, however many
 * attempts). The tries of concurrent jobs go together, in one transaction per group.
 *
 * A group the database refuses for one try's data (a NUL in an error text, say) is split until that
 * try is alone: the others are written whole, and that one is set aside (counted in
 * `batch_rows_set_aside_total{writer="webhook_attempts"}`, logged without its content) and written
 * again without the receiver's text, so its delivery still moves on rather than being sent again
 * and again. An outage (the database unreachable) fails every try not yet written: their jobs fail
 * and the queue tries them again, as for any failed try.
 */
@Injectable()
export class AttemptRecorder {
  private readonly logger = new Logger('Webhooks');
  private readonly writes: GroupBatcher<TryOutcome, unknown>;
  /** The groups as they come: counted and logged as every write path's are. */
  private readonly attempts: BatchWriter<TryOutcome>;
  /** Tries set aside, again without the receiver's text. */
  private readonly plainAttempts: BatchWriter<TryOutcome>;

  constructor(
    private readonly db: Transactions,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly health: EndpointHealth,
    private readonly meters: Meters,
    writePaths: WritePaths,
  ) {
    this.writes = new GroupBatcher((outcomes) => this.recordGroup(outcomes), BATCHING);
    this.attempts = writePaths.writer(ATTEMPTS_WRITER, (group) => this.write(group));
    this.plainAttempts = new BatchWriter({ write: (group) => this.write(group) });
  }

  /** Records one try with the others of its group; answers the outage that kept it from being recorded, if any. */
  record(outcome: TryOutcome): Promise<unknown> {
    return this.writes.add(outcome);
  }

  private async recordGroup(outcomes: TryOutcome[]): Promise<unknown[]> {
    const errors = new Map<TryOutcome, unknown>();
    const first = await this.attempts.write(outcomes);
    for (const o of first.unwritten) errors.set(o, first.error);
    if (first.setAside.length > 0) {
      this.logger.warn(`Recording the attempts of deliveries ${first.setAside.map((o) => o.delivery.id).join(', ')} without the receiver's text`);
      const plain = new Map(first.setAside.map((o) => [withoutText(o), o]));
      const second = await this.plainAttempts.write([...plain.keys()]);
      for (const o of second.unwritten) errors.set(plain.get(o)!, second.error);
      // Refused even so (its delivery deleted meanwhile): nothing is left to record.
    }
    return outcomes.map((o) => errors.get(o));
  }

  private write(outcomes: TryOutcome[]): Promise<void> {
    return this.db.run(async () => {
      await this.deliveries.recordAttempts(outcomes);
      await this.health.record(outcomes);
      await this.meters.recordMany(
        outcomes.map((o) => ({ accountId: o.accountId, meter: 'webhook.deliveries', quantity: 1, sourceId: o.delivery.id, at: o.attempt.attemptedAt })),
      );
    });
  }
}

/** The try with only what the worker itself wrote: no response excerpt, a fixed error text. */
function withoutText(outcome: TryOutcome): TryOutcome {
  return { ...outcome, attempt: { ...outcome.attempt, responseBody: null, error: UNSTORABLE_DETAILS } };
}

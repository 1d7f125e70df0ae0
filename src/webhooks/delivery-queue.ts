import { Injectable } from '@nestjs/common';
import { JobHandler, QueueCounts } from '../queue/queue.types.js';
import { QueueService } from '../queue/queue.service.js';
import type { WebhookDelivery } from './webhook.entities.js';

export interface DeliverJob {
  deliveryId: string;
  /** Its endpoint, for the worker's per-endpoint slots before anything is read (absent in jobs of older versions). */
  endpointId?: string;
  /** The try this job makes, 1 for the first (absent in jobs of older versions: the next one). */
  attempt?: number;
}

/**
 * Queue-level tries of one job, for failures of our own (the database unreachable while claiming).
 * A receiver's failure never fails a job: its retry is written in the database and queued anew.
 */
const JOB_ATTEMPTS = 3;

type Queued = Pick<WebhookDelivery, 'id' | 'endpointId'>;

/**
 * The `webhooks/deliver` jobs: the only code that adds them. A job makes one try of one delivery;
 * its id names the two (`<deliveryId>.<try>`), so the queue holds each scheduled try once. The
 * database says which try is due when (`next_attempt_at`); a job is how a worker hears of it on
 * time, and a job lost with a process is queued again by the sweep.
 */
@Injectable()
export class DeliveryQueue {
  private tag = 0;

  constructor(private readonly queue: QueueService) {}

  /** Queues try `attempt` of a delivery in `delayMs`. A job already live for that try is kept. */
  schedule(delivery: Queued, attempt: number, delayMs = 0): Promise<string> {
    return this.queue.add<DeliverJob>('webhooks', 'deliver', jobData(delivery, attempt), {
      attempts: JOB_ATTEMPTS,
      delayMs,
      jobId: jobId(delivery.id, attempt),
    });
  }

  /** Queues the first tries of new deliveries in one go. */
  addNew(deliveries: Queued[]): Promise<void> {
    return this.queue.addNew<DeliverJob>(
      'webhooks',
      'deliver',
      deliveries.map((d) => ({ data: jobData(d, 1), opts: { attempts: JOB_ATTEMPTS, jobId: jobId(d.id, 1) } })),
    );
  }

  /**
   * Queues one try now for each delivery, in this order (a retry or recover by hand), under job ids
   * never used before: a job already waiting for that try (a retry due in an hour) does not hold it
   * back, and the claim lets only one of the two send it.
   */
  addNow(deliveries: Array<Queued & Pick<WebhookDelivery, 'attemptCount'>>): Promise<void> {
    const tag = `now${Date.now().toString(36)}${(this.tag++).toString(36)}`;
    return this.queue.addNew<DeliverJob>(
      'webhooks',
      'deliver',
      deliveries.map((d) => ({
        data: jobData(d, d.attemptCount + 1),
        opts: { attempts: JOB_ATTEMPTS, jobId: `${jobId(d.id, d.attemptCount + 1)}.${tag}` },
      })),
    );
  }

  /** A job for this try is waiting, delayed or running. */
  isQueued(deliveryId: string, attempt: number): Promise<boolean> {
    return this.queue.isLive('webhooks', jobId(deliveryId, attempt));
  }

  counts(): Promise<QueueCounts> {
    return this.queue.counts('webhooks');
  }

  process(handler: JobHandler<DeliverJob>, concurrency: number): void {
    this.queue.registerProcessor<DeliverJob>('webhooks', 'deliver', handler, { concurrency });
  }
}

function jobId(deliveryId: string, attempt: number): string {
  return `${deliveryId}.${attempt}`;
}

function jobData(delivery: Queued, attempt: number): DeliverJob {
  return { deliveryId: delivery.id, endpointId: delivery.endpointId, attempt };
}

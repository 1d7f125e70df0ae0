import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { JobHandler, QueueCounts } from '../queue/queue.types.js';
import { QueueService } from '../queue/queue.service.js';
import type { WebhookDelivery } from './webhook.entities.js';

/** 1 try + 3 retries (the contract). */
export const MAX_ATTEMPTS = 4;

export interface DeliverJob {
  deliveryId: string;
  /** Its endpoint, for the worker's per-endpoint slots before anything is read (absent in jobs of older versions). */
  endpointId?: string;
}

/** The `webhooks/deliver` jobs: the only code that adds them. One job per delivery, its id the delivery's. */
@Injectable()
export class DeliveryQueue {
  constructor(
    private readonly queue: QueueService,
    private readonly config: AppConfig,
  ) {}

  /** Queues the tries a delivery has left (see `attemptsLeft`). A job already live for it is kept. */
  add(delivery: Pick<WebhookDelivery, 'id' | 'endpointId' | 'status' | 'attemptCount'>): Promise<string> {
    return this.queue.add<DeliverJob>(
      'webhooks',
      'deliver',
      { deliveryId: delivery.id, endpointId: delivery.endpointId },
      {
        attempts: attemptsLeft(delivery),
        backoffMs: this.config.WEBHOOK_RETRY_BASE_MS,
        jobId: delivery.id,
      },
    );
  }

  /** Queues new deliveries (never queued before: all four tries each) in one go. */
  addNew(deliveries: Array<Pick<WebhookDelivery, 'id' | 'endpointId'>>): Promise<void> {
    return this.queue.addNew<DeliverJob>(
      'webhooks',
      'deliver',
      deliveries.map((d) => ({
        data: { deliveryId: d.id, endpointId: d.endpointId },
        opts: { attempts: MAX_ATTEMPTS, backoffMs: this.config.WEBHOOK_RETRY_BASE_MS, jobId: d.id },
      })),
    );
  }

  /** A job for this delivery is waiting, delayed or running. */
  isQueued(deliveryId: string): Promise<boolean> {
    return this.queue.isLive('webhooks', deliveryId);
  }

  counts(): Promise<QueueCounts> {
    return this.queue.counts('webhooks');
  }

  process(handler: JobHandler<DeliverJob>, concurrency: number): void {
    this.queue.registerProcessor<DeliverJob>('webhooks', 'deliver', handler, { concurrency });
  }
}

/**
 * Tries to queue: what remains of the four for a delivery still pending (a lost job is re-queued
 * with the rest of its budget), one more for a settled one (a retry by hand).
 */
export function attemptsLeft(delivery: Pick<WebhookDelivery, 'status' | 'attemptCount'>): number {
  return delivery.status === 'pending' ? Math.max(1, MAX_ATTEMPTS - delivery.attemptCount) : 1;
}

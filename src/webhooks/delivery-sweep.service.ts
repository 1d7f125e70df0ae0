import { Injectable, Logger } from '@nestjs/common';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { DeliveryQueue } from './delivery-queue.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';

const SWEEP_INTERVAL_MS = 60_000;
/** A pending delivery younger than this may still be on its way into the queue (its fan-out just committed). */
const SWEEP_GRACE_MS = 10_000;
const SWEEP_BATCH = 500;

/**
 * In worker processes: re-queues `pending` deliveries that have no live job (the process that
 * wrote them died before queueing them, or the queue lost them: the in-process queue forgets its
 * jobs on restart). At start every pending delivery is due; later only those past the grace period.
 */
@Injectable()
export class DeliverySweep {
  private readonly logger = new Logger('Webhooks');

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly queue: DeliveryQueue,
    jobs: PeriodicJobs,
  ) {
    jobs.add({
      name: 'delivery-sweep',
      schedule: { everyMs: SWEEP_INTERVAL_MS },
      runsOn: 'workers',
      atStart: true,
      run: ({ reason, signal }) => this.sweep(new Date(Date.now() - (reason === 'start' ? 0 : SWEEP_GRACE_MS)), signal),
    });
  }

  /** Re-queues pending deliveries created before `before` that have no live job (until `signal` aborts); returns how many. */
  async sweep(before: Date, signal?: AbortSignal): Promise<number> {
    let requeued = 0;
    for (const delivery of await this.deliveries.pending(before, SWEEP_BATCH)) {
      if (signal?.aborted) break;
      if (await this.queue.isQueued(delivery.id)) continue;
      await this.queue.add(delivery);
      requeued++;
    }
    if (requeued > 0) this.logger.log(`Recovery sweep re-queued ${requeued} pending deliveries`);
    return requeued;
  }
}

import { Injectable, Logger } from '@nestjs/common';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { DeliveryQueue } from './delivery-queue.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';

const SWEEP_INTERVAL_MS = 60_000;
/** How far ahead a sweep looks: past the next sweep, so a try due before it gets its job in time. */
const SWEEP_AHEAD_MS = 2 * SWEEP_INTERVAL_MS;
const SWEEP_BATCH = 500;

/**
 * In worker processes: queues the tries the database says are due (`next_attempt_at`) within the
 * next two minutes that have no live job — the process that wrote them died before queueing them,
 * a worker died with a try under way (its lease ran out), or the queue lost them (the in-process
 * queue forgets its jobs on restart: a retry due in 24 h is queued here when its time comes near).
 * Each job waits until its try is due. At start, and every minute.
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
      run: ({ signal }) => this.sweep(new Date(Date.now() + SWEEP_AHEAD_MS), signal),
    });
  }

  /**
   * Queues the tries due by `horizon` that have no live job, each delayed until it is due; returns
   * how many. Page after page while pages hold lost ones (a restarted in-process queue lost them
   * all); a page whose every try has its job ends the sweep (a backlog waiting in Redis), as does `signal`.
   */
  async sweep(horizon: Date, signal?: AbortSignal): Promise<number> {
    let requeued = 0;
    for (let page = await this.deliveries.dueBy(horizon, SWEEP_BATCH); page.length > 0 && !signal?.aborted;) {
      let lost = 0;
      for (const due of page) {
        if (signal?.aborted) break;
        if (await this.queue.isQueued(due.id, due.attemptCount + 1)) continue;
        await this.queue.schedule(due, due.attemptCount + 1, due.dueInMs);
        lost++;
      }
      requeued += lost;
      page = page.length < SWEEP_BATCH || lost === 0 ? [] : await this.deliveries.dueBy(horizon, SWEEP_BATCH, page.at(-1));
    }
    if (requeued > 0) this.logger.log(`Recovery sweep re-queued ${requeued} pending deliveries`);
    return requeued;
  }
}

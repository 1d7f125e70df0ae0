import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
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
export class DeliverySweep implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<void>;

  constructor(
    private readonly config: AppConfig,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly queue: DeliveryQueue,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.runsWorkers) return;
    this.start();
    this.timer = setInterval(() => this.start(), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  /**
   * Queues the tries due by `horizon` that have no live job, each delayed until it is due; returns
   * how many. Page after page while pages hold lost ones (a restarted in-process queue lost them
   * all); a page whose every try has its job ends the sweep (a backlog waiting in Redis).
   */
  async sweep(horizon: Date): Promise<number> {
    let requeued = 0;
    for (let page = await this.deliveries.dueBy(horizon, SWEEP_BATCH); page.length > 0;) {
      let lost = 0;
      for (const due of page) {
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

  private start(): void {
    if (this.sweeping) return;
    this.sweeping = this.sweep(new Date(Date.now() + SWEEP_AHEAD_MS))
      .then(() => undefined)
      .catch((err) => this.logger.error({ err }, 'Webhook recovery sweep failed'))
      .finally(() => (this.sweeping = undefined));
  }
}

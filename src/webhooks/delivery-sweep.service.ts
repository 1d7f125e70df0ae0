import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
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
    this.start(new Date());
    this.timer = setInterval(() => this.start(new Date(Date.now() - SWEEP_GRACE_MS)), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  /** Re-queues pending deliveries created before `before` that have no live job; returns how many. */
  async sweep(before: Date): Promise<number> {
    let requeued = 0;
    for (const delivery of await this.deliveries.pending(before, SWEEP_BATCH)) {
      if (await this.queue.isQueued(delivery.id)) continue;
      await this.queue.add(delivery);
      requeued++;
    }
    if (requeued > 0) this.logger.log(`Recovery sweep re-queued ${requeued} pending deliveries`);
    return requeued;
  }

  private start(before: Date): void {
    if (this.sweeping) return;
    this.sweeping = this.sweep(before)
      .then(() => undefined)
      .catch((err) => this.logger.error({ err }, 'Webhook recovery sweep failed'))
      .finally(() => (this.sweeping = undefined));
  }
}

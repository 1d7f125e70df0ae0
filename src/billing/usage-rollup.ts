import { Injectable, Logger, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { withDeadline } from '../common/with-deadline.js';
import { UsageRepository } from './usage.repository.js';

/** How often recorded usage is added to the daily rollups. Readers sum rollups and pending rows, so this is a cost bound, not a delay anyone sees. */
export const USAGE_ROLLUP_MS = 1000;
const BATCH = 5000;
const SHUTDOWN_ROLLUP_MS = 2000;

/**
 * Adds pending usage (`usage_pending`, written with each ledger row) to `usage_daily`, every
 * second, in every process that records usage. Recording touches no shared row, so concurrent
 * metered writes of one account do not wait for each other.
 */
@Injectable()
export class UsageRollup implements OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger('Billing');
  private readonly timer: NodeJS.Timeout;
  private running: Promise<void> | undefined;

  constructor(private readonly usage: UsageRepository) {
    this.timer = setInterval(() => void this.run(), USAGE_ROLLUP_MS);
    this.timer.unref();
  }

  /** Rolls up everything pending (in batches); one run at a time. Tests call it too. */
  run(): Promise<void> {
    return (this.running ??= this.rollUpAll().finally(() => (this.running = undefined)));
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async onApplicationShutdown(): Promise<void> {
    await withDeadline(this.run(), SHUTDOWN_ROLLUP_MS, () => this.logger.warn('Shutdown: pending usage left for the next instance to roll up'));
  }

  private async rollUpAll(): Promise<void> {
    try {
      while ((await this.usage.rollUp(BATCH)) === BATCH);
    } catch (err) {
      // Nothing is lost: the rows stay pending (and counted) until a later run.
      this.logger.warn(`Could not roll up usage, will retry: ${(err as Error).message}`);
    }
  }
}

import { Injectable, Logger } from '@nestjs/common';
import type { BatchWriter } from '../common/batch-writer.js';
import { type PeriodicJob, PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { WritePaths } from '../health/write-paths.js';
import { UsageRepository } from './usage.repository.js';

/** How often recorded usage is added to the daily rollups. Readers sum rollups and pending rows, so this is a cost bound, not a delay anyone sees. */
export const USAGE_ROLLUP_MS = 1000;
const BATCH = 5000;
/** Pending rows set aside that this process remembers to skip (each is a row the database refused: rare). */
const MAX_SET_ASIDE = 10_000;

/**
 * Adds pending usage (`usage_pending`, written with each ledger row) to `usage_daily`, every
 * second, in every process that records usage. Recording touches no shared row, so concurrent
 * metered writes of one account do not wait for each other. A row the rollup refuses (a total
 * out of range, say) is set aside by the BatchWriter and skipped from then on, so it holds up no
 * other: it stays pending — still counted by every reader, nothing billed is lost — and is tried
 * again by the next process to start. At shutdown a last run (up to 2 s) leaves as little as
 * possible to the next instance.
 */
@Injectable()
export class UsageRollup {
  private readonly logger = new Logger('Billing');
  private readonly job: PeriodicJob;
  private readonly batches: BatchWriter<string>;
  private readonly setAside = new Set<string>();
  /** Rows the last write moved (another instance may have taken some of those asked for). */
  private moved = 0;

  constructor(
    private readonly usage: UsageRepository,
    private readonly writePaths: WritePaths,
    jobs: PeriodicJobs,
  ) {
    this.batches = writePaths.writer('usage', async (recordIds: string[]) => (this.moved += await this.usage.rollUp(recordIds)));
    this.job = jobs.add({
      name: 'usage-rollup',
      schedule: { everyMs: USAGE_ROLLUP_MS },
      runsOn: 'every-instance',
      atShutdown: true,
      shutdownDeadlineMs: 2000,
      cutShort: 'pending usage is left for the next instance to roll up',
      run: () => this.rollUpAll(),
    });
  }

  /** Rolls up everything pending (in batches); one run at a time. Tests call it too. */
  run(): Promise<void> {
    return this.job.runNow();
  }

  private async rollUpAll(): Promise<void> {
    try {
      for (;;) {
        const recordIds = await this.usage.pendingIds(BATCH, [...this.setAside]);
        if (recordIds.length === 0) return this.writePaths.succeeded('usage');
        this.moved = 0;
        const { setAside, unwritten, error } = await this.batches.write(recordIds);
        for (const id of setAside) if (this.setAside.size < MAX_SET_ASIDE) this.setAside.add(id);
        // Nothing is lost: the rows stay pending (and counted) until a later run.
        if (unwritten.length > 0) return this.logger.warn(`Could not roll up usage, will retry: ${(error as Error).message}`);
        // A short batch was the last; one where nothing moved is being moved by another instance.
        if (recordIds.length < BATCH || this.moved === 0) return;
      }
    } catch (err) {
      this.writePaths.failed('usage');
      this.logger.warn(`Could not roll up usage, will retry: ${(err as Error).message}`);
    }
  }
}

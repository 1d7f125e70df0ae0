import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import type { Meters } from './meters.js';
import type { Meter } from './plans.js';

/** How often a buffered meter's counts go to the ledger: a crash loses at most this much of them (never more, never a double count). */
export const METER_BUFFER_FLUSH_MS = 10_000;

/**
 * A meter counted without a database write per unit: per account in memory, written as one ledger
 * row per account per flush, identified by this process and a sequence number, so a retried flush is
 * not counted twice. Flushed every METER_BUFFER_FLUSH_MS on every instance (the periodic job `job`)
 * and at shutdown, after the HTTP server has closed, within 2 s (so a database already closing
 * cannot hold the shutdown); its owner also flushes it before shutdown, while the database is surely up.
 */
export class MeterBuffer {
  private readonly logger = new Logger('Billing');
  private readonly instance = randomBytes(6).toString('hex');
  private counts = new Map<string, number>();
  private sequence = 0;
  private readonly sourcePrefix: string;

  constructor(
    private readonly meters: Meters,
    jobs: PeriodicJobs,
    private readonly meter: Meter,
    what: {
      /** Prefix of the ledger rows' source ids (`<prefix>:<instance>:<sequence>:<account>`). */
      sourcePrefix: string;
      job: string;
      /** What a shutdown cut short loses, for its warning. */
      cutShort: string;
    },
  ) {
    this.sourcePrefix = what.sourcePrefix;
    jobs.add({
      name: what.job,
      schedule: { everyMs: METER_BUFFER_FLUSH_MS },
      runsOn: 'every-instance',
      atShutdown: true,
      shutdownDeadlineMs: 2000,
      cutShort: what.cutShort,
      run: () => this.flush(),
    });
  }

  count(accountId: string, quantity = 1): void {
    this.counts.set(accountId, (this.counts.get(accountId) ?? 0) + quantity);
  }

  /** What this process counted for the account and has not written yet. */
  pending(accountId: string): number {
    return this.counts.get(accountId) ?? 0;
  }

  /** Writes the counts so far; a failed account's count is kept for the next flush. */
  async flush(): Promise<void> {
    const counts = this.counts;
    if (counts.size === 0) return;
    this.counts = new Map();
    const batch = `${this.instance}:${++this.sequence}`;
    for (const [accountId, n] of counts) {
      try {
        await this.meters.record(accountId, this.meter, n, `${this.sourcePrefix}:${batch}:${accountId}`);
      } catch (err) {
        this.counts.set(accountId, (this.counts.get(accountId) ?? 0) + n);
        this.logger.warn(`Could not record ${n} of ${this.meter} for ${accountId}, will retry: ${(err as Error).message}`);
      }
    }
  }
}

import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { ApiRequestListener } from '../common/api-request-listener.js';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { Meters } from './meters.js';

/** How often the counts go to the ledger: a crash loses at most this much of `api.requests` (never more, never a double count). */
export const API_REQUESTS_FLUSH_MS = 10_000;

/**
 * `api.requests` without a database write per request: counted per account in memory and written
 * every 10 s (and on shutdown) as one ledger row per account, identified by this process and a
 * sequence number, so a retried flush is not counted twice. What a crash can lose: the last 10 s
 * of this instance's counts. Told of each request by the rate limiter, as its ApiRequestListener
 * (BillingBindingsModule).
 */
@Injectable()
export class ApiRequestMeter extends ApiRequestListener implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Billing');
  private readonly instance = randomBytes(6).toString('hex');
  private counts = new Map<string, number>();
  private sequence = 0;

  constructor(
    private readonly meters: Meters,
    jobs: PeriodicJobs,
  ) {
    super();
    // At shutdown, after the HTTP server has closed: the requests that finished while it closed (within 2 s, so a
    // database already closing cannot hold the shutdown).
    jobs.add({
      name: 'api-request-meter',
      schedule: { everyMs: API_REQUESTS_FLUSH_MS },
      runsOn: 'every-instance',
      atShutdown: true,
      shutdownDeadlineMs: 2000,
      cutShort: 'the last API request counts are not recorded',
      run: () => this.flush(),
    });
  }

  onApiRequest(accountId: string): void {
    this.counts.set(accountId, (this.counts.get(accountId) ?? 0) + 1);
  }

  /** Writes the counts so far; a failed account's count is kept for the next flush. Tests call it too. */
  async flush(): Promise<void> {
    const counts = this.counts;
    if (counts.size === 0) return;
    this.counts = new Map();
    const batch = `${this.instance}:${++this.sequence}`;
    for (const [accountId, n] of counts) {
      try {
        await this.meters.record(accountId, 'api.requests', n, `req:${batch}:${accountId}`);
      } catch (err) {
        this.counts.set(accountId, (this.counts.get(accountId) ?? 0) + n);
        this.logger.warn(`Could not record ${n} API request(s) of ${accountId}, will retry: ${(err as Error).message}`);
      }
    }
  }

  /** While the database is surely up: what was counted so far. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }
}

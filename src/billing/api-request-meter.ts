import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { ApiRequestListener } from '../common/api-request-listener.js';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { METER_BUFFER_FLUSH_MS, MeterBuffer } from './meter-buffer.js';
import { Meters } from './meters.js';

/** How often the counts go to the ledger: a crash loses at most this much of `api.requests` (never more, never a double count). */
export const API_REQUESTS_FLUSH_MS = METER_BUFFER_FLUSH_MS;

/**
 * `api.requests` without a database write per request: counted per account in memory and written
 * every 10 s (and on shutdown) as one ledger row per account (MeterBuffer). What a crash can lose: the
 * last 10 s of this instance's counts. Told of each request by the rate limiter, as its
 * ApiRequestListener (BillingBindingsModule).
 */
@Injectable()
export class ApiRequestMeter extends ApiRequestListener implements BeforeApplicationShutdown {
  private readonly buffer: MeterBuffer;

  constructor(meters: Meters, jobs: PeriodicJobs) {
    super();
    this.buffer = new MeterBuffer(meters, jobs, 'api.requests', {
      sourcePrefix: 'req',
      job: 'api-request-meter',
      cutShort: 'the last API request counts are not recorded',
    });
  }

  onApiRequest(accountId: string): void {
    this.buffer.count(accountId);
  }

  /** Writes the counts so far; a failed account's count is kept for the next flush. Tests call it too. */
  flush(): Promise<void> {
    return this.buffer.flush();
  }

  /** While the database is surely up: what was counted so far. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }
}

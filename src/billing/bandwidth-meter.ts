import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { MeterBuffer } from './meter-buffer.js';
import { Meters } from './meters.js';

/**
 * `bandwidth.bytes`: the body bytes of the answers of the sites the platform serves, per account —
 * counted in memory and written every 10 s (and on shutdown) like `api.requests`.
 */
@Injectable()
export class BandwidthMeter implements BeforeApplicationShutdown {
  private readonly buffer: MeterBuffer;

  constructor(meters: Meters, jobs: PeriodicJobs) {
    this.buffer = new MeterBuffer(meters, jobs, 'bandwidth.bytes', {
      sourcePrefix: 'bw',
      job: 'bandwidth-meter',
      cutShort: 'the last bytes sent by sites are not recorded',
    });
  }

  count(accountId: string, bytes: number): void {
    this.buffer.count(accountId, bytes);
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

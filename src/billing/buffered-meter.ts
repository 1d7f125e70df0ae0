import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { withDeadline } from '../common/with-deadline.js';
import { Meters } from './meters.js';
import type { Meter } from './plans.js';

/** How often the counts go to the ledger: a crash loses at most this much of a buffered meter (never more, never a double count). */
export const BUFFERED_METER_FLUSH_MS = 10_000;
const SHUTDOWN_FLUSH_MS = 2000;

/**
 * A meter counted without a database write per unit: per account in memory, written every 10 s (and
 * on shutdown) as one ledger row per account, identified by this process and a sequence number, so a
 * retried flush is not counted twice. What a crash can lose: the last 10 s of this instance's counts.
 */
abstract class BufferedMeter implements OnModuleDestroy, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('Billing');
  private readonly instance = randomBytes(6).toString('hex');
  private counts = new Map<string, number>();
  private sequence = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly meters: Meters,
    private readonly meter: Meter,
    /** Prefix of the ledger rows' source ids (`<prefix>:<instance>:<sequence>:<account>`). */
    private readonly sourcePrefix: string,
  ) {
    this.timer = setInterval(() => void this.flush(), BUFFERED_METER_FLUSH_MS);
    this.timer.unref();
  }

  count(accountId: string, quantity = 1): void {
    this.counts.set(accountId, (this.counts.get(accountId) ?? 0) + quantity);
  }

  /** Writes the counts so far; a failed account's count is kept for the next flush. Tests call it too. */
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
        this.logger.warn(`Could not record ${n} of ${this.meter} of ${accountId}, will retry: ${(err as Error).message}`);
      }
    }
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** While the database is surely up: what was counted so far. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /** What finished while the server closed; bounded, so a database already closing cannot hold the shutdown. */
  async onApplicationShutdown(): Promise<void> {
    await withDeadline(this.flush(), SHUTDOWN_FLUSH_MS, () =>
      this.logger.warn(`Shutdown: the last counts of ${this.meter} were not recorded within ${SHUTDOWN_FLUSH_MS} ms`),
    );
  }
}

/** `api.requests`: one per authenticated request (counted by the rate-limit guard). */
@Injectable()
export class ApiRequestMeter extends BufferedMeter {
  constructor(meters: Meters) {
    super(meters, 'api.requests', 'req');
  }
}

/** `bandwidth.bytes`: the bytes of the answers of the sites the platform serves, per account. */
@Injectable()
export class BandwidthMeter extends BufferedMeter {
  constructor(meters: Meters) {
    super(meters, 'bandwidth.bytes', 'bw');
  }
}

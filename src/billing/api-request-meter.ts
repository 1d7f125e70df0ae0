import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { ApiRequestListener } from '../common/api-request-listener.js';
import { withDeadline } from '../common/with-deadline.js';
import { Meters } from './meters.js';

/** How often the counts go to the ledger: a crash loses at most this much of `api.requests` (never more, never a double count). */
export const API_REQUESTS_FLUSH_MS = 10_000;
const SHUTDOWN_FLUSH_MS = 2000;

/**
 * `api.requests` without a database write per request: counted per account in memory and written
 * every 10 s (and on shutdown) as one ledger row per account, identified by this process and a
 * sequence number, so a retried flush is not counted twice. What a crash can lose: the last 10 s
 * of this instance's counts. Told of each request by the rate limiter, as its ApiRequestListener
 * (BillingBindingsModule).
 */
@Injectable()
export class ApiRequestMeter extends ApiRequestListener implements OnModuleDestroy, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('Billing');
  private readonly instance = randomBytes(6).toString('hex');
  private counts = new Map<string, number>();
  private sequence = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly meters: Meters) {
    super();
    this.timer = setInterval(() => void this.flush(), API_REQUESTS_FLUSH_MS);
    this.timer.unref();
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

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** While the database is surely up: what was counted so far. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /** The requests that finished while the server closed; bounded, so a database already closing cannot hold the shutdown. */
  async onApplicationShutdown(): Promise<void> {
    await withDeadline(this.flush(), SHUTDOWN_FLUSH_MS, () =>
      this.logger.warn(`Shutdown: the last API request counts were not recorded within ${SHUTDOWN_FLUSH_MS} ms`),
    );
  }
}

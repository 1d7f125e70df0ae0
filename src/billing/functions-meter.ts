import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { AccountPlans } from './account-plans.js';
import { MeterBuffer } from './meter-buffer.js';
import { Meters } from './meters.js';
import { type Meter, periodOf } from './plans.js';
import { UsageRepository } from './usage.repository.js';

/** How long an account's recorded use of the function meters is trusted before it is read again (only with a hard quota). */
const USED_CACHE_MS = 5_000;
const FUNCTION_METERS = ['functions.requests', 'functions.duration_ms'] as const satisfies readonly Meter[];

/**
 * `functions.requests` and `functions.duration_ms` (wall time of each request, from its arrival to the end of its
 * answer): counted per account in memory and written every 10 s like `api.requests` (MeterBuffer), so a function
 * request costs no database write. A hard quota (an operator's plan; the built-in ones are soft) is checked from
 * memory too: the ledger's total, read at most every 5 s per account, plus what this process counted since.
 */
@Injectable()
export class FunctionsMeter implements BeforeApplicationShutdown {
  private readonly buffers: Record<(typeof FUNCTION_METERS)[number], MeterBuffer>;
  /** Counted here and not yet in the ledger's total below (reset when the total is read again). */
  private readonly since = new Map<string, { requests: number; durationMs: number }>();
  private readonly used = new Map<string, { requests: number; durationMs: number; period: string; until: number }>();

  constructor(
    meters: Meters,
    jobs: PeriodicJobs,
    private readonly plans: AccountPlans,
    private readonly usage: UsageRepository,
  ) {
    const buffer = (meter: Meter, sourcePrefix: string) =>
      new MeterBuffer(meters, jobs, meter, { sourcePrefix, job: `${meter}-meter`, cutShort: `the last ${meter} counts are not recorded` });
    this.buffers = { 'functions.requests': buffer('functions.requests', 'fnreq'), 'functions.duration_ms': buffer('functions.duration_ms', 'fnms') };
  }

  /** One function request of the account, answered after `durationMs`. */
  count(accountId: string, durationMs: number): void {
    const ms = Math.max(0, Math.round(durationMs));
    this.buffers['functions.requests'].count(accountId, 1);
    this.buffers['functions.duration_ms'].count(accountId, ms);
    const since = this.since.get(accountId);
    if (since) {
      since.requests++;
      since.durationMs += ms;
    }
  }

  /**
   * Null when the account may run a function request now; else the seconds until its hard quota renews (the period's
   * end), for the visitor's 503 and Retry-After. No query unless the plan has a hard quota on a function meter.
   */
  async refusal(accountId: string, at = new Date()): Promise<number | null> {
    const plan = await this.plans.of(accountId);
    const requests = plan.meters['functions.requests'];
    const duration = plan.meters['functions.duration_ms'];
    const hardRequests = requests?.hard && requests.included !== null ? requests.included : null;
    const hardDuration = duration?.hard && duration.included !== null ? duration.included : null;
    if (hardRequests === null && hardDuration === null) return null;
    const period = periodOf(at);
    const used = await this.usedOf(accountId, period);
    const over = (hardRequests !== null && used.requests >= hardRequests) || (hardDuration !== null && used.durationMs >= hardDuration);
    return over ? Math.max(1, Math.ceil((Date.parse(period.end) - at.getTime()) / 1000)) : null;
  }

  /** This period's use: the ledger's (cached 5 s) plus what this process counted since it was read. */
  private async usedOf(accountId: string, period: { start: string; end: string }): Promise<{ requests: number; durationMs: number }> {
    let used = this.used.get(accountId);
    if (!used || used.until <= Date.now() || used.period !== period.start) {
      // Counted from now on: what the ledger read below may not hold yet (the buffers' unflushed counts included).
      const since = { requests: 0, durationMs: 0 };
      this.since.set(accountId, since);
      const pending = { requests: this.pending('functions.requests', accountId), durationMs: this.pending('functions.duration_ms', accountId) };
      const [requests, durationMs] = await Promise.all(FUNCTION_METERS.map((meter) => this.usage.total(accountId, meter, period.start, period.end)));
      used = { requests: requests + pending.requests, durationMs: durationMs + pending.durationMs, period: period.start, until: Date.now() + USED_CACHE_MS };
      if (this.used.size > 10_000) this.used.clear();
      this.used.set(accountId, used);
    }
    const since = this.since.get(accountId) ?? { requests: 0, durationMs: 0 };
    return { requests: used.requests + since.requests, durationMs: used.durationMs + since.durationMs };
  }

  private pending(meter: (typeof FUNCTION_METERS)[number], accountId: string): number {
    return this.buffers[meter].pending(accountId);
  }

  /** Writes the counts so far. Tests call it too. */
  async flush(): Promise<void> {
    await Promise.all(Object.values(this.buffers).map((buffer) => buffer.flush()));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }
}

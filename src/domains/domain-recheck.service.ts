import { Injectable, Logger } from '@nestjs/common';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { DomainsRepository } from './domains.repository.js';
import { DomainsService } from './domains.service.js';

/** How often the worker looks for pending domains due for a check (their schedule is per minute at best). */
const TICK_MS = 15_000;
/** Checks claimed per round, and run at once. */
const BATCH = 50;
const CONCURRENCY = 8;
/** A claimed domain is left alone this long: its check (bounded by the DNS deadline) is done well before. */
const LEASE_MS = 5 * 60_000;

/**
 * In worker processes: checks pending domains whose turn has come (every minute for their first
 * hour, then hourly; `failed` at 7 days — see domain-schedule.ts). Several workers share the work:
 * a round claims its domains (`FOR UPDATE SKIP LOCKED`, a lease on `next_check_at`) before the DNS
 * lookups, which run outside any transaction.
 */
@Injectable()
export class DomainRecheck {
  private readonly logger = new Logger('Domains');
  private running?: Promise<number>;

  constructor(
    private readonly domains: DomainsRepository,
    private readonly service: DomainsService,
    jobs: PeriodicJobs,
  ) {
    jobs.add({ name: 'domain-recheck', schedule: { everyMs: TICK_MS }, runsOn: 'workers', run: () => this.runDue() });
  }

  /** Checks the domains due now, after the round under way if there is one; answers how many this round checked. */
  async runDue(): Promise<number> {
    while (this.running) await this.running;
    const round = this.round()
      .catch((err: unknown) => {
        this.logger.error({ err }, 'Custom domain checks failed');
        return 0;
      })
      .finally(() => (this.running = undefined));
    this.running = round;
    return round;
  }

  private async round(): Promise<number> {
    const ids = await this.domains.claimDue(BATCH, LEASE_MS);
    let next = 0;
    const lane = async () => {
      while (next < ids.length) {
        const id = ids[next++];
        // One domain's failure (its app deleted meanwhile, a database hiccup) is retried at the lease's end, not the others'.
        await this.service.recheck(id).catch((err: unknown) => this.logger.warn({ err, domainId: id }, 'A custom domain check failed'));
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ids.length) }, lane));
    return ids.length;
  }
}

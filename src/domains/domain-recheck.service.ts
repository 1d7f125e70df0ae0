import { Injectable, Logger } from '@nestjs/common';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { DomainsRepository } from './domains.repository.js';
import { DomainsService } from './domains.service.js';

/** How often the worker looks for names due for a check (their schedule is per minute at best). */
const TICK_MS = 15_000;
/** Checks claimed per round (from each kind of name), and run at once. */
const BATCH = 50;
const CONCURRENCY = 8;
/** A claimed name is left alone this long: its check (bounded by the DNS deadline) is done well before. */
const LEASE_MS = 5 * 60_000;

/**
 * A kind of name whose DNS proof the worker checks on its schedule (domain-schedule.ts): custom domains, and the
 * e-mail domains of single sign-on (which register themselves, `register`).
 */
export interface ProofChecks {
  /** Logged with a failure: `custom domain`, `SSO domain`. */
  readonly kind: string;
  /** Claims up to `limit` names due now (`FOR UPDATE SKIP LOCKED`, a lease of `leaseMs` on their next check); their keys. */
  claimDue(limit: number, leaseMs: number): Promise<string[]>;
  /** Checks one claimed name (outside any transaction: DNS may take seconds). */
  recheck(key: string): Promise<void>;
}

/**
 * In worker processes, one job for every proven name: checks those whose turn has come — pending custom domains
 * (every minute for their first hour, then hourly; `failed` at 7 days) and verified ones, custom or SSO (daily,
 * hourly once the proof is missing, `lapsed` after the grace period). Several workers share the work: a round claims
 * its names (`FOR UPDATE SKIP LOCKED`, a lease on `next_check_at`) before the DNS lookups, which run outside any
 * transaction.
 */
@Injectable()
export class DomainRecheck {
  private readonly logger = new Logger('Domains');
  private running?: Promise<number>;
  private readonly sources: ProofChecks[];

  constructor(domains: DomainsRepository, service: DomainsService, jobs: PeriodicJobs) {
    this.sources = [{ kind: 'custom domain', claimDue: (limit, leaseMs) => domains.claimDue(limit, leaseMs), recheck: (id) => service.recheck(id) }];
    jobs.add({ name: 'domain-recheck', schedule: { everyMs: TICK_MS }, runsOn: 'workers', run: () => this.runDue() });
  }

  /** Another kind of proven name for the same rounds (at module init). */
  register(source: ProofChecks): void {
    this.sources.push(source);
  }

  /** Checks the names due now, after the round under way if there is one; answers how many this round checked. */
  async runDue(): Promise<number> {
    while (this.running) await this.running;
    const round = this.round()
      .catch((err: unknown) => {
        this.logger.error({ err }, 'Domain checks failed');
        return 0;
      })
      .finally(() => (this.running = undefined));
    this.running = round;
    return round;
  }

  private async round(): Promise<number> {
    const due: Array<{ source: ProofChecks; key: string }> = [];
    for (const source of this.sources) for (const key of await source.claimDue(BATCH, LEASE_MS)) due.push({ source, key });
    let next = 0;
    const lane = async () => {
      while (next < due.length) {
        const { source, key } = due[next++];
        // One name's failure (its app deleted meanwhile, a database hiccup) is retried at the lease's end, not the others'.
        await source.recheck(key).catch((err: unknown) => this.logger.warn({ err, kind: source.kind, key }, 'A domain check failed'));
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.length) }, lane));
    return due.length;
  }
}

import { Injectable } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service.js';
import { AppConfig } from '../config/app-config.js';
import { BillingError } from './billing.errors.js';
import type { Plan } from './plans.js';

const CACHE_MS = 10_000;

/**
 * Which plan each account is on. Read on every authenticated request (its rate limits), so cached
 * for 10 s per instance; a change on this instance is seen at once, on others within 10 s.
 */
@Injectable()
export class AccountPlans {
  private readonly cache = new Map<string, { plan: Plan; until: number }>();

  constructor(
    private readonly accounts: AccountsService,
    private readonly config: AppConfig,
  ) {}

  get catalog(): Record<string, Plan> {
    return this.config.plans;
  }

  plan(id: string): Plan {
    const plan = this.config.plans[id];
    if (!plan) throw BillingError.unknownPlan(id, Object.keys(this.config.plans));
    return plan;
  }

  /** The plan if it is cached (what `of` would answer without a query), else undefined. */
  cached(accountId: string): Plan | undefined {
    const cached = this.cache.get(accountId);
    return cached && cached.until > Date.now() ? cached.plan : undefined;
  }

  async of(accountId: string): Promise<Plan> {
    const now = Date.now();
    const cached = this.cache.get(accountId);
    if (cached && cached.until > now) return cached.plan;
    const account = await this.accounts.get(accountId);
    // An account whose plan was removed from PLANS_FILE falls back to free rather than locking it out.
    const plan = this.config.plans[account.plan] ?? this.config.plans.free;
    if (this.cache.size > 50_000) this.cache.clear();
    this.cache.set(accountId, { plan, until: now + CACHE_MS });
    return plan;
  }

  /** In the caller's transaction; answers the previous plan's id. */
  async change(accountId: string, planId: string): Promise<string> {
    this.plan(planId);
    const previous = await this.accounts.changePlan(accountId, planId);
    this.cache.delete(accountId);
    return previous;
  }

  forget(accountId: string): void {
    this.cache.delete(accountId);
  }
}

import { Injectable } from '@nestjs/common';
import { AccountRateLimits, RequestLimits } from '../rate-limit/account-rate-limits.js';
import { AccountPlans } from './account-plans.js';

/** An account's rate limits are its plan's `requestsPerMinute` and `aiRequestsPerMinute`. */
@Injectable()
export class PlanRateLimits extends AccountRateLimits {
  constructor(private readonly plans: AccountPlans) {
    super();
  }

  /** From memory on almost every request (the plan is cached for 10 s); a promise only when the plan must be read. */
  limitsFor(accountId: string): RequestLimits | Promise<RequestLimits> {
    const plan = this.plans.cached(accountId);
    return plan ?? this.plans.of(accountId);
  }

  override invalidate(accountId: string): void {
    this.plans.forget(accountId);
  }
}

import { Injectable } from '@nestjs/common';
import { AccountLimits, RequestLimits } from '../common/account-limits.js';
import { AccountPlans } from './account-plans.js';

/** An account's rate limits are its plan's `requestsPerMinute` and `aiRequestsPerMinute`. */
@Injectable()
export class PlanRateLimits extends AccountLimits {
  constructor(private readonly plans: AccountPlans) {
    super();
  }

  /** From memory on almost every request (the plan is cached for 10 s); a promise only when the plan must be read. */
  limitsFor(accountId: string): RequestLimits | Promise<RequestLimits> {
    const plan = this.plans.cached(accountId);
    return plan ?? this.plans.of(accountId);
  }
}

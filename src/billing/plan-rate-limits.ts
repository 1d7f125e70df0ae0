import { Injectable } from '@nestjs/common';
import { AccountRateLimits, RequestLimits } from '../rate-limit/account-rate-limits.js';
import { AccountPlans } from './account-plans.js';

/** An account's rate limits are its plan's `requestsPerMinute` and `aiRequestsPerMinute`. */
@Injectable()
export class PlanRateLimits extends AccountRateLimits {
  constructor(private readonly plans: AccountPlans) {
    super();
  }

  async limitsFor(accountId: string): Promise<RequestLimits> {
    const plan = await this.plans.of(accountId);
    return { requestsPerMinute: plan.requestsPerMinute, aiRequestsPerMinute: plan.aiRequestsPerMinute };
  }

  override invalidate(accountId: string): void {
    this.plans.forget(accountId);
  }
}

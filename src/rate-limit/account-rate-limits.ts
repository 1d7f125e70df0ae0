import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';

export interface RequestLimits {
  /** Requests per 60 s of the whole account, every credential together. */
  requestsPerMinute: number;
  /** Of those, to the AI routes. */
  aiRequestsPerMinute: number;
}

/**
 * Where an account's own request limits come from. This default gives every account
 * RATE_LIMIT_MAX / RATE_LIMIT_AI_MAX; billing provides the limits of each account's plan instead.
 * Called on every request: implementations answer from memory.
 */
export abstract class AccountRateLimits {
  abstract limitsFor(accountId: string): RequestLimits | Promise<RequestLimits>;

  /** The account's limits changed (its plan did): forget what is cached. */
  invalidate(_accountId: string): void {}
}

@Injectable()
export class ConfiguredAccountRateLimits extends AccountRateLimits {
  private readonly limits: RequestLimits;

  constructor(config: AppConfig) {
    super();
    this.limits = { requestsPerMinute: config.RATE_LIMIT_MAX, aiRequestsPerMinute: config.RATE_LIMIT_AI_MAX };
  }

  limitsFor(): RequestLimits {
    return this.limits;
  }
}

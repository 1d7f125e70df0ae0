export interface RequestLimits {
  /** Requests per 60 s of the whole account, every credential together. */
  requestsPerMinute: number;
  /** Of those, to the AI routes. */
  aiRequestsPerMinute: number;
}

/**
 * Where an account's own request limits come from: billing binds PlanRateLimits (each account's
 * plan; the built-in `free` plan's are RATE_LIMIT_MAX / RATE_LIMIT_AI_MAX). Called on every
 * request: implementations answer from memory.
 */
export abstract class AccountRateLimits {
  abstract limitsFor(accountId: string): RequestLimits | Promise<RequestLimits>;

  /** The account's limits changed (its plan did): forget what is cached. */
  invalidate(_accountId: string): void {}
}

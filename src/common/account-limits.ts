export interface RequestLimits {
  /** Requests per 60 s of the whole account, every credential together. */
  requestsPerMinute: number;
  /** Of those, to the AI routes. */
  aiRequestsPerMinute: number;
}

/**
 * Where an account's own request limits come from, for the rate limiter (src/rate-limit/), which
 * knows nothing of plans: billing binds it to PlanRateLimits (each account's plan; the built-in
 * `free` plan's are RATE_LIMIT_MAX / RATE_LIMIT_AI_MAX), see BillingBindingsModule. Called on every
 * request: implementations answer from memory.
 */
export abstract class AccountLimits {
  abstract limitsFor(accountId: string): RequestLimits | Promise<RequestLimits>;
}

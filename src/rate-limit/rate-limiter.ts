import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage } from '@nestjs/throttler';
import { AccountLimits } from '../common/account-limits.js';
import type { RateLimitBucket } from './rate-limit.decorators.js';
import { RateLimitError } from './rate-limit.errors.js';
import { type Hit, RateCounters } from './rate-counters.js';

export const WINDOW_MS = 60_000;

/**
 * Counting against rate limits, for the API's guard and for what runs outside it (the portal's
 * sign-in and its AI actions): the same counters (Redis when configured, so every instance shares
 * them), the same 429.
 */
@Injectable()
export class RateLimiter {
  constructor(
    @InjectThrottlerStorage() private readonly counters: RateCounters,
    private readonly accounts: AccountLimits,
  ) {}

  /**
   * Counts one hit on each bucket (one counter round trip at most); answers the rate-limit headers
   * of the tightest. Throws the contract's 429 (with those headers and Retry-After) when any is spent.
   */
  async consume(hits: Hit[]): Promise<Record<string, string>> {
    const counts = await this.counters.hitAll(hits);
    let tightest = 0;
    for (let i = 1; i < hits.length; i++) if (hits[i].limit - counts[i].count < hits[tightest].limit - counts[tightest].count) tightest = i;
    const { limit } = hits[tightest];
    const { count, resetMs } = counts[tightest];
    const headers = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - count)),
      'x-ratelimit-reset': String(Math.max(1, Math.ceil(resetMs / 1000))),
    };
    if (counts.some((c, i) => c.count > hits[i].limit)) throw RateLimitError.exceeded(headers, WINDOW_MS / 1000);
    return headers;
  }

  /** The account's own bucket (its plan's limit): for work an account does without a credential of the API (the portal's). */
  async consumeAccount(accountId: string, bucket: RateLimitBucket): Promise<void> {
    const limits = await this.accounts.limitsFor(accountId);
    const limit = bucket === 'ai' ? limits.aiRequestsPerMinute : limits.requestsPerMinute;
    await this.consume([{ key: accountKey(bucket, accountId), limit, ttlMs: WINDOW_MS }]);
  }
}

/** The bucket every credential of an account shares, the API's and the portal's alike. */
export function accountKey(bucket: RateLimitBucket, accountId: string): string {
  return `${bucket}:acct:${accountId}`;
}

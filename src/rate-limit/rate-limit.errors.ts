import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const RATE_LIMIT_MESSAGE = 'Rate limit reached. Retry in 60 seconds.';

export const RateLimitErrorCode = errorCodes({
  Exceeded: ['rate_limited', 429],
});
export type RateLimitErrorCode = ErrorCode<typeof RateLimitErrorCode>;

export class RateLimitError extends PlatformError.of(RateLimitErrorCode) {
  /** The contract's 429: the fixed message, Retry-After and the rate-limit headers of the bucket that ran out. */
  static exceeded(headers: Record<string, string>, retryAfterSeconds: number): RateLimitError {
    return new RateLimitError(RateLimitErrorCode.Exceeded, RATE_LIMIT_MESSAGE, { headers: { ...headers, 'retry-after': String(retryAfterSeconds) } });
  }
}

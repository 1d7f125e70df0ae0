import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { clientNetworkOf } from '../common/client-network.js';
import { RateLimiter, WINDOW_MS } from '../rate-limit/rate-limiter.js';

/**
 * Tries of a portal credential per client (IPv6: per /64), RATE_LIMIT_SIGN_IN_MAX (20) a minute:
 * sign-ins, and invites opened or accepted. Counted before any password is hashed or any token
 * looked up, in the rate limits' counters (Redis when configured: every instance shares them). The
 * e-mail lockout bounds the guesses at one account; this bounds one client's guesses at all of
 * them, and the scrypt work it can cause.
 */
@Injectable()
export class SignInRateLimit {
  private readonly limit: number;

  constructor(
    private readonly limiter: RateLimiter,
    config: AppConfig,
  ) {
    this.limit = config.RATE_LIMIT_SIGN_IN_MAX;
  }

  /** Throws the 429 RateLimitError past the limit. */
  async consume(ip: string): Promise<void> {
    await this.limiter.consume([{ key: `portal-sign-in:ip:${clientNetworkOf(ip)}`, limit: this.limit, ttlMs: WINDOW_MS }]);
  }
}

import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Redis } from 'ioredis';

// One round trip, atomic: count the hit, start the window on the first one, report its time left.
const INCREMENT = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
return { hits, ttl }`;

/** Fixed-window counters in Redis, so every instance shares one count per credential. */
export class RedisThrottlerStorage implements ThrottlerStorage {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  // `key` already names the bucket (RateLimitGuard.generateKey).
  async increment(key: string, ttlMs: number, limit: number) {
    const [hits, pttl] = (await this.redis.eval(INCREMENT, 1, `${this.prefix}:${key}`, ttlMs)) as [number, number];
    const timeToExpire = Math.max(1, Math.ceil((pttl > 0 ? pttl : ttlMs) / 1000));
    const isBlocked = hits > limit;
    return { totalHits: hits, timeToExpire, isBlocked, timeToBlockExpire: isBlocked ? timeToExpire : 0 };
  }
}

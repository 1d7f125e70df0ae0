import { Logger, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../config/app-config.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { RedisConnection } from '../redis/redis.module.js';
import { LocalFirstCounters } from './local-first-counters.js';
import { RateCounters, RedisCounters } from './rate-counters.js';
import { RateLimitGuard } from './rate-limit.guard.js';
import { RateLimiter, WINDOW_MS } from './rate-limiter.js';

/**
 * Rate limits: @nestjs/throttler's module and guard, counting in Redis when configured (shared by
 * every instance; buckets far from their limit count here first, see LocalFirstCounters) and in
 * memory otherwise or while Redis is unreachable. Each account's own limits come from AccountLimits, and each
 * counted request is told to the ApiRequestListener (both in src/common/; billing binds them, this module imports
 * nothing of billing). RateLimiter counts for what runs outside the guard (the portal).
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig, RedisConnection, MetricsService],
      useFactory: (config: AppConfig, redis: RedisConnection, metrics: MetricsService) => ({
        throttlers: [{ name: 'default', ttl: WINDOW_MS, limit: config.RATE_LIMIT_MAX }],
        storage: countersFor(redis, metrics),
      }),
    }),
  ],
  providers: [RateLimiter, RateLimitGuard],
  exports: [RateLimiter, RateLimitGuard],
})
export class RateLimitModule {}

function countersFor(redis: RedisConnection, metrics: MetricsService): RateCounters {
  const logger = new Logger('RateLimit');
  const fallback = metrics.gauge({
    name: 'rate_limit_local_fallback',
    help: '1 while Redis is unreachable and rate limits are counted per instance',
  });
  const client = redis.client;
  return new RateCounters(
    client ? new LocalFirstCounters(new RedisCounters(client, redis.key('ratelimit'))) : null,
    () => client?.status === 'ready',
    (down, err) => {
      fallback.set(down ? 1 : 0);
      if (down)
        logger.warn(
          { err: err ? { message: (err as Error).message } : undefined },
          'Redis is unreachable: rate limits are counted per instance until it is back',
        );
      else logger.log('Redis is back: rate limits are shared again');
    },
  );
}

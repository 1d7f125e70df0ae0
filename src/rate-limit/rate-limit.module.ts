import { ExecutionContext, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../config/app-config.js';
import { RedisConnection } from '../redis/redis.module.js';
import { RATE_LIMIT_BUCKET } from './rate-limit.decorators.js';
import { RateLimitGuard } from './rate-limit.guard.js';
import { RedisThrottlerStorage } from './redis-throttler.storage.js';

const WINDOW_MS = 60_000;

const isAiRoute = (context: ExecutionContext) => Reflect.getMetadata(RATE_LIMIT_BUCKET, context.getHandler()) === 'ai';

/** Two buckets per credential: `default` for every route, `ai` for the routes marked @AiRateLimit(). */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig, RedisConnection],
      useFactory: (config: AppConfig, redis: RedisConnection) => ({
        throttlers: [
          { name: 'default', ttl: WINDOW_MS, limit: config.RATE_LIMIT_MAX, skipIf: isAiRoute },
          { name: 'ai', ttl: WINDOW_MS, limit: config.RATE_LIMIT_AI_MAX, skipIf: (context) => !isAiRoute(context) },
        ],
        storage: redis.client ? new RedisThrottlerStorage(redis.client, redis.key('ratelimit')) : undefined,
      }),
    }),
  ],
  providers: [RateLimitGuard],
  exports: [RateLimitGuard],
})
export class RateLimitModule {}

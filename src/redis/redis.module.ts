import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { AppConfig } from '../config/app-config.js';

/**
 * One shared ioredis connection for health checks, rate-limit counters and cache eviction,
 * or none when REDIS_URL is unset (then those fall back to in-memory).
 */
@Injectable()
export class RedisConnection implements OnApplicationShutdown {
  readonly client: Redis | null;

  constructor(@Inject(AppConfig) private readonly config: AppConfig) {
    this.client = config.REDIS_URL ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, enableOfflineQueue: true }) : null;
  }

  /** Namespaces a key with REDIS_PREFIX. */
  key(...parts: string[]): string {
    return [this.config.REDIS_PREFIX, ...parts].join(':');
  }

  /** A second connection, for subscribing (a subscribed connection can do nothing else). */
  duplicate(): Redis | null {
    return this.client ? this.client.duplicate() : null;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client?.quit().catch(() => undefined);
  }
}

@Global()
@Module({ providers: [RedisConnection], exports: [RedisConnection] })
export class RedisModule {}

import { Global, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { Redis, type RedisOptions } from 'ioredis';
import { AppConfig } from '../config/app-config.js';
import { MetricsService } from '../metrics/metrics.service.js';

/**
 * Commands fail at once while Redis is unreachable (no offline queue) and never wait more than a
 * second: callers fall back (rate limits count locally) or report it (health), and no request hangs
 * on a reconnecting client. Reconnection goes on in the background.
 */
export const REDIS_OPTIONS: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  connectTimeout: 2_000,
  commandTimeout: 1_000,
  retryStrategy: (times) => Math.min(200 * times, 2_000),
};

/** What `RedisConnection.subscribe` tells of a channel. */
export interface ChannelListener {
  /** What the channel carries, for the logs ('revocations', 'site changes'…). */
  topic: string;
  onMessage(message: string): void;
  /** After a reconnection: messages may have been missed. */
  onGap(): void;
}

/** A listener's own connection: closing it stops its messages (shutdown closes any still open). */
export interface ChannelSubscription {
  close(): Promise<void>;
}

/**
 * One shared ioredis connection for health checks, rate-limit counters and cache eviction, or none
 * when REDIS_URL is unset (then those fall back to in-memory). An outage is logged once when it
 * starts and once when it ends — never per request — and shown by `redis_up` on /metrics.
 */
@Injectable()
export class RedisConnection implements OnApplicationShutdown {
  readonly client: Redis | null;
  private readonly logger = new Logger('Redis');
  private readonly subscribers = new Set<Redis>();

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    metrics: MetricsService,
  ) {
    this.client = config.REDIS_URL ? this.watched(new Redis(config.REDIS_URL, REDIS_OPTIONS), 'connection') : null;
    if (this.client) {
      const client = this.client;
      metrics.gauge({
        name: 'redis_up',
        help: '1 while the Redis connection is ready',
        collect() {
          this.set(client.status === 'ready' ? 1 : 0);
        },
      });
    }
  }

  /** Namespaces a key with REDIS_PREFIX. */
  key(...parts: string[]): string {
    return [this.config.REDIS_PREFIX, ...parts].join(':');
  }

  /**
   * Listens to `channel` on a connection of its own (a subscribed connection can do nothing else);
   * without Redis, does nothing. Messages published while that connection was reconnecting are lost,
   * so `onGap` runs after every reconnection: the listener forgets or reloads what they may have changed.
   */
  subscribe(channel: string, listener: ChannelListener): ChannelSubscription {
    if (!this.client) return { close: () => Promise.resolve() };
    const subscriber = this.watched(this.client.duplicate(), `subscriber (${listener.topic})`);
    this.subscribers.add(subscriber);
    let subscribedBefore = false;
    subscriber.on('ready', () => {
      if (subscribedBefore) listener.onGap();
      subscribedBefore = true;
      subscriber.subscribe(channel).catch((err: Error) => this.logger.warn({ err: { message: err.message } }, `Could not subscribe to ${listener.topic}`));
    });
    subscriber.on('message', (_channel: string, message: string) => listener.onMessage(message));
    return { close: () => this.close(subscriber) };
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.subscribers].map((subscriber) => this.close(subscriber)));
    await this.client?.quit().catch(() => undefined);
  }

  private async close(subscriber: Redis): Promise<void> {
    if (!this.subscribers.delete(subscriber)) return;
    subscriber.removeAllListeners('message');
    await subscriber.quit().catch(() => undefined);
  }

  /** Without an 'error' listener ioredis prints "Unhandled error event" on every failed reconnect. */
  private watched(client: Redis, name: string): Redis {
    let down = false;
    client.on('error', (err: Error) => {
      if (down) return;
      down = true;
      this.logger.warn({ err: { message: err.message } }, `Redis ${name} lost; reconnecting in the background`);
    });
    client.on('ready', () => {
      if (!down) return;
      down = false;
      this.logger.log(`Redis ${name} is back`);
    });
    return client;
  }
}

@Global()
@Module({ providers: [RedisConnection], exports: [RedisConnection] })
export class RedisModule {}

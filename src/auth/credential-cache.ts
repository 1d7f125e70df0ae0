import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { RedisConnection } from '../redis/redis.module.js';
import { Principal } from './principal.js';

interface Entry {
  principal: Principal;
  /** When this cache entry stops being trusted (TTL, or the token's own expiry if sooner). */
  until: number;
}

const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

/**
 * Verified credentials by hash, for 30 s, so an authenticated request costs no query.
 * Revocation evicts at once here and, through Redis pub/sub, on every other instance.
 */
@Injectable()
export class CredentialCache implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('CredentialCache');
  private readonly entries = new Map<string, Entry>();
  private subscriber: Redis | null = null;

  constructor(private readonly redis: RedisConnection) {}

  async onModuleInit(): Promise<void> {
    this.subscriber = this.redis.duplicate();
    if (!this.subscriber) return;
    await this.subscriber.subscribe(this.channel);
    this.subscriber.on('message', (_channel: string, hash: string) => this.entries.delete(hash));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.quit().catch(() => undefined);
  }

  get(hash: string): Principal | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.until <= Date.now()) {
      this.entries.delete(hash);
      return undefined;
    }
    // Re-insert: Map order doubles as recency for the LRU bound.
    this.entries.delete(hash);
    this.entries.set(hash, entry);
    return entry.principal;
  }

  set(hash: string, principal: Principal, expiresAt?: Date): void {
    const until = Math.min(Date.now() + TTL_MS, expiresAt?.getTime() ?? Infinity);
    this.entries.delete(hash);
    this.entries.set(hash, { principal, until });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Forget these credentials here and on every instance. */
  async evict(hashes: string[]): Promise<void> {
    for (const hash of hashes) this.entries.delete(hash);
    if (!this.redis.client) return;
    try {
      await Promise.all(hashes.map((hash) => this.redis.client!.publish(this.channel, hash)));
    } catch (err) {
      this.logger.error({ err }, 'Could not broadcast a revocation; other instances trust it for up to 30 s');
    }
  }

  private get channel(): string {
    return this.redis.key('auth', 'revoked');
  }
}

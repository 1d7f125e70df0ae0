import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { RedisConnection } from '../redis/redis.module.js';
import { Principal } from '../common/request-context/principal.js';

interface Entry {
  principal: Principal;
  /** When this cache entry stops being trusted (TTL, or the token's own expiry if sooner). */
  until: number;
}

const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

/**
 * Verified credentials by hash, for 30 s, so an authenticated request costs no query. Revocation
 * evicts at once here and, through Redis pub/sub, on every other instance.
 *
 * Two races are closed: a verification that read the row just before a revocation must not cache
 * it afterwards (every eviction bumps an epoch; `set` refuses a verification begun in an older
 * one), and revocations published while the subscriber was reconnecting are lost, so a reconnect
 * empties the cache.
 */
@Injectable()
export class CredentialCache implements OnModuleInit {
  private readonly logger = new Logger('CredentialCache');
  private readonly entries = new Map<string, Entry>();
  private evictions = 0;

  constructor(private readonly redis: RedisConnection) {}

  onModuleInit(): void {
    this.redis.subscribe(this.channel, { topic: 'revocations', onMessage: (hash) => this.forget([hash]), onGap: () => this.clear() });
  }

  /** Take this before reading a credential from the database, and give it to `set`. */
  epoch(): number {
    return this.evictions;
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

  /** Caches a verification, unless a credential was evicted since it began (`epoch`): it may have read a row revoked since. */
  set(hash: string, principal: Principal, epoch: number, expiresAt?: Date): void {
    if (epoch !== this.evictions) return;
    const until = Math.min(Date.now() + TTL_MS, expiresAt?.getTime() ?? Infinity);
    this.entries.delete(hash);
    this.entries.set(hash, { principal, until });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Forget these credentials here and on every instance. */
  async evict(hashes: string[]): Promise<void> {
    this.forget(hashes);
    if (!this.redis.client) return;
    try {
      await Promise.all(hashes.map((hash) => this.redis.client!.publish(this.channel, hash)));
    } catch (err) {
      this.logger.error({ err: { message: (err as Error).message } }, 'Could not broadcast a revocation; other instances trust it for up to 30 s');
    }
  }

  private forget(hashes: string[]): void {
    this.evictions++;
    for (const hash of hashes) this.entries.delete(hash);
  }

  private clear(): void {
    this.evictions++;
    this.entries.clear();
  }

  private get channel(): string {
    return this.redis.key('auth', 'revoked');
  }
}

import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Redis } from 'ioredis';

export interface Hit {
  key: string;
  limit: number;
  ttlMs: number;
}

export interface Count {
  /** Hits in the current window, this one included. */
  count: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/** Fixed-window counters. `hitAll` counts several keys (a credential and its account) at once. */
export interface Counters {
  hitAll(hits: Hit[]): Promise<Count[]>;
  /** At shutdown: what is held here goes out, and nothing runs after. */
  close?(): Promise<void>;
}

/** `hits` hits on a key at once (see LocalFirstCounters). */
export interface Add {
  key: string;
  ttlMs: number;
  hits: number;
}

interface ScriptCommands {
  rateLimitAddAll(numberOfKeys: number, ...keysThenTtlsThenHits: Array<string | number>): Promise<number[]>;
}

// One round trip, atomic, for every key: add the hits, start the window with its first ones, report the time left.
const ADD_ALL = `
local n = #KEYS
local out = {}
for i, key in ipairs(KEYS) do
  local hits = tonumber(ARGV[n + i])
  local count = redis.call('INCRBY', key, hits)
  if count == hits then redis.call('PEXPIRE', key, ARGV[i]) end
  local ttl = redis.call('PTTL', key)
  out[i * 2 - 1] = count
  out[i * 2] = ttl
end
return out`;

/** Shared by every instance. */
export class RedisCounters implements Counters {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    // EVALSHA (ioredis loads the script on first use): the script's text is not sent and hashed per request.
    if (!('rateLimitAddAll' in redis)) redis.defineCommand('rateLimitAddAll', { lua: ADD_ALL });
  }

  hitAll(hits: Hit[]): Promise<Count[]> {
    return this.addAll(hits.map(({ key, ttlMs }) => ({ key, ttlMs, hits: 1 })));
  }

  /** Adds each key's hits; answers each key's count after them. */
  async addAll(adds: Add[]): Promise<Count[]> {
    const keys = adds.map((a) => `${this.prefix}:${a.key}`);
    const raw = await (this.redis as Redis & ScriptCommands).rateLimitAddAll(adds.length, ...keys, ...adds.map((a) => a.ttlMs), ...adds.map((a) => a.hits));
    return adds.map((a, i) => ({ count: raw[i * 2], resetMs: raw[i * 2 + 1] > 0 ? raw[i * 2 + 1] : a.ttlMs }));
  }
}

/** Windows an instance keeps in memory before it sweeps the ended ones. */
export const MAX_WINDOWS = 100_000;

/** This instance only: the embedded default, and the fallback while Redis is unreachable. */
export class MemoryCounters implements Counters {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  async hitAll(hits: Hit[]): Promise<Count[]> {
    const now = Date.now();
    return hits.map(({ key, ttlMs }) => {
      let window = this.windows.get(key);
      if (!window || window.resetAt <= now) {
        window = { count: 0, resetAt: now + ttlMs };
        this.windows.set(key, window);
        if (this.windows.size > MAX_WINDOWS) this.sweep(now);
      }
      window.count++;
      return { count: window.count, resetMs: window.resetAt - now };
    });
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

/**
 * The counters the limits use: Redis when configured and reachable, this instance's memory while
 * it is not (a warning once per outage, and `fallingBack` for the metric). So the API keeps
 * answering when Redis is down, with limits per instance instead of shared. Also the @nestjs/throttler
 * storage, for limiters that count one key (the sign-up form's).
 */
export class RateCounters implements Counters, ThrottlerStorage {
  private readonly memory = new MemoryCounters();
  private down = false;

  constructor(
    private readonly redis: Counters | null,
    private readonly isRedisReady: () => boolean,
    private readonly onFallback: (down: boolean, err?: unknown) => void,
  ) {}

  get fallingBack(): boolean {
    return this.down;
  }

  async hitAll(hits: Hit[]): Promise<Count[]> {
    if (this.redis && this.isRedisReady()) {
      try {
        const counts = await this.redis.hitAll(hits);
        this.setDown(false);
        return counts;
      } catch (err) {
        this.setDown(true, err);
      }
    } else if (this.redis) {
      this.setDown(true);
    }
    return this.memory.hitAll(hits);
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number) {
    const [{ count, resetMs }] = await this.hitAll([{ key, limit, ttlMs: ttl }]);
    const isBlocked = count > limit;
    const timeToExpire = Math.max(1, Math.ceil(resetMs / 1000));
    return { totalHits: count, timeToExpire, isBlocked, timeToBlockExpire: isBlocked ? Math.ceil(blockDuration / 1000) : 0 };
  }

  /** Nest calls it at shutdown (this is the throttler's storage provider): the Redis counters' last round trip, then no timer left. */
  async onApplicationShutdown(): Promise<void> {
    await this.redis?.close?.();
  }

  private setDown(down: boolean, err?: unknown): void {
    if (down === this.down) return;
    this.down = down;
    this.onFallback(down, err);
  }
}

import { type Count, type Counters, type Hit, MAX_WINDOWS, type RedisCounters } from './rate-counters.js';

/** A bucket with more hits left than this (as this instance last heard from Redis) is counted here first. */
export const LOCAL_HEADROOM = 1000;
/** How long hits counted here wait to go to Redis, all buckets in one round trip. */
export const SYNC_MS = 100;
/** How old Redis' last answer for a bucket may be for its hits to be counted here (older: the hit goes to Redis). */
export const FRESH_MS = 2 * SYNC_MS;

interface Window {
  ttlMs: number;
  /** When it resets, on this instance's clock (from the time left Redis reported). */
  resetAt: number;
  /** The shared count in Redis' last answer, and when that came. */
  shared: number;
  heardAt: number;
  /** Hits counted here and on their way to Redis. */
  sending: number;
  /** Hits counted here and not sent yet. */
  unsent: number;
}

/**
 * Redis counters without a round trip per request for buckets far from their limit: while a bucket
 * has more than LOCAL_HEADROOM hits left and Redis told this instance its count within FRESH_MS,
 * its hits are counted here and sent to Redis together every SYNC_MS (whose answer is the next
 * fresh count); otherwise — near the limit, on a window's first hit, after a quiet spell — each
 * hit goes to Redis, as it always did. The price (docs/architecture.md, "Hidden costs"): this instance sees the
 * other instances' hits up to FRESH_MS late, so when they take more than LOCAL_HEADROOM hits of one
 * bucket in that time the limit can be passed by the excess and `X-RateLimit-Remaining` be that much
 * too high; and hits not yet sent when their window ends, when the process dies or while Redis is
 * unreachable are not counted.
 */
export class LocalFirstCounters implements Counters {
  private readonly windows = new Map<string, Window>();
  private syncing?: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly redis: Pick<RedisCounters, 'addAll'>) {}

  /**
   * At shutdown, before Redis closes: sends what waits, and schedules no round trip after (a timer left behind
   * wrote to Redis after the app had closed, or to a closed connection).
   */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.syncing);
    await this.sync();
  }

  async hitAll(hits: Hit[]): Promise<Count[]> {
    const now = Date.now();
    const local = hits.map((h) => this.windows.get(h.key)).filter((w, i): w is Window => w !== undefined && roomy(w, hits[i].limit, now));
    if (local.length === hits.length) {
      this.scheduleSync();
      return local.map((w) => {
        w.unsent++;
        return { count: w.shared + w.sending + w.unsent, resetMs: w.resetAt - now };
      });
    }
    // This hit goes to Redis now, with what these buckets have waiting.
    const waiting = hits.map((h) => {
      const w = this.windows.get(h.key);
      const unsent = w && w.resetAt > now ? w.unsent : 0;
      if (w) w.unsent = 0;
      return unsent;
    });
    const counts = await this.redis.addAll(hits.map((h, i) => ({ key: h.key, ttlMs: h.ttlMs, hits: 1 + waiting[i] })));
    const answered = Date.now();
    hits.forEach((h, i) => {
      if (h.limit <= LOCAL_HEADROOM) return; // never counted here: nothing to remember
      const w = this.windows.get(h.key) ?? this.remember(h.key, h.ttlMs, answered);
      Object.assign(w, { shared: counts[i].count, heardAt: answered, resetAt: answered + counts[i].resetMs });
    });
    return counts;
  }

  private remember(key: string, ttlMs: number, now: number): Window {
    if (this.windows.size >= MAX_WINDOWS) this.sweep(now);
    const w: Window = { ttlMs, resetAt: now, shared: 0, heardAt: now, sending: 0, unsent: 0 };
    this.windows.set(key, w);
    return w;
  }

  private scheduleSync(): void {
    if (this.closed) return;
    this.syncing ??= setTimeout(() => void this.sync(), SYNC_MS).unref();
  }

  /** Sends every bucket's unsent hits in one round trip, and takes in the shared counts Redis answers. */
  private async sync(): Promise<void> {
    this.syncing = undefined; // hits counted while this round trip runs schedule the next one
    const now = Date.now();
    this.sweep(now); // an ended window's unsent hits are dropped: they would count in the next one
    const batch = [...this.windows].filter(([, w]) => w.unsent > 0).map(([key, w]) => ({ key, w, hits: w.unsent }));
    for (const { w, hits } of batch) {
      w.sending += hits;
      w.unsent = 0;
    }
    try {
      if (batch.length > 0) {
        const counts = await this.redis.addAll(batch.map(({ key, w, hits }) => ({ key, ttlMs: w.ttlMs, hits })));
        const answered = Date.now();
        batch.forEach(({ w }, i) => Object.assign(w, { shared: counts[i].count, heardAt: answered, resetAt: answered + counts[i].resetMs }));
      }
    } catch {
      // Redis unreachable: these hits are not counted (the next request that goes to Redis reports the outage).
    } finally {
      for (const { w, hits } of batch) w.sending -= hits;
    }
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (w.resetAt <= now && w.sending === 0) this.windows.delete(key);
  }
}

/** Whether this bucket's next hit can be counted here: its window runs, Redis answered lately, and more than LOCAL_HEADROOM hits are left. */
function roomy(w: Window, limit: number, now: number): boolean {
  return w.resetAt > now && now - w.heardAt <= FRESH_MS && w.shared + w.sending + w.unsent + 1 + LOCAL_HEADROOM <= limit;
}

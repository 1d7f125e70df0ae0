/**
 * Fixed-window counting per key in this instance's memory, for limits on the visitor plane that
 * must cost no round trip (a beacon is answered without waiting on Redis or the database). Memory
 * is bounded: at most `maxKeys` windows; when that many are kept the oldest go, down to nine
 * tenths of it — ended ones, then, under a flood of new keys, the oldest running ones (which start
 * again from zero: lenient, never wrong the other way). Ended windows also go every tenth of a
 * window. Both in one pass now and then, not a step per new key: V8 walks a Map from its front,
 * past the holes its deletions left there, so evicting one key per new key cost a walk over up to
 * a third of a full map (10 µs a beacon from new visitors, measured). With several instances each
 * counts alone, so a visitor spread over n instances by the load balancer gets up to n times the limit.
 */
export class WindowLimiter {
  /** Insertion order is start order (a window that starts again is moved to the end): ended windows are always at the front. */
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  /** The time source; tests move it instead of waiting. */
  now: () => number = Date.now;
  private nextSweepAt = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys: number,
  ) {}

  /** Counts a hit on `key`; false once the key has had `limit` hits in its window. */
  hit(key: string): boolean {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      if (window) this.windows.delete(key);
      if (this.windows.size >= this.maxKeys || now >= this.nextSweepAt) this.makeRoom(now);
      window = { count: 0, endsAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    return window.count <= this.limit;
  }

  /** How many windows are kept (for tests). */
  get size(): number {
    return this.windows.size;
  }

  /** Ended windows go (they are at the front); when full, running ones too, oldest first, down to nine tenths of `maxKeys`. */
  private makeRoom(now: number): void {
    this.nextSweepAt = now + this.windowMs / 10;
    const keep = this.windows.size >= this.maxKeys ? Math.floor(this.maxKeys * 0.9) : Infinity;
    for (const [key, window] of this.windows) {
      if (window.endsAt > now && this.windows.size <= keep) return;
      this.windows.delete(key);
    }
  }
}

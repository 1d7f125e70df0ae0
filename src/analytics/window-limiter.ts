/**
 * Fixed-window counting per key in this instance's memory, for limits on the visitor plane that
 * must cost no round trip (a beacon is answered without waiting on Redis or the database). Memory
 * is bounded: at most `maxKeys` windows; past that the oldest go first — ended ones, then, under a
 * flood of new keys, the oldest running ones (which start again from zero: lenient, never wrong
 * the other way). With several instances each counts alone, so a visitor spread over n instances
 * by the load balancer gets up to n times the limit.
 */
export class WindowLimiter {
  /** Insertion order is start order (a window that starts again is moved to the end): ended windows are always at the front. */
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  /** The time source; tests move it instead of waiting. */
  now: () => number = Date.now;

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
      this.windows.delete(key);
      this.makeRoom(now);
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

  private makeRoom(now: number): void {
    for (const [key, window] of this.windows) {
      if (window.endsAt > now && this.windows.size < this.maxKeys) return;
      this.windows.delete(key);
    }
  }
}

/** Buckets of start times a flood's eviction sorts running windows into (it drops the oldest buckets first). */
const AGE_BUCKETS = 64;
/** Slots a limiter starts with; it doubles them when three quarters are taken, up to its most. */
const FIRST_SLOTS = 1024;

/**
 * Fixed-window counting per key in this instance's memory, for limits on the visitor plane that
 * must cost no round trip (a beacon is answered without waiting on Redis or the database). Keys are
 * numbers from 1 to 2^52 − 1 (a salted hash's bits, see DaySalt.limitKey), kept in typed arrays
 * (open addressing, linear probing): a hit allocates nothing and leaves the garbage collector nothing
 * to trace, where a Map of objects grew the old generation by a window per new visitor. The arrays
 * grow with the keys, to 17 bytes a slot and at most a power of two of slots at least 1.25 times
 * `maxKeys` (2.2 MB for 100,000). A new key takes the slot of an ended window on its way, else a free
 * one; when `maxKeys` slots are taken, the table is rebuilt without its ended windows and, under a
 * flood of new keys, without the oldest running ones, down to nine tenths of `maxKeys` (they start
 * again from zero: lenient, never wrong the other way). With several instances each counts alone,
 * so a visitor spread over n instances by the load balancer gets up to n times the limit.
 */
export class WindowLimiter {
  /** The time source; tests move it instead of waiting. */
  now: () => number = Date.now;
  private readonly maxSlots: number;
  private mask: number;
  private keys: Float64Array;
  private ends: Float64Array;
  private counts: Uint8Array;
  /** Slots holding a key, its window running or ended. */
  private taken = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys: number,
  ) {
    if (limit >= 0xff) throw new Error('WindowLimiter counts up to 254 hits a window');
    this.maxSlots = 2 ** Math.ceil(Math.log2(Math.max(2, Math.ceil(maxKeys * 1.25))));
    const slots = Math.min(FIRST_SLOTS, this.maxSlots);
    this.mask = slots - 1;
    this.keys = new Float64Array(slots);
    this.ends = new Float64Array(slots);
    this.counts = new Uint8Array(slots);
  }

  /** Counts a hit on `key`; false once the key has had `limit` hits in its window. */
  hit(key: number): boolean {
    const now = this.now();
    const { keys, ends, counts, mask } = this;
    let slot = key & mask; // (the key's low bits: a hash's, spread evenly)
    let ended = -1;
    for (let k = keys[slot]; k !== 0; slot = (slot + 1) & mask, k = keys[slot]) {
      if (k === key) {
        if (ends[slot] <= now) this.start(slot, key, now);
        else if (counts[slot] <= this.limit) counts[slot]++; // stops one past the limit
        return counts[slot] <= this.limit;
      }
      if (ended < 0 && ends[slot] <= now) ended = slot;
    }
    if (ended < 0) {
      if (this.taken >= this.maxKeys || (this.taken >= keys.length * 0.75 && keys.length < this.maxSlots)) {
        this.rebuild(now);
        return this.hit(key);
      }
      ended = slot;
      this.taken++;
    }
    this.start(ended, key, now);
    return counts[ended] <= this.limit;
  }

  /** How many windows are kept, running or ended (for tests). */
  get size(): number {
    return this.taken;
  }

  /** The hits `key` has in its running window, 0 when it has none (for tests: reads without counting). */
  hitsOf(key: number): number {
    const now = this.now();
    for (let slot = key & this.mask; this.keys[slot] !== 0; slot = (slot + 1) & this.mask)
      if (this.keys[slot] === key) return this.ends[slot] > now ? this.counts[slot] : 0;
    return 0;
  }

  /** How many slots the arrays hold now (for tests). */
  get slots(): number {
    return this.keys.length;
  }

  /** The longest run of taken slots, which a probe may have to walk (for tests). */
  get longestRun(): number {
    let longest = 0;
    for (let slot = 0, run = 0; slot < this.keys.length; slot++) longest = Math.max(longest, (run = this.keys[slot] === 0 ? 0 : run + 1));
    return longest;
  }

  private start(slot: number, key: number, now: number): void {
    this.keys[slot] = key;
    this.ends[slot] = now + this.windowMs;
    this.counts[slot] = 1;
  }

  /**
   * The running windows copied into new arrays: twice as many slots while they fill more than half
   * of these and the most is not reached. When `maxKeys` are taken, the oldest go, down to nine tenths
   * of it (by buckets of start times, the last bucket in part, spread over the table).
   */
  private rebuild(now: number): void {
    const { keys, ends, counts } = this;
    const bucketOf = (end: number) => Math.min(AGE_BUCKETS - 1, Math.floor(((end - now) * AGE_BUCKETS) / this.windowMs));
    const perBucket = new Array<number>(AGE_BUCKETS).fill(0);
    for (let slot = 0; slot < keys.length; slot++) if (keys[slot] !== 0 && ends[slot] > now) perBucket[bucketOf(ends[slot])]++;
    const running = perBucket.reduce((sum, n) => sum + n, 0);
    // The newest buckets while they fit in `keep`, and of the next one (`partial`) as many as still fit.
    const keep = this.taken >= this.maxKeys ? Math.floor(this.maxKeys * 0.9) : Infinity;
    let oldestKept = AGE_BUCKETS;
    let kept = 0;
    while (oldestKept > 0 && kept + perBucket[oldestKept - 1] <= keep) kept += perBucket[--oldestKept];
    const partial = oldestKept - 1;
    // Of the partial bucket, an even share across the table: keeping the first ones in slot order
    // would pack the table's low slots into one long run that every probe then walks.
    const partialRoom = keep - kept;
    let partialCredit = 0;

    const slots = running * 2 > keys.length ? Math.min(this.maxSlots, keys.length * 2) : keys.length;
    this.mask = slots - 1;
    this.keys = new Float64Array(slots);
    this.ends = new Float64Array(slots);
    this.counts = new Uint8Array(slots);
    this.taken = 0;
    for (let slot = 0; slot < keys.length; slot++) {
      if (keys[slot] === 0 || ends[slot] <= now) continue;
      const bucket = bucketOf(ends[slot]);
      if (bucket < oldestKept) {
        if (bucket !== partial || (partialCredit += partialRoom) < perBucket[partial]) continue;
        partialCredit -= perBucket[partial];
      }
      let to = keys[slot] & this.mask;
      while (this.keys[to] !== 0) to = (to + 1) & this.mask;
      this.keys[to] = keys[slot];
      this.ends[to] = ends[slot];
      this.counts[to] = counts[slot];
      this.taken++;
    }
  }
}

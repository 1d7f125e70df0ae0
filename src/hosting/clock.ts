/** What the clock needs of an entry: its size, and whether it was read since the hand last passed. */
export interface ClockEntry {
  bytes: number;
  used: boolean;
}

/**
 * Entries within a byte limit, evicted by the clock algorithm: a read only marks its entry used (no
 * reordering on the hot path), and eviction walks from the oldest, giving each used entry a second
 * chance. The memory tier and the disk tier of the file cache share it.
 */
export class Clock<E extends ClockEntry> {
  private readonly entries = new Map<string, E>();
  private total = 0;

  constructor(private readonly limitBytes: number) {}

  get(key: string): E | undefined {
    const entry = this.entries.get(key);
    if (entry) entry.used = true;
    return entry;
  }

  /** Whether `entry` is the one kept under `key` (an evicted one is not). */
  holds(key: string, entry: E): boolean {
    return this.entries.get(key) === entry;
  }

  /** Takes an entry out (one whose bytes are gone). */
  drop(key: string, entry: E): void {
    if (this.entries.get(key) !== entry) return;
    this.entries.delete(key);
    this.total -= entry.bytes;
  }

  /** Adds an entry (used), and answers what it pushed out. */
  add(key: string, entry: E): E[] {
    this.entries.set(key, entry);
    this.total += entry.bytes;
    return this.evict();
  }

  /** An entry kept grew (a copy added to it): answers what that pushed out. */
  grew(bytes: number): E[] {
    this.total += bytes;
    return this.evict();
  }

  get size(): { files: number; bytes: number } {
    return { files: this.entries.size, bytes: this.total };
  }

  /** From the oldest, a used entry goes to the back unused, an unused one goes. */
  private evict(): E[] {
    const evicted: E[] = [];
    while (this.total > this.limitBytes && this.entries.size > 0) {
      const [key, entry] = this.entries.entries().next().value!;
      this.entries.delete(key);
      if (entry.used) {
        entry.used = false;
        this.entries.set(key, entry);
      } else {
        this.total -= entry.bytes;
        evicted.push(entry);
      }
    }
    return evicted;
  }
}

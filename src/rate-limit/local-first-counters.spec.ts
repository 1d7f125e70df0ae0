import { setTimeout as sleep } from 'node:timers/promises';
import { FRESH_MS, LOCAL_HEADROOM, LocalFirstCounters, SYNC_MS } from './local-first-counters.js';
import type { Add, Count } from './rate-counters.js';

/** Redis' side of the counting (what the Lua script does), with the round trips it was asked for. */
class SharedStore {
  readonly calls: Add[][] = [];
  private readonly counts = new Map<string, { count: number; resetAt: number }>();

  async addAll(adds: Add[]): Promise<Count[]> {
    this.calls.push(adds);
    const now = Date.now();
    return adds.map(({ key, ttlMs, hits }) => {
      let c = this.counts.get(key);
      if (!c || c.resetAt <= now) this.counts.set(key, (c = { count: 0, resetAt: now + ttlMs }));
      c.count += hits;
      return { count: c.count, resetMs: c.resetAt - now };
    });
  }

  countOf(key: string): number {
    return this.counts.get(key)?.count ?? 0;
  }
}

const hit = (limit: number, ttlMs = 60_000) => ({ key: 'acct:a', limit, ttlMs });
const countsOf = async (counters: LocalFirstCounters, n: number, limit: number, ttlMs?: number) => {
  const counts: number[] = [];
  for (let i = 0; i < n; i++) counts.push((await counters.hitAll([hit(limit, ttlMs)]))[0].count);
  return counts;
};

describe('LocalFirstCounters', () => {
  it('sends every hit of a bucket with a small limit to the shared store, as before', async () => {
    const store = new SharedStore();
    const counters = new LocalFirstCounters(store);
    expect(await countsOf(counters, 5, LOCAL_HEADROOM)).toEqual([1, 2, 3, 4, 5]);
    expect(store.calls.map((c) => c.map((a) => a.hits))).toEqual([[1], [1], [1], [1], [1]]);
  });

  it('counts a roomy bucket here after its first hit, exactly, and sends the hits together within SYNC_MS', async () => {
    const store = new SharedStore();
    const counters = new LocalFirstCounters(store);
    expect(await countsOf(counters, 50, 1_000_000)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(store.calls).toHaveLength(1); // the window's first hit
    await sleep(SYNC_MS * 2);
    expect(store.calls.map((c) => c.map((a) => a.hits))).toEqual([[1], [49]]);
    expect(store.countOf('acct:a')).toBe(50);
  });

  it('goes back to one round trip per hit within LOCAL_HEADROOM of the limit, sending what waits with it: the limit is exact', async () => {
    const store = new SharedStore();
    const counters = new LocalFirstCounters(store);
    const limit = LOCAL_HEADROOM + 10;
    const counts = await countsOf(counters, limit + 1, limit);
    expect(counts).toEqual(Array.from({ length: limit + 1 }, (_, i) => i + 1));
    // The first hit, then the nine counted here go with the tenth; from there on every hit is sent.
    expect(store.calls.slice(0, 2).map((c) => c[0].hits)).toEqual([1, 10]);
    expect(store.calls.slice(2).every((c) => c[0].hits === 1)).toBe(true);
    expect(store.countOf('acct:a')).toBe(limit + 1);
  });

  it('two instances share the count: a count older than FRESH_MS is asked for again, and near the limit every hit is sent', async () => {
    const store = new SharedStore();
    const [a, b] = [new LocalFirstCounters(store), new LocalFirstCounters(store)];
    const limit = LOCAL_HEADROOM + 100;
    await countsOf(a, 60, limit);
    await countsOf(b, 30, limit);
    await sleep(FRESH_MS * 2); // both have sent their hits, and what a heard back is older than FRESH_MS
    expect(store.countOf('acct:a')).toBe(90);
    // a last heard 61 (its own sync came before b's): too old now, so its next hit goes to the store and sees b's too.
    const calls = store.calls.length;
    expect((await a.hitAll([hit(limit)]))[0].count).toBe(91);
    expect(store.calls.length).toBe(calls + 1);
    // Past limit - LOCAL_HEADROOM every hit is sent, so the instances agree on the last ones exactly.
    const rest = await countsOf(b, limit - 91 + 1, limit);
    expect(rest.at(-1)).toBe(limit + 1);
  });

  it('drops the unsent hits of a window that has ended rather than count them in the next one', async () => {
    const store = new SharedStore();
    const counters = new LocalFirstCounters(store);
    await countsOf(counters, 20, 1_000_000, 60); // a 60 ms window: it ends before its 19 local hits are sent
    await sleep(SYNC_MS * 2);
    expect(store.countOf('acct:a')).toBe(1);
    expect(store.calls).toHaveLength(1);
    expect((await counters.hitAll([hit(1_000_000)]))[0].count).toBe(1);
  });

  it('answers the store’s error for a hit it sends (the caller falls back), and keeps counting after', async () => {
    const store = new SharedStore();
    const counters = new LocalFirstCounters(store);
    const addAll = store.addAll.bind(store);
    store.addAll = () => Promise.reject(new Error('Redis is down'));
    await expect(counters.hitAll([hit(1_000_000)])).rejects.toThrow('Redis is down');
    store.addAll = addAll;
    expect(await countsOf(counters, 3, 1_000_000)).toEqual([1, 2, 3]);
  });

  it('at close sends what waits and makes no round trip after: no timer outlives the app', async () => {
    const store = new SharedStore();
    const counters = new LocalFirstCounters(store);
    await countsOf(counters, 10, 1_000_000);
    await counters.close();
    expect(store.calls.map((c) => c.map((a) => a.hits))).toEqual([[1], [9]]);
    await countsOf(counters, 3, 1_000_000); // a request the server was still finishing
    await sleep(SYNC_MS * 2);
    expect(store.calls).toHaveLength(2);
  });
});

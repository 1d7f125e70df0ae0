import { WindowLimiter } from './window-limiter.js';

describe('WindowLimiter', () => {
  const limiter = (limit: number, maxKeys = 100) => {
    const l = new WindowLimiter(limit, 60_000, maxKeys);
    let now = 0;
    l.now = () => now;
    return { l, advance: (ms: number) => (now += ms) };
  };
  /** Keys as DaySalt.limitKey gives them: large numbers whose low bits pick the slot. */
  const key = (n: number) => n * 0x1_0000_0000 + ((n * 2654435761) >>> 0) + 1;

  it('lets `limit` hits through per key and window, then refuses until the window ends', () => {
    const { l, advance } = limiter(3);
    expect([1, 2, 3, 4, 5].map(() => l.hit(key(1)))).toEqual([true, true, true, false, false]);
    expect(l.hit(key(2))).toBe(true);
    advance(59_999);
    expect(l.hit(key(1))).toBe(false);
    advance(1);
    expect(l.hit(key(1))).toBe(true);
  });

  it('keeps counting keys that share a slot apart, and refuses forever past the limit (no count wraps)', () => {
    const { l } = limiter(2, 4);
    // Same low 32 bits: the same first slot, told apart by the rest.
    const [a, b] = [0x1_0000_0005, 0x2_0000_0005];
    expect([l.hit(a), l.hit(b), l.hit(a), l.hit(b), l.hit(a)]).toEqual([true, true, true, true, false]);
    for (let i = 0; i < 300; i++) l.hit(b);
    expect(l.hit(b)).toBe(false);
    expect(l.size).toBe(2);
  });

  it('gives a new key the slot of an ended window, so ended windows do not fill the table', () => {
    const { l, advance } = limiter(1, 8);
    for (let i = 0; i < 8; i++) l.hit(key(i));
    expect(l.size).toBe(8);
    advance(60_000); // every window has ended
    for (let i = 100; i < 108; i++) expect(l.hit(key(i))).toBe(true);
    expect(l.size).toBe(8);
    expect(l.hit(key(0))).toBe(true); // its window had ended: counts from zero
  });

  it('when full of running windows, drops the oldest, down to nine tenths, and counts the rest on', () => {
    const { l, advance } = limiter(1, 100);
    for (let i = 0; i < 50; i++) l.hit(key(i)); // the oldest, at 0 s
    advance(30_000);
    for (let i = 50; i < 100; i++) l.hit(key(i)); // at 30 s
    expect(l.size).toBe(100);
    l.hit(key(1000)); // full: a rebuild keeps the 50 started at 30 s and 40 of the 50 older ones (90), then takes the new one
    expect(l.size).toBe(91);
    const kept = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => l.hitsOf(key(from + i))).filter((hits) => hits > 0).length;
    expect(kept(50, 100)).toBe(50); // all kept
    expect(kept(0, 50)).toBe(40); // 10 dropped: they would count again from zero
    expect(l.hit(key(99))).toBe(false); // a kept one is still over its limit
    advance(1_000);
    for (let i = 0; i < 10_000; i++) l.hit(key(2000 + i)); // a flood of new keys, all in the same second
    expect(l.size).toBeLessThanOrEqual(100);
    expect(l.size).toBeGreaterThanOrEqual(90); // down to nine tenths at each rebuild, never emptied
    expect(l.hit(key(2000 + 9999))).toBe(false); // the newest is kept
  });

  it('grows its arrays with the keys it holds, to at most the power of two above 1.25 times maxKeys', () => {
    const { l, advance } = limiter(1, 100_000);
    expect(l.slots).toBe(1024);
    for (let i = 0; i < 5_000; i++) l.hit(key(i));
    expect(l.slots).toBe(8192); // doubled each time three quarters were taken
    expect(l.size).toBe(5_000);
    expect(l.hit(key(4_999))).toBe(false); // every window kept through the copies
    for (let i = 5_000; i < 300_000; i++) l.hit(key(i));
    expect(l.slots).toBe(131_072);
    expect(l.size).toBeLessThanOrEqual(100_000);
    // Rebuilds under a flood keep windows spread over the table: keeping the first ones in slot order
    // packed its low slots into one run that every new key walked (seconds for this loop).
    expect(l.longestRun).toBeLessThan(64);
    advance(60_000); // all ended: a new key reuses a slot, the arrays stay as they are
    l.hit(key(1));
    expect(l.slots).toBe(131_072);
  });
});

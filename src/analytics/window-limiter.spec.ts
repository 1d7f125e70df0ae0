import { WindowLimiter } from './window-limiter.js';

describe('WindowLimiter', () => {
  const limiter = (limit: number, maxKeys = 100) => {
    const l = new WindowLimiter(limit, 60_000, maxKeys);
    let now = 0;
    l.now = () => now;
    return { l, advance: (ms: number) => (now += ms) };
  };

  it('lets `limit` hits through per key and window, then refuses until the window ends', () => {
    const { l, advance } = limiter(3);
    expect([1, 2, 3, 4, 5].map(() => l.hit('a'))).toEqual([true, true, true, false, false]);
    expect(l.hit('b')).toBe(true);
    advance(59_999);
    expect(l.hit('a')).toBe(false);
    advance(1);
    expect(l.hit('a')).toBe(true);
  });

  it('keeps at most maxKeys windows: ended ones go first, then the oldest', () => {
    const { l, advance } = limiter(1, 3);
    l.hit('a');
    advance(30_000);
    l.hit('b');
    l.hit('c');
    advance(30_000); // a has ended
    l.hit('d');
    expect(l.size).toBe(3);
    expect(l.hit('b')).toBe(false); // b's window is still running
    l.hit('e'); // full of running windows: the oldest (b) goes
    expect(l.size).toBe(3);
    expect(l.hit('b')).toBe(true);
    for (let i = 0; i < 10_000; i++) l.hit(`flood-${i}`);
    expect(l.size).toBe(3);
  });

  it('evicts in one pass, down to nine tenths when full, and sweeps ended windows every tenth of a window', () => {
    const { l, advance } = limiter(1, 100);
    for (let i = 0; i < 100; i++) l.hit(`k${i}`);
    expect(l.size).toBe(100);
    l.hit('new'); // full: the 10 oldest go at once, then the new one is kept
    expect(l.size).toBe(91);
    expect(l.hit('k9')).toBe(true); // evicted: counts again from zero
    expect(l.hit('k10')).toBe(false); // kept
    advance(60_000); // every window has ended
    l.hit('late');
    expect(l.size).toBe(1);
  });
});

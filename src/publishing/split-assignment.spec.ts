import { sharedHeaders } from '../hosting/raw-headers.js';
import { bucketOf, pickVariant, privateCacheControl, servedSplit, underSplitHeaders } from './split-assignment.js';

describe('split assignment', () => {
  it('spreads visitor ids evenly over 100 buckets, the same id always in the same one, another test another draw', () => {
    const counts = new Array<number>(100).fill(0);
    let moved = 0;
    for (let i = 0; i < 100_000; i++) {
      const id = String(BigInt.asIntN(64, BigInt(i) * 0x9e3779b97f4a7c15n));
      const bucket = bucketOf('spl_one', id);
      expect(bucketOf('spl_one', id)).toBe(bucket);
      if (bucketOf('spl_two', id) !== bucket) moved++;
      counts[bucket]++;
    }
    // Binomial(100 000, 1/100) per bucket: mean 1 000, sd 31.5; five sd.
    expect(Math.min(...counts)).toBeGreaterThan(1000 - 160);
    expect(Math.max(...counts)).toBeLessThan(1000 + 160);
    expect(moved).toBeGreaterThan(95_000);
  });

  it('picks the variant whose cumulative weight holds the bucket', () => {
    const split = servedSplit(
      'spl_w',
      [10, 20, 70].map((weight, i) => ({ deploymentId: `dep_${i}`, weight })),
      ['a', 'b', 'c'],
    );
    expect(split.bounds).toEqual([10, 30, 100]);
    const tally: Record<string, number> = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 20_000; i++) tally[pickVariant(split, String(i * 2654435761))]++;
    expect(tally.a / 20_000).toBeCloseTo(0.1, 1);
    expect(tally.b / 20_000).toBeCloseTo(0.2, 1);
    expect(tally.c / 20_000).toBeCloseTo(0.7, 1);
  });

  it('makes answers private to the browser and varying by User-Agent, shared headers as a shared copy', () => {
    expect(privateCacheControl('public, max-age=0, s-maxage=60')).toBe('private, max-age=0');
    expect(privateCacheControl('public, max-age=31536000, immutable')).toBe('private, max-age=31536000, immutable');
    expect(privateCacheControl(undefined)).toBe('private');
    const shared = sharedHeaders({ 'cache-control': 'public, max-age=3600', vary: 'Accept-Encoding', etag: '"x"' });
    const copy = underSplitHeaders(shared);
    expect(copy).toEqual({ 'cache-control': 'private, max-age=3600', vary: 'Accept-Encoding, User-Agent', etag: '"x"' });
    expect(shared['cache-control']).toBe('public, max-age=3600'); // untouched: other answers share it
    expect(underSplitHeaders(shared)).toBe(copy);
    expect(Object.isFrozen(copy)).toBe(true);
    const once: Record<string, string> = { 'cache-control': 'no-store', vary: 'user-agent' };
    expect(underSplitHeaders(once)).toBe(once);
    expect(once).toEqual({ 'cache-control': 'private, no-store', vary: 'user-agent' });
  });
});

import { normalCdf, splitResults } from './split-statistics.js';

describe('split statistics', () => {
  it('is the standard normal CDF to well under four decimals', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1)).toBeCloseTo(0.841345, 5);
    expect(normalCdf(-1.96)).toBeCloseTo(0.024998, 5);
    expect(normalCdf(3)).toBeCloseTo(0.99865, 5);
  });

  it('compares each variant with the first by the pooled two-proportion z-test', () => {
    const variants = [
      { deploymentId: 'dep_a', weight: 50 },
      { deploymentId: 'dep_b', weight: 30 },
      { deploymentId: 'dep_c', weight: 20 },
    ];
    const [a, b, c] = splitResults(variants, [
      { visitors: 1000, signups: 50 },
      { visitors: 1000, signups: 70 },
      { visitors: 0, signups: 0 },
    ]);
    expect(a).toEqual({ deploymentId: 'dep_a', weight: 50, visitors: 1000, signups: 50, conversionRate: 5, chanceToBeatFirst: null });
    // p = 0.06, se = √(0.06·0.94·0.002) = 0.010621, z = 0.02 / se = 1.8831 → Φ = 0.9702
    expect(b.conversionRate).toBe(7);
    expect(b.chanceToBeatFirst).toBe(0.9702);
    expect(c).toMatchObject({ conversionRate: 0, chanceToBeatFirst: null });
  });

  it('answers null, not one half, when nothing tells the variants apart: no sign-ups at all, all signed up, no visitors', () => {
    const variants = [
      { deploymentId: 'dep_a', weight: 40 },
      { deploymentId: 'dep_b', weight: 30 },
      { deploymentId: 'dep_c', weight: 30 },
    ];
    const chances = (counts: Array<[number, number]>) =>
      splitResults(
        variants,
        counts.map(([visitors, signups]) => ({ visitors, signups })),
      ).map((v) => v.chanceToBeatFirst);
    expect(
      chances([
        [10, 0],
        [12, 0],
        [3, 0],
      ]),
    ).toEqual([null, null, null]);
    expect(
      chances([
        [4, 4],
        [5, 5],
        [1, 1],
      ]),
    ).toEqual([null, null, null]);
    expect(
      chances([
        [0, 0],
        [12, 3],
        [5, 1],
      ]),
    ).toEqual([null, null, null]);
    // One variant without sign-ups beside one with some: computable (the pooled rate is above 0).
    expect(
      chances([
        [10, 0],
        [10, 2],
        [0, 0],
      ]),
    ).toEqual([null, expect.any(Number), null]);
  });
});

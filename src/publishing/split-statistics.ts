import type { SplitVariant } from './split.repository.js';

export interface VariantCounts {
  visitors: number;
  signups: number;
}

export interface VariantResults extends SplitVariant, VariantCounts {
  conversionRate: number;
  chanceToBeatFirst: number | null;
}

/**
 * Each variant's conversion and its chance to beat the first: the two-proportion z-test with the pooled rate,
 * z = (p_i − p_1) / √(p(1 − p)(1/n_1 + 1/n_i)), and Φ(z), the standard normal CDF (one-sided). Null for the first
 * variant and whenever z cannot be computed: either has no visitors, or the pooled rate is 0 or 1 (no sign-ups at
 * all, or everybody signed up) — a 50 % there would read as a measured coin toss where nothing was measured.
 */
export function splitResults(variants: SplitVariant[], counts: VariantCounts[]): VariantResults[] {
  const first = counts[0];
  return variants.map((variant, i) => {
    const { visitors, signups } = counts[i];
    return {
      ...variant,
      visitors,
      signups,
      conversionRate: visitors === 0 ? 0 : Math.round((signups / visitors) * 1000) / 10,
      chanceToBeatFirst: i === 0 ? null : chanceToBeat(first, counts[i]),
    };
  });
}

function chanceToBeat(first: VariantCounts, other: VariantCounts): number | null {
  if (first.visitors === 0 || other.visitors === 0) return null;
  // Sign-ups without a counted visit (a form posted by a script) cannot make a rate above 1.
  const p1 = Math.min(1, first.signups / first.visitors);
  const p2 = Math.min(1, other.signups / other.visitors);
  const pooled = Math.min(1, (first.signups + other.signups) / (first.visitors + other.visitors));
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / first.visitors + 1 / other.visitors));
  if (se === 0) return null;
  return Math.round(normalCdf((p2 - p1) / se) * 10_000) / 10_000;
}

/** Φ(z) through erf (Abramowitz & Stegun 7.1.26: absolute error below 1.5e-7, far under the four decimals shown). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

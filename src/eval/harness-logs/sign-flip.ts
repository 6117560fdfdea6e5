/**
 * The paired sign-flip test over items' pass-rate differences d_i = rate_cand - rate_base,
 * one-sided toward improvement: p = P(T* >= T), T = sum d_i, T* = sum s_i |d_i| with
 * independent fair signs s_i. With one run per side every nonzero |d_i| is 1 and this is
 * exactly the gate's McNemar sign test, P(X >= gains), X ~ Bin(gains + regressions, 1/2):
 * that case is computed by the same BigInt binomial tail, so the two agree to the bit.
 *
 * Exact otherwise when the differences are integers in a small unit (1 / lcm of the run
 * counts): dynamic programming over the distribution of the positive part, in BigInt counts
 * while that is cheap, else in doubles with a rigorous upper bound. When that unit or that
 * range is too large (run counts differing from item to item without a small common
 * multiple), a seeded Monte Carlo estimate with its 99% error bound.
 *
 * `compared` is what the gate's rule tests against alpha: the exact p (binomial, BigInt DP,
 * and Monte Carlo's (hits + 1) / (draws + 1)), or the floating DP's upper bound, so rounding
 * can turn a PASS into a HOLD but never a HOLD into a PASS.
 */
import { dyadicToNumber, signTest } from '../math/binomial.js';
import { doubleValue, ratio, type Rational } from '../math/exact.js';

export interface ItemRates {
  basePasses: number;
  baseRuns: number;
  candPasses: number;
  candRuns: number;
}

export interface SignFlipResult {
  method: 'exact-binomial' | 'exact-dp' | 'monte-carlo';
  /** Items whose pass rates differ (the others carry no sign information). */
  discordant: number;
  /** sum of the differences, in items (a rate difference of 1 counts 1). */
  statistic: number;
  p_one_sided: number;
  p_two_sided: number;
  /** Floating DP only: the upper bound of p that the gate compares (p_one_sided is computed). */
  p_one_sided_upper_bound?: number;
  /** Monte Carlo only. */
  draws?: number;
  seed?: number;
  error_bound_99?: number;
}

/** The result, and the rational the gate compares with alpha (not part of the receipt). */
export type SignFlipOutcome = SignFlipResult & { compared: Rational };

const MAX_UNIT = 5040;
/** Cells x steps of the DP; beyond it Monte Carlo (about a second of work at worst). */
const MAX_DP_WORK = 400_000_000;
/** Up to this many cells x steps the DP counts sign patterns in BigInt: p exact. */
const EXACT_DP_WORK = 2_000_000;
const MC_WORK = 60_000_000;
const MC_MIN_DRAWS = 20_000;
const MC_MAX_DRAWS = 200_000;

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}
const lcm = (a: number, b: number): number => (a / gcd(a, b)) * b;

export function signFlipTest(items: readonly ItemRates[], seed = 1): SignFlipOutcome {
  let unit = 1;
  for (const it of items) {
    unit = lcm(unit, lcm(it.baseRuns, it.candRuns));
    if (unit > MAX_UNIT) break;
  }
  if (unit <= MAX_UNIT) {
    const diffs: number[] = [];
    for (const it of items) {
      const d = it.candPasses * (unit / it.candRuns) - it.basePasses * (unit / it.baseRuns);
      if (d !== 0) diffs.push(d);
    }
    const statistic = diffs.reduce((a, b) => a + b, 0) / unit;
    const mags = new Set(diffs.map(Math.abs));
    if (mags.size <= 1) {
      // One magnitude: T* = v (2X - m); the gate's exact binomial tail.
      const gains = diffs.filter((d) => d > 0).length;
      const t = signTest(gains, diffs.length - gains);
      return {
        method: 'exact-binomial',
        discordant: diffs.length,
        statistic: Number(statistic.toPrecision(12)),
        p_one_sided: t.p_one_sided,
        p_two_sided: t.p_two_sided,
        compared: t.p_one_exact,
      };
    }
    const range = diffs.reduce((a, d) => a + Math.abs(d), 0);
    if (diffs.length * range <= EXACT_DP_WORK) return bigintDp(diffs, range, statistic);
    if (diffs.length * range <= MAX_DP_WORK) return floatDp(diffs, range, statistic);
  }
  return monteCarlo(items, seed);
}

/** count[s] = sign patterns whose + signs carry |d| summing to s; p = count(S >= s_obs) / 2^m. */
export function bigintDp(diffs: number[], range: number, statistic: number): SignFlipOutcome {
  const count = new Array<bigint>(range + 1).fill(0n);
  count[0] = 1n;
  let top = 0;
  for (const d of diffs) {
    const v = Math.abs(d);
    for (let s = top + v; s >= v; s--) count[s]! += count[s - v]!;
    top += v;
  }
  const positive = diffs.reduce((a, d) => a + (d > 0 ? d : 0), 0);
  let upper = 0n;
  let lower = 0n;
  for (let s = 0; s <= range; s++) {
    if (s >= positive) upper += count[s]!;
    if (s <= positive) lower += count[s]!;
  }
  const m = diffs.length;
  const pUp = dyadicToNumber(upper, m);
  return {
    method: 'exact-dp',
    discordant: m,
    statistic: Number(statistic.toPrecision(12)),
    p_one_sided: pUp,
    p_two_sided: Math.min(1, 2 * Math.min(pUp, dyadicToNumber(lower, m))),
    compared: { num: upper, den: 1n << BigInt(m) },
  };
}

/** dist[s] = P(sum of the |d| given a + sign = s); p = P(S >= s_obs). */
export function floatDp(diffs: number[], range: number, statistic: number): SignFlipOutcome {
  const dist = new Float64Array(range + 1);
  dist[0] = 1;
  let top = 0;
  for (const d of diffs) {
    const v = Math.abs(d);
    // Downwards, so dist[s - v] is still the previous step's (cells above top are 0).
    for (let s = top + v; s >= 0; s--) dist[s] = 0.5 * (dist[s]! + (s >= v ? dist[s - v]! : 0));
    top += v;
  }
  // T = 2 S - range, so T* >= T  <=>  S >= (T + range) / 2 (an integer: T + range = 2 sum of the positive d).
  const positive = diffs.reduce((a, d) => a + (d > 0 ? d : 0), 0);
  let upper = 0;
  let lower = 0;
  for (let s = 0; s <= range; s++) {
    if (s >= positive) upper += dist[s]!;
    if (s <= positive) lower += dist[s]!;
  }
  // Every cell is a sum of non-negative terms: after m halvings-of-sums and a sum of range + 1
  // cells its relative error is below (m + range) u (u = 2^-53), plus at most 2^-1075 absolute
  // per step where values fall below the normal range. Doubling both (2^-52, 2^-1074 per cell
  // and step) also covers this bound's own few roundings.
  const m = diffs.length;
  const bound = Math.min(
    1,
    (upper + (range + 1) * (m + 1) * Number.MIN_VALUE) * (1 + (m + range + 8) * 2 ** -52),
  );
  return {
    method: 'exact-dp',
    discordant: m,
    statistic: Number(statistic.toPrecision(12)),
    p_one_sided: Math.min(1, upper),
    p_two_sided: Math.min(1, 2 * Math.min(upper, lower)),
    p_one_sided_upper_bound: bound,
    compared: doubleValue(bound),
  };
}

/** sfc32: a small seeded generator; the same seed gives the same p on any machine. */
function sfc32(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 15; i++) next();
  return next;
}

function monteCarlo(items: readonly ItemRates[], seed: number): SignFlipOutcome {
  const mags: number[] = [];
  let statistic = 0;
  for (const it of items) {
    const d = it.candPasses / it.candRuns - it.basePasses / it.baseRuns;
    if (d !== 0) {
      mags.push(Math.abs(d));
      statistic += d;
    }
  }
  const draws = Math.max(
    MC_MIN_DRAWS,
    Math.min(MC_MAX_DRAWS, Math.floor(MC_WORK / Math.max(1, mags.length))),
  );
  const next = sfc32(seed);
  // Ties within float noise of the observed sum count as reaching it.
  const eps = 1e-9 * Math.max(1, mags.length);
  let upper = 0;
  let lower = 0;
  for (let r = 0; r < draws; r++) {
    let t = 0;
    let bits = 0;
    let left = 0;
    for (let i = 0; i < mags.length; i++) {
      if (left === 0) {
        bits = next();
        left = 32;
      }
      t += bits & 1 ? mags[i]! : -mags[i]!;
      bits >>>= 1;
      left--;
    }
    if (t >= statistic - eps) upper++;
    if (t <= statistic + eps) lower++;
  }
  // The observed signs are one of the sign patterns: (hits + 1) / (draws + 1) is a valid p.
  const pUp = (upper + 1) / (draws + 1);
  const pLow = (lower + 1) / (draws + 1);
  const bound = 2.5758293035489 * Math.sqrt((pUp * (1 - pUp)) / draws);
  return {
    method: 'monte-carlo',
    discordant: mags.length,
    statistic: Number(statistic.toPrecision(12)),
    p_one_sided: Number(pUp.toPrecision(12)),
    p_two_sided: Number(Math.min(1, 2 * Math.min(pUp, pLow)).toPrecision(12)),
    draws,
    seed,
    error_bound_99: Number(bound.toPrecision(6)),
    compared: ratio(upper + 1, draws + 1),
  };
}

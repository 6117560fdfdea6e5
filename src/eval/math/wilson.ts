/**
 * Wilson score interval for a binomial proportion (95% by default). The bounds a receipt shows
 * are rounded to 12 significant digits; a rule that tests a bound uses wilsonLowAbove, exact.
 */
import { decimalValue, type Rational } from './exact.js';

export const Z_95 = 1.959963984540054;
// Z_95 as the decimal it prints as, squared exactly, once: wilsonLowAbove runs per item.
const { num: Z_NUM, den: Z_DEN } = decimalValue(Z_95);
const Z2_NUM = Z_NUM * Z_NUM;
const Z2_DEN = Z_DEN * Z_DEN;

export interface Proportion {
  successes: number;
  trials: number;
  rate: number | null;
  wilson_low: number | null;
  wilson_high: number | null;
}

/** Results of the string round trip, by input; receipts repeat the same rates thousands of times. */
const rounded = new Map<number, number>();
const MAX_MEMO = 65_536;

/** Rounded to 12 significant digits so receipts do not carry last-bit float noise. */
export function round12(x: number): number {
  if (x === 0) return 0;
  // An integer of at most 12 digits is its own rounding; skip the string round trip.
  if (Number.isInteger(x) && x < 1e12 && x > -1e12) return x;
  let r = rounded.get(x);
  if (r === undefined) {
    r = Number(x.toPrecision(12));
    if (rounded.size >= MAX_MEMO) rounded.clear();
    rounded.set(x, r);
  }
  return r;
}

export function wilson(successes: number, trials: number, z = Z_95): Proportion {
  // Keys in canonical (UTF-16) order: receipts hold thousands of these, and sealing then copies none.
  if (trials === 0) return { rate: null, successes, trials, wilson_high: null, wilson_low: null };
  const p = successes / trials;
  const z2 = z * z;
  const denom = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denom;
  // At the edges the bound is exactly 0 or 1; floating point would leave 5.5e-17 behind.
  const low = successes === 0 ? 0 : round12(Math.max(0, centre - half));
  const high = successes === trials ? 1 : round12(Math.min(1, centre + half));
  return { rate: round12(p), successes, trials, wilson_high: high, wilson_low: low };
}

/**
 * Whether the Wilson lower bound of successes / trials is above t, decided exactly. The
 * interval is the set of p with (p̂ - p)^2 <= z^2 p (1 - p) / trials, so for t = a/b below
 * p̂ = x/n the bound is above t iff (x b - a n)^2 > z^2 a (b - a) n; z is the decimal
 * 1.959963984540054 (Z_95 as printed), squared exactly.
 */
export function wilsonLowAbove(successes: number, trials: number, t: Rational): boolean {
  if (trials === 0) return false;
  const x = BigInt(successes);
  const n = BigInt(trials);
  const { num: a, den: b } = t;
  if (x * b <= a * n) return false; // t >= p̂: the bound is at most p̂
  if (a < 0n) return true; // the bound is never below 0
  const gap = x * b - a * n;
  return gap * gap * Z2_DEN > Z2_NUM * a * (b - a) * n;
}

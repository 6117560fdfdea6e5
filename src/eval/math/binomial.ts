/**
 * Exact binomial tails for p = 1/2 (the sign test). Sums of binomial coefficients are
 * computed in BigInt and divided by 2^n only at the end, so the results are exact dyadic
 * rationals rounded once to the nearest double: no normal approximation, no log-space drift.
 * Verdicts compare the exact rational (upperTailExact), never the rounded double.
 */
import type { Rational } from './exact.js';

/** Sum of C(n, k) for k in [lo, hi] (inclusive), exactly. */
export function binomialCoefficientSum(n: number, lo: number, hi: number): bigint {
  lo = Math.max(0, lo);
  hi = Math.min(n, hi);
  if (lo > hi) return 0n;
  const N = BigInt(n);
  // Walk from the cheaper end: C(n, lo) grows from C(n, 0) = 1 in lo steps, C(n, hi) from
  // C(n, n) = 1 in n - hi steps. Then accumulate across the range.
  let c: bigint;
  let sum = 0n;
  if (lo <= n - hi) {
    c = 1n;
    for (let k = 0; k < lo; k++) c = (c * (N - BigInt(k))) / BigInt(k + 1);
    for (let k = lo; k <= hi; k++) {
      sum += c;
      c = (c * (N - BigInt(k))) / BigInt(k + 1);
    }
  } else {
    c = 1n;
    for (let k = n; k > hi; k--) c = (c * BigInt(k)) / (N - BigInt(k) + 1n);
    for (let k = hi; k >= lo; k--) {
      sum += c;
      c = (c * BigInt(k)) / (N - BigInt(k) + 1n);
    }
  }
  return sum;
}

/** numerator / 2^n as the nearest double (exact when representable). */
export function dyadicToNumber(numerator: bigint, n: number): number {
  if (numerator === 0n) return 0;
  const bits = numerator.toString(2).length;
  // Below 2^-1075 every value rounds to 0; skip the scaling loop for absurd exponents.
  if (bits - n < -1080) return 0;
  // Keep 64 significant bits plus a sticky bit so the final Number() rounds correctly.
  const shift = Math.max(0, bits - 64);
  let mantissa = numerator >> BigInt(shift);
  if (shift > 0 && mantissa << BigInt(shift) !== numerator) mantissa |= 1n;
  let value = Number(mantissa);
  let exponent = shift - n;
  // Scale in steps so intermediate powers of two never overflow or underflow early.
  while (exponent < -1000) {
    value *= 2 ** -1000;
    exponent += 1000;
  }
  while (exponent > 1000) {
    value *= 2 ** 1000;
    exponent -= 1000;
  }
  return value * 2 ** exponent;
}

/** 2^n P(X >= k) for X ~ Binomial(n, 1/2): the tail's exact numerator over 2^n. */
export function upperTailNumerator(n: number, k: number): bigint {
  if (k <= 0) return 1n << BigInt(Math.max(0, n));
  if (k > n) return 0n;
  // The shorter of the two sums is cheaper; the complement stays exact in BigInt.
  if (n - k + 1 <= k) return binomialCoefficientSum(n, k, n);
  return (1n << BigInt(n)) - binomialCoefficientSum(n, 0, k - 1);
}

/** P(X >= k) for X ~ Binomial(n, 1/2), exactly, as a rational. */
export function upperTailExact(n: number, k: number): Rational {
  return { num: upperTailNumerator(n, k), den: 1n << BigInt(Math.max(0, n)) };
}

/** P(X >= k) for X ~ Binomial(n, 1/2), the nearest double. */
export function upperTail(n: number, k: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  return dyadicToNumber(upperTailNumerator(n, k), n);
}

/**
 * ln P(X >= k) for X ~ Binomial(n, 1/2), in floating point (relative error around 1e-12).
 * Cost grows with n - k, not n, so it stays cheap for huge n with few failures; used where
 * exact BigInt sums would be too slow (searching over hypothetical gains).
 */
export function logUpperTail(n: number, k: number): number {
  if (k <= 0) return 0;
  if (k > n) return -Infinity;
  // Terms C(n, i) for i = n down to k, from ln C(n, n) = 0 by ln C(n, i-1) = ln C(n, i) + ln i - ln(n-i+1).
  const logs: number[] = [];
  let logC = 0;
  let max = -Infinity;
  for (let i = n; i >= k; i--) {
    logs.push(logC);
    if (logC > max) max = logC;
    logC += Math.log(i) - Math.log(n - i + 1);
  }
  let sum = 0;
  for (const l of logs) sum += Math.exp(l - max);
  return max + Math.log(sum) - n * Math.LN2;
}

/** P(X <= k) for X ~ Binomial(n, 1/2). */
export function lowerTail(n: number, k: number): number {
  return upperTail(n, n - k);
}

export interface SignTest {
  discordant: number;
  /** The nearest double to p_one_exact: what receipts show. */
  p_one_sided: number;
  p_two_sided: number;
  /** What the gate compares with alpha. */
  p_one_exact: Rational;
}

/**
 * Exact sign test on the discordant pairs (McNemar's exact test). One-sided: the chance of
 * at least `gains` gains if gains and regressions were equally likely. Two-sided: twice the
 * smaller tail, capped at 1.
 */
export function signTest(gains: number, regressions: number): SignTest {
  const n = gains + regressions;
  const exact = upperTailExact(n, gains);
  const pOne = dyadicToNumber(exact.num, n);
  const pTwo = n === 0 ? 1 : Math.min(1, 2 * Math.min(pOne, lowerTail(n, gains)));
  return { discordant: n, p_one_sided: pOne, p_two_sided: pTwo, p_one_exact: exact };
}

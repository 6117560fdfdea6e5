/**
 * Turns a harness's score value into pass/fail. A number read from a log and the threshold are
 * both doubles, and comparing two doubles is comparing the decimals they print as; a mean the
 * reader computes (HELM's sum / count) is compared as that fraction, before any rounding.
 */
import { invalidInput } from '../../core/errors.js';
import { atLeast, decimalValue, doubleValue, ratio, type Rational } from '../math/exact.js';

// Sound: q = sum / count is one rounding (|sum/count - q| < 2^-52 |q| while q is normal) and the threshold's double is its decimal's nearest (|T - t| <= 2^-53 max(|t|, 2^-1022)), so the exact gap differs from q - t by under 2^-51 max(|q|, |t|) and one over 2^-50 cannot close.
const BAND = 2 ** -50;
const MIN_NORMAL = 2 ** -1022;

/**
 * sum / count >= threshold, exactly (sum and count as the doubles the log holds; count > 0). The
 * threshold's fraction is built once per read; the division decides unless it lands in the band.
 */
export function meanPassesAgainst(threshold: number): (sum: number, count: number) => boolean {
  const exactThreshold = decimalValue(threshold);
  return (sum, count) => {
    const q = sum / count;
    if (Number.isFinite(q) && Math.abs(q) >= MIN_NORMAL) {
      const gap = q - threshold;
      if (Math.abs(gap) > BAND * Math.max(Math.abs(q), Math.abs(threshold))) return gap > 0;
    }
    return exactMeanPasses(sum, count, exactThreshold);
  };
}

/** The exact comparison alone (the fallback, and what the fast path is tested against). */
export function exactMeanPasses(sum: number, count: number, threshold: Rational): boolean {
  const s = doubleValue(sum);
  const c = doubleValue(count);
  return atLeast(ratio(s.num * c.den, s.den * c.num), threshold);
}

/**
 * Inspect's letter values (src/inspect_ai/scorer/_metric.py: CORRECT "C", INCORRECT "I",
 * PARTIAL "P", NOANSWER "N"; value_to_float maps them to 1, 0, 0.5, 0), booleans, and numbers
 * (pass when >= threshold). Anything else is a 400 naming the value and where it was.
 */
export function passes(value: unknown, threshold: number, where: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value >= threshold;
  if (typeof value === 'string') {
    switch (value.trim().toUpperCase()) {
      case 'C':
      case 'TRUE':
      case 'YES':
        return true;
      case 'I':
      case 'N':
      case 'FALSE':
      case 'NO':
        return false;
      case 'P':
        return 0.5 >= threshold;
    }
    const n = Number(value);
    if (value.trim() !== '' && Number.isFinite(n)) return n >= threshold;
  }
  throw invalidInput(
    `${where}: score value ${JSON.stringify(value)?.slice(0, 80)} is not a pass/fail value (C/I/P/N, a boolean or a number).`,
  );
}

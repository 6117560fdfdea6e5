/**
 * Exact rationals for the comparisons that decide verdicts (docs/verdict-thresholds.md). A
 * threshold sent as a JSON number is taken as the decimal the receipt prints for it (its
 * shortest round-trip text: 0.05 is 5/100, not the double nearest it), and a quantity that is a
 * ratio of counts is compared by cross-multiplication, never after a division or a rounding.
 */

/** num / den with den > 0. */
export interface Rational {
  num: bigint;
  den: bigint;
}

export function ratio(num: number | bigint, den: number | bigint = 1n): Rational {
  const n = BigInt(num);
  const d = BigInt(den);
  if (d === 0n) throw new RangeError('a rational needs a non-zero denominator');
  return d < 0n ? { num: -n, den: -d } : { num: n, den: d };
}

// Digits, an optional fraction and an optional exponent: String(x) of a finite number, linear.
const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/** The decimal a finite number prints as: String(0.05) is "0.05", so 5/100 exactly. */
export function decimalValue(x: number): Rational {
  const m = NUMBER_TEXT.exec(String(x));
  if (!m) throw new RangeError(`not a finite number: ${String(x)}`);
  const fraction = m[3] ?? '';
  const exponent = Number(m[4] ?? '0') - fraction.length;
  let num = BigInt(m[2]! + fraction);
  if (m[1] === '-') num = -num;
  return exponent >= 0
    ? { num: num * 10n ** BigInt(exponent), den: 1n }
    : { num, den: 10n ** BigInt(-exponent) };
}

/** The exact value of a double (every finite double is a dyadic rational). */
export function doubleValue(x: number): Rational {
  if (!Number.isFinite(x)) throw new RangeError(`not a finite number: ${String(x)}`);
  if (x === 0) return { num: 0n, den: 1n };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  // value = mantissa * 2^(e - 1075) for normal numbers, mantissa * 2^-1074 for subnormal ones.
  let exponent = (biased === 0 ? 1 : biased) - 1075;
  let m = mantissa;
  // In lowest terms: the denominator is a power of two, so move the mantissa's factors of 2.
  while ((m & 1n) === 0n && exponent < 0) {
    m >>= 1n;
    exponent++;
  }
  const num = negative ? -m : m;
  return exponent >= 0 ? { num: num << BigInt(exponent), den: 1n } : { num, den: 1n << BigInt(-exponent) };
}

/** -1, 0 or 1 as a is below, equal to or above b. */
export function compareRationals(a: Rational, b: Rational): -1 | 0 | 1 {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
}

export const atMost = (a: Rational, b: Rational): boolean => compareRationals(a, b) <= 0;
export const atLeast = (a: Rational, b: Rational): boolean => compareRationals(a, b) >= 0;
export const above = (a: Rational, b: Rational): boolean => compareRationals(a, b) > 0;

/** floor(num / den * 10^digits) / 10^digits: a figure shown rounded toward zero never overstates. */
export function floorDecimal(r: Rational, digits: number): number {
  const scale = 10n ** BigInt(digits);
  const scaled = r.num * scale;
  let q = scaled / r.den;
  if (scaled < 0n && q * r.den !== scaled) q -= 1n;
  return Number(q) / Number(scale);
}

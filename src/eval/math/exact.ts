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

// One DataView for reading a double's bits (the module is synchronous, so sharing it is safe).
const BITS = new DataView(new ArrayBuffer(8));

/** Trailing zero bits of a non-zero 32-bit word. */
const trailingZeros = (word: number): number => 31 - Math.clz32(word & -word);

/** The exact value of a double (every finite double is a dyadic rational). */
export function doubleValue(x: number): Rational {
  if (!Number.isFinite(x)) throw new RangeError(`not a finite number: ${String(x)}`);
  if (x === 0) return { num: 0n, den: 1n };
  BITS.setFloat64(0, x);
  const high = BITS.getUint32(0);
  const low = BITS.getUint32(4);
  const biased = (high >>> 20) & 0x7ff;
  // The mantissa's top 21 bits (with the implicit 1 of a normal number) and its low 32 bits.
  const top = (high & 0xfffff) | (biased === 0 ? 0 : 0x100000);
  // value = mantissa * 2^(e - 1075) for normal numbers, mantissa * 2^-1074 for subnormal ones.
  let exponent = (biased === 0 ? 1 : biased) - 1075;
  // In lowest terms: the denominator is a power of two, so move the mantissa's factors of 2 at once.
  const shift = Math.max(0, Math.min(low !== 0 ? trailingZeros(low) : 32 + trailingZeros(top), -exponent));
  exponent += shift;
  // top * 2^32 + low < 2^53 and dividing it by 2^shift is exact, so a Number holds it.
  const m = BigInt((top * 2 ** 32 + low) / 2 ** shift);
  const num = high >>> 31 === 1 ? -m : m;
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

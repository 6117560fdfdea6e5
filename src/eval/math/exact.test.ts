import { describe, expect, it } from 'vitest';
import {
  above,
  atLeast,
  atMost,
  compareRationals,
  decimalValue,
  doubleValue,
  floorDecimal,
  ratio,
} from './exact.js';

describe('exact rationals', () => {
  it('reads a number as the decimal it prints', () => {
    expect(decimalValue(0.05)).toEqual({ num: 5n, den: 100n });
    expect(decimalValue(1)).toEqual({ num: 1n, den: 1n });
    expect(decimalValue(1e-7)).toEqual({ num: 1n, den: 10_000_000n });
    expect(decimalValue(1.5e21)).toEqual({ num: 1_500_000_000_000_000_000_000n, den: 1n });
    expect(decimalValue(-0.125)).toEqual({ num: -125n, den: 1000n });
    expect(() => decimalValue(Number.NaN)).toThrow(RangeError);
  });

  it('gives the exact value of a double', () => {
    expect(doubleValue(0.5)).toEqual({ num: 1n, den: 2n });
    expect(doubleValue(3)).toEqual({ num: 3n, den: 1n });
    // The double nearest 0.05 lies above 5/100, by about 2.8e-18.
    expect(above(doubleValue(0.05), decimalValue(0.05))).toBe(true);
    expect(doubleValue(5e-324)).toEqual({ num: 1n, den: 1n << 1074n });
    expect(doubleValue(-(2 ** 60))).toEqual({ num: -(1n << 60n), den: 1n });
  });

  it('compares by cross-multiplication', () => {
    expect(compareRationals(ratio(282, 5644), ratio(1, 20))).toBe(-1);
    expect(compareRationals(ratio(306, 6120), ratio(1, 20))).toBe(0);
    expect(compareRationals(ratio(283, 5644), ratio(1, 20))).toBe(1);
    expect(atMost(ratio(1, 3), ratio(2, 6))).toBe(true);
    expect(atLeast(ratio(-1, -3), ratio(1, 3))).toBe(true);
    expect(() => ratio(1, 0)).toThrow(RangeError);
  });

  it('rounds a shown figure down, never up to a threshold it misses', () => {
    expect(floorDecimal(ratio(282, 5644), 4)).toBe(0.0499);
    expect(floorDecimal(ratio(306, 6120), 4)).toBe(0.05);
    expect(floorDecimal(ratio(-1, 3), 2)).toBe(-0.34);
  });
});

describe('doubleValue in lowest terms', () => {
  it('gives num / den equal to the double, den a power of two and num odd unless den is 1', () => {
    const xs = [
      1,
      2,
      0.75,
      1.5e300,
      2 ** 52 + 1,
      2 ** 53,
      3 * 2 ** -1074,
      2 ** -1073,
      2 ** -1022,
      0.1,
      -0.375,
    ];
    for (const x of xs) {
      const { num, den } = doubleValue(x);
      expect(den & (den - 1n)).toBe(0n);
      if (den > 1n) expect(num & 1n).toBe(1n);
      if (den <= 1n << 1000n) expect(Number(num) / Number(den)).toBe(x);
    }
    expect(doubleValue(3 * 2 ** -1074)).toEqual({ num: 3n, den: 1n << 1074n });
    expect(doubleValue(2 ** -1073)).toEqual({ num: 1n, den: 1n << 1073n });
    expect(doubleValue(0.75)).toEqual({ num: 3n, den: 4n });
    expect(doubleValue(2 ** 53 + 2)).toEqual({ num: 2n ** 53n + 2n, den: 1n });
  });
});

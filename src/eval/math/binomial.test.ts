import { describe, expect, it } from 'vitest';
import { binomialCoefficientSum, dyadicToNumber, logUpperTail, signTest, upperTail } from './binomial.js';

describe('exact sign test', () => {
  it.each([
    [5, 0, 0.03125],
    [4, 0, 0.0625],
    [8, 2, 0.0546875],
    [15, 5, 0.020694732666015625],
    [1, 10, 0.99951171875],
    [6, 0, 0.015625],
  ])('gains %i, regressions %i -> one-sided p = %f exactly', (g, r, p) => {
    expect(signTest(g, r).p_one_sided).toBe(p);
  });

  it('reports the two-sided p beside the one-sided one (1 gain, 10 regressions)', () => {
    const t = signTest(1, 10);
    expect(t.p_two_sided).toBe(0.01171875);
    expect(t.p_one_sided).toBe(0.99951171875);
  });

  it('matches 300 gains / 240 regressions within 1e-12', () => {
    expect(Math.abs(signTest(300, 240).p_one_sided - 0.005525240540965004)).toBeLessThan(1e-12);
  });

  it('has p = 1 with no discordant pairs and caps the two-sided p at 1', () => {
    expect(signTest(0, 0)).toEqual({
      discordant: 0,
      p_one_sided: 1,
      p_two_sided: 1,
      p_one_exact: { num: 1n, den: 1n },
    });
    expect(signTest(3, 3).p_two_sided).toBe(1);
  });

  it('sums binomial coefficients exactly from either end', () => {
    expect(binomialCoefficientSum(10, 0, 10)).toBe(1024n);
    expect(binomialCoefficientSum(10, 3, 3)).toBe(120n);
    expect(binomialCoefficientSum(10, 8, 10)).toBe(45n + 10n + 1n);
    expect(binomialCoefficientSum(60, 0, 59)).toBe((1n << 60n) - 1n);
  });

  it('keeps tiny tails instead of flushing them to zero', () => {
    expect(upperTail(2000, 2000)).toBe(0); // 2^-2000 is below the smallest double
    expect(upperTail(1000, 1000)).toBe(2 ** -1000);
    expect(dyadicToNumber(3n, 2)).toBe(0.75);
  });

  it('agrees with a direct float sum on moderate n', () => {
    for (const [g, r] of [
      [30, 12],
      [7, 9],
      [50, 50],
    ] as const) {
      const n = g + r;
      let c = 1;
      let sum = 0;
      for (let k = 0; k <= n; k++) {
        if (k >= g) sum += c;
        c = (c * (n - k)) / (k + 1);
      }
      expect(upperTail(n, g)).toBeCloseTo(sum / 2 ** n, 14);
    }
  });
});

describe('log-space upper tail', () => {
  it('agrees with the exact tail to about 1e-12 relative', () => {
    for (const [n, k] of [
      [11, 1],
      [20, 15],
      [540, 300],
      [5000, 2600],
      [1000, 990],
      [3000, 10],
    ] as const) {
      const exact = upperTail(n, k);
      expect(Math.abs(Math.exp(logUpperTail(n, k)) - exact) / exact).toBeLessThan(1e-11);
    }
    expect(logUpperTail(10, 0)).toBe(0);
    expect(logUpperTail(10, 11)).toBe(-Infinity);
  });

  it('stays finite where the probability underflows a double', () => {
    expect(logUpperTail(5000, 5000)).toBeCloseTo(-5000 * Math.LN2, 6);
  });
});

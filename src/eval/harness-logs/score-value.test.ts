import { describe, expect, it } from 'vitest';
import { decimalValue } from '../math/exact.js';
import { lcg } from '../math/lcg.testing.js';
import { exactMeanPasses, meanPassesAgainst } from './score-value.js';

/** The double `steps` ulps above (or below, when negative) x. */
function ulpsAway(x: number, steps: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigInt64(0, view.getBigInt64(0) + BigInt(x < 0 ? -steps : steps));
  return view.getFloat64(0);
}

describe('HELM sum / count against a threshold', () => {
  // The band is sound when the fast path agrees with the exact comparison everywhere near the edge.
  it('decides as the exact comparison does, on thresholds within a few ulps of the double quotient', () => {
    const rand = lcg(39);
    const cases: [number, number][] = [
      [7, 30],
      [1, 3],
      [2, 3],
      [0.1, 0.3],
      [5e-324, 1],
      [1e-310, 3],
      [2 ** -1000, 3],
      [1e308, 0.5],
      [-7, 30],
      [0, 5],
    ];
    for (let i = 0; i < 300; i++) {
      const count = 1 + Math.floor(rand() * 1000);
      cases.push([Math.floor(rand() * (count + 1)) * (rand() < 0.5 ? 1 : 0.1), count]);
    }
    let checked = 0;
    for (const [sum, count] of cases) {
      const q = sum / count;
      const thresholds = [0, 0.5, 1, -1, 5e-324, 1e-310, 2 ** -1022];
      if (Number.isFinite(q)) {
        for (let k = -6; k <= 6; k++) thresholds.push(ulpsAway(q, k));
        thresholds.push(Number(q.toPrecision(15)), Number(q.toPrecision(16)), Number(q.toPrecision(17)));
        thresholds.push(q * (1 + 2 ** -49), q * (1 - 2 ** -49), q * (1 + 2 ** -51), q * (1 - 2 ** -51));
      }
      for (const t of thresholds.filter(Number.isFinite)) {
        expect([sum, count, t, meanPassesAgainst(t)(sum, count)]).toEqual([
          sum,
          count,
          t,
          exactMeanPasses(sum, count, decimalValue(t)),
        ]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5000);
  });

  it('falls back to the exact fraction where the division rounds across the threshold', () => {
    // 7/30 rounds up to 0.23333333333333334, which lies above the fraction.
    expect(meanPassesAgainst(0.23333333333333334)(7, 30)).toBe(false);
    expect(meanPassesAgainst(0.2333333333333333)(7, 30)).toBe(true);
    expect(meanPassesAgainst(0.7)(7, 10)).toBe(true);
    expect(meanPassesAgainst(0.7000000000000001)(7, 10)).toBe(false);
  });
});

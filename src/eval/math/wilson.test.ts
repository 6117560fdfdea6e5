import { describe, expect, it } from 'vitest';
import { lcg } from './lcg.testing.js';
import { round12, wilson, wilsonLowAbove } from './wilson.js';

const reference = (x: number): number => Number(x.toPrecision(12));

describe('round12', () => {
  it('equals the string round trip on rates, integers at the 12-digit edge, negatives and specials', () => {
    const rnd = lcg(7);
    const values = [
      1 / 3,
      2 / 3,
      0.1 + 0.2,
      999_999_999_999,
      1e12,
      1e12 + 1,
      123_456_789_012_345,
      -999_999_999_999,
      -1e12 - 1,
      -1 / 7,
      1e-300,
      Number.MAX_VALUE,
      Number.MIN_VALUE,
      Infinity,
      -Infinity,
    ];
    for (let i = 0; i < 5000; i++) values.push(Math.floor(rnd() * 50) / Math.ceil(rnd() * 50 + 1));
    for (let i = 0; i < 2000; i++) values.push((rnd() - 0.5) * 10 ** Math.floor(rnd() * 40 - 20));
    // Twice: the second pass is answered from the memo.
    for (const pass of [1, 2])
      for (const x of values) expect(round12(x), `pass ${pass}: ${x}`).toBe(reference(x));
    expect(Number.isNaN(round12(NaN))).toBe(true);
    expect(Object.is(round12(-0), 0)).toBe(true); // as the round trip: "0.00000000000" is +0
  });

  it('rounds the interval bounds wilson reports', () => {
    const p = wilson(1, 3);
    expect(p.rate).toBe(reference(1 / 3));
    expect(p.wilson_low).toBe(round12(p.wilson_low!));
  });
});

describe('wilsonLowAbove: the lower bound against a threshold, exactly', () => {
  const tenth = { num: 1n, den: 10n };
  it('agrees with the floating bound wherever that is not within 1e-9 of the threshold', () => {
    for (let n = 1; n <= 300; n++)
      for (let x = 0; x <= n; x++) {
        const low = wilson(x, n).wilson_low!;
        if (Math.abs(low - 0.1) > 1e-9) expect(wilsonLowAbove(x, n, tenth)).toBe(low > 0.1);
      }
  });
  it('turns between 15 and 16 of 100 (bounds 0.0931 and 0.10095) and is never above p̂', () => {
    expect(wilsonLowAbove(15, 100, tenth)).toBe(false);
    expect(wilsonLowAbove(16, 100, tenth)).toBe(true);
    expect(wilsonLowAbove(1, 10, tenth)).toBe(false);
    expect(wilsonLowAbove(0, 0, tenth)).toBe(false);
    expect(wilsonLowAbove(1, 1, { num: 0n, den: 1n })).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { wilson } from '../../math/wilson.js';
import {
  classifyItem,
  DISCRIMINATION_THRESHOLD,
  FLAKY_FLIP_RATE_THRESHOLD,
  FLAKY_MIN_FLIPS,
} from './classify.js';
import type { ItemObservation } from './observe.js';
import { observe } from './observe.js';
import { emptyCounts, readiness } from './readiness.js';

/** Builds an observation from "system:TFT" strings through the real history reader. */
function item(...specs: string[]): ItemObservation {
  const history = specs.flatMap((spec) => {
    const [system, results] = spec.split(':') as [string, string];
    return [...results].map((r) => ({ item_id: 'x', system, passed: r === 'T' }));
  });
  return observe({ history }).observations[0]!;
}

describe('classifyItem', () => {
  it('counts flips between consecutive runs of the same system, not across systems', () => {
    // Interleaved rows: a runs T,T,T and b runs F,F,F; no system ever changes its result.
    const obs = observe({
      history: [
        { item_id: 'x', system: 'a', passed: true },
        { item_id: 'x', system: 'b', passed: false },
        { item_id: 'x', system: 'a', passed: true },
        { item_id: 'x', system: 'b', passed: false },
      ],
    }).observations[0]!;
    const f = classifyItem(obs);
    expect(f.systems.map((s) => s.flips)).toEqual([0, 0]);
    expect(f.item_class).toBe('discriminating');
  });

  it('does not call one disagreement flaky (the reference did)', () => {
    const f = classifyItem(item('a:TF', 'b:TT'));
    expect(f.systems[0]!.flips).toBe(1);
    expect(f.item_class).not.toBe('flaky');
    expect(f.reasons.join(' ')).toMatch(/below the flakiness bar/);
  });

  it('does not call one flip in many runs flaky, nor two flips in twenty', () => {
    expect(classifyItem(item('a:TTTTTTTTTTTTTTTTTTTF', 'b:FFFFF')).item_class).toBe('discriminating');
    expect(classifyItem(item('a:TTTTTTTTFTTTTTTTTTTT', 'b:FFFFF')).item_class).toBe('discriminating');
  });

  it('calls a system that keeps flipping flaky, by the stated rule', () => {
    const f = classifyItem(item('a:TFT', 'b:TTT'));
    const bound = wilson(2, 2).wilson_low!;
    expect(bound).toBeGreaterThan(FLAKY_FLIP_RATE_THRESHOLD);
    expect(2).toBeGreaterThanOrEqual(FLAKY_MIN_FLIPS);
    expect(f.item_class).toBe('flaky');
    expect(f.systems[0]!.flip_rate_wilson_low).toBe(bound);
  });

  it('applies the Wilson lower bound, not the point estimate: 5 flips in 19 pairs is flaky, 4 is not', () => {
    // 4/19 = 0.21 looks high but its 95% lower bound is below 0.1; 5/19 clears it.
    expect(wilson(4, 19).wilson_low!).toBeLessThan(FLAKY_FLIP_RATE_THRESHOLD);
    expect(wilson(5, 19).wilson_low!).toBeGreaterThan(FLAKY_FLIP_RATE_THRESHOLD);
    expect(classifyItem(item('a:TFTFTTTTTTTTTTTTTTTT', 'b:TTTTT')).systems[0]!.flips).toBe(4);
    expect(classifyItem(item('a:FTFTFTTTTTTTTTTTTTTT', 'b:TTTTT')).systems[0]!.flips).toBe(5);
    expect(classifyItem(item('a:TFTFTTTTTTTTTTTTTTTT', 'b:TTTTT')).item_class).toBe('flat');
    expect(classifyItem(item('a:FTFTFTTTTTTTTTTTTTTT', 'b:TTTTT')).item_class).toBe('flaky');
  });

  it('checks classes in the stated order', () => {
    // One flapping system is under-observed first.
    expect(classifyItem(item('a:TFTFTF')).item_class).toBe('under_observed');
    expect(classifyItem(item('a:TT', 'b:T', 'c:TTT')).item_class).toBe('saturated');
    expect(classifyItem(item('a:FF', 'b:F')).item_class).toBe('too_hard');
    // Flaky wins over discriminating.
    expect(classifyItem(item('a:TFTF', 'b:FFFF')).item_class).toBe('flaky');
    expect(classifyItem(item('a:TT', 'b:FF')).item_class).toBe('discriminating');
    expect(classifyItem(item('a:TF', 'b:FT')).item_class).toBe('flat');
  });

  it('splits discriminating from flat at the stated spread', () => {
    expect(DISCRIMINATION_THRESHOLD).toBe(0.5);
    expect(classifyItem(item('a:TT', 'b:TF')).item_class).toBe('discriminating'); // 1 - 0.5
    expect(classifyItem(item('a:TTTT', 'b:TTTF')).item_class).toBe('flat'); // 1 - 0.75
  });

  it('reports pass rates, pooled flip rate, discrimination and utility = discrimination x (1 - flip rate)', () => {
    const f = classifyItem(item('a:FFFTTT', 'b:TTT'));
    expect(f.runs).toBe(9);
    expect(f.pass_rate).toEqual(wilson(6, 9));
    expect(f.flip_rate).toEqual(wilson(1, 7));
    expect(f.discrimination).toBe(0.5);
    expect(f.utility).toBeCloseTo(0.5 * (1 - 1 / 7), 12);
    expect(f.systems.map((s) => [s.system, s.pass_rate])).toEqual([
      ['a', 0.5],
      ['b', 1],
    ]);
  });

  it('has no figures for an unmeasured item', () => {
    const f = classifyItem({ item_id: 'x', domain: undefined, declared: true, systems: new Map() });
    expect(f.item_class).toBe('unmeasured');
    expect(f.discrimination).toBeNull();
    expect(f.utility).toBeNull();
    expect(f.pass_rate.rate).toBeNull();
  });
});

describe('thresholds are compared exactly', () => {
  const runs = (passes: number, total: number): string => 'T'.repeat(passes) + 'F'.repeat(total - passes);
  /** Alternating results, then the last one repeated: `flips` flips in `transitions` pairs. */
  const flipping = (flips: number, transitions: number): string =>
    Array.from({ length: transitions + 1 }, (_, i) => (Math.min(i, flips) % 2 === 0 ? 'T' : 'F')).join('');

  // Pass rates as fractions: 7/10 - 2/10 is 0.49999999999999994 in doubles, exactly 0.5 here.
  it.each([
    [runs(699, 1000), runs(2, 10), 'flat'], // 0.499
    [runs(7, 10), runs(2, 10), 'discriminating'], // exactly 0.5
    [runs(701, 1000), runs(2, 10), 'discriminating'], // 0.501
  ])('discrimination at the 0.5 edge: %#', (a, b, cls) => {
    expect(classifyItem(item(`a:${a}`, `b:${b}`)).item_class).toBe(cls);
  });

  // 100 consecutive pairs: the 95% lower bound is 0.0931 at 15 flips and 0.10095 at 16.
  it.each([
    [15, 100, false],
    [16, 100, true],
    [1, 1, false], // lower bound 0.21 but a single flip
    [2, 2, true],
  ])('flakiness: %i flips in %i pairs is flaky: %s', (flips, transitions, flaky) => {
    const f = classifyItem(item(`a:${flipping(flips, transitions)}`, 'b:TT'));
    expect(f.systems[0]).toMatchObject({ flips, flaky });
  });
});

describe('reasons print comparisons that are true', () => {
  const runs = (passes: number, total: number): string => 'T'.repeat(passes) + 'F'.repeat(total - passes);
  const flipping = (flips: number, transitions: number): string =>
    Array.from({ length: transitions + 1 }, (_, i) => (Math.min(i, flips) % 2 === 0 ? 'T' : 'F')).join('');

  it('4996/10000 against 0/10 is flat, and its discrimination prints below 0.5', () => {
    const f = classifyItem(item(`a:${runs(4996, 10000)}`, `b:${runs(0, 10)}`));
    expect(f.item_class).toBe('flat');
    expect(f.reasons[0]).toMatch(/: discrimination 0\.4996 < 0\.5$/);
  });

  it('33 flips in 239 pairs is flaky, and its lower bound prints above 0.1', () => {
    const f = classifyItem(item(`a:${flipping(33, 239)}`, 'b:TT'));
    expect(f.item_class).toBe('flaky');
    expect(f.reasons[0]).toMatch(/95% lower bound 0\.10004 > 0\.1\)$/);
  });

  it('16 flips in 100 pairs under an earlier class prints its bound above 0.1; 15 prints it at most 0.1', () => {
    const flaky = classifyItem(item(`a:${flipping(16, 100)}`));
    expect(flaky.reasons.join(' ')).toMatch(/95% lower bound 0\.101 > 0\.1: flaky, but under_observed/);
    const not = classifyItem(item(`a:${flipping(15, 100)}`, 'b:TT'));
    expect(not.reasons.join(' ')).toMatch(/> 0\.1, has 0\.0931\)/);
  });
});

describe('readiness band on the exact index', () => {
  // Every component 1 but discrimination k / n: index = 65 + 35 k / n, READY at 75 (k / n = 2/7).
  const band = (k: number, n: number) =>
    readiness({ ...emptyCounts(), discriminating: k, flat: n - k }, [
      { domain: 'd', items: n, classes: emptyCounts(), mean_utility: 0, frontier_gap: false },
    ]);
  it.each([
    [57, 200, 74.9, 'NEEDS_WORK'], // 74.975: one decimal would print 75.0, so the band reads the exact index
    [2, 7, 75, 'READY'], // exactly 75
    [143, 500, 75, 'READY'], // 75.01
    [5, 7, 90, 'READY'],
  ])('discrimination %i / %i: index %s, %s', (k, n, index, status) => {
    expect(band(k, n)).toMatchObject({ index, band: status });
  });
});

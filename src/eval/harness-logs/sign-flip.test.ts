import { describe, expect, it } from 'vitest';
import { compileValidator } from '../../core/validation.js';
import { lcg } from '../math/lcg.testing.js';
import { gateExample } from '../tools/gate/example.js';
import { runGate } from '../tools/gate/gate.js';
import { GateRequest } from '../tools/gate/schema.js';
import { CohortBuilder, type LogCohort } from './cohort.js';
import { runLogsGate } from './logs-gate-decision.js';
import { LogsGateOptions } from './options.js';
import { atLeast, atMost, doubleValue } from '../math/exact.js';
import { bigintDp, floatDp, signFlipTest, type ItemRates } from './sign-flip.js';

const validateGate = compileValidator(GateRequest);
const validateOptions = compileValidator(LogsGateOptions);

function cohortOf(map: Record<string, boolean | boolean[]>): LogCohort {
  const b = new CohortBuilder('t');
  for (const [id, v] of Object.entries(map))
    (Array.isArray(v) ? v : [v]).forEach((passed, i) =>
      b.add(id, i + 1, { passed, errored: false }, null, id),
    );
  return b.finish({
    format: 'cohort-map',
    harness: 'gate cohort',
    harness_version: null,
    task: null,
    model: null,
    measure: null,
  });
}

const side = (map: Record<string, boolean | boolean[]>) => ({
  cohort: cohortOf(map),
  sha256: '0'.repeat(64),
  file: 'f',
});

/** p = P(T* >= T) by listing all 2^m sign patterns, in exact rationals of the runs' lcm. */
function bruteForce(items: ItemRates[]): number {
  const diffs = items
    .map((it) => it.candPasses / it.candRuns - it.basePasses / it.baseRuns)
    .filter((d) => d !== 0);
  const t = diffs.reduce((a, b) => a + b, 0);
  let hits = 0;
  for (let mask = 0; mask < 1 << diffs.length; mask++) {
    let s = 0;
    for (let i = 0; i < diffs.length; i++) s += (mask >> i) & 1 ? Math.abs(diffs[i]!) : -Math.abs(diffs[i]!);
    if (s >= t - 1e-9) hits++;
  }
  return hits / 2 ** diffs.length;
}

describe('one run per side is the gate, exactly', () => {
  it("gives the gate's example its p, verdict and counts", () => {
    const gate = runGate(validateGate.assert(structuredClone(gateExample)));
    const logs = runLogsGate(
      side(gateExample.baseline),
      side(gateExample.candidate),
      validateOptions.assert({ policy: gateExample.policy }),
    );
    expect(logs.summary.p_one_sided).toBe(gate.summary.p_one_sided);
    expect(logs.summary.p_two_sided).toBe(gate.summary.p_two_sided);
    for (const k of [
      'gains',
      'regressions',
      'items',
      'additional_clean_gains_needed',
      'baseline_pass_rate',
      'candidate_pass_rate',
    ])
      expect(logs.summary[k]).toBe(gate.summary[k]);
    expect(logs.verdict).toBe(gate.verdict);
    expect(logs.items.map((i) => [i.item_id, i.decision])).toEqual(
      gate.items.map((i) => [i.item_id, i.decision]),
    );
  });

  it('matches /api/gate on 300 random cohorts', () => {
    const rand = lcg(7);
    for (let trial = 0; trial < 300; trial++) {
      const n = 1 + Math.floor(rand() * 60);
      const pFlip = rand();
      const baseline: Record<string, boolean> = {};
      const candidate: Record<string, boolean> = {};
      for (let i = 0; i < n; i++) {
        baseline[`i${i}`] = rand() < 0.5;
        candidate[`i${i}`] = rand() < pFlip ? !baseline[`i${i}`] : baseline[`i${i}`]!;
      }
      const policy = {
        confidence_alpha: [0.05, 0.01, 0.2][trial % 3]!,
        max_regressions: trial % 4,
        min_gains: 1,
        require_retained_probe: false,
      };
      const gate = runGate(validateGate.assert({ baseline, candidate, policy }));
      const logs = runLogsGate(side(baseline), side(candidate), validateOptions.assert({ policy }));
      expect(logs.summary.p_one_sided).toBe(gate.summary.p_one_sided);
      expect(logs.summary.p_two_sided).toBe(gate.summary.p_two_sided);
      expect(logs.verdict).toBe(gate.verdict);
      expect(logs.summary.additional_clean_gains_needed).toBe(gate.summary.additional_clean_gains_needed);
    }
  });
});

describe('repeated runs', () => {
  it('equals brute-force enumeration on small cohorts with uniform run counts', () => {
    const rand = lcg(11);
    for (let trial = 0; trial < 200; trial++) {
      const nb = 1 + Math.floor(rand() * 5);
      const nc = 1 + Math.floor(rand() * 5);
      const m = 1 + Math.floor(rand() * 14);
      const items: ItemRates[] = Array.from({ length: m }, () => ({
        basePasses: Math.floor(rand() * (nb + 1)),
        baseRuns: nb,
        candPasses: Math.floor(rand() * (nc + 1)),
        candRuns: nc,
      }));
      const r = signFlipTest(items);
      expect(r.method).not.toBe('monte-carlo');
      const exact = bruteForce(items);
      expect(Math.abs(r.p_one_sided - exact)).toBeLessThanOrEqual(1e-12 * Math.max(1, exact));
    }
  });

  it('is exact also when run counts vary but share a small multiple', () => {
    const items: ItemRates[] = [
      { basePasses: 0, baseRuns: 1, candPasses: 4, candRuns: 5 },
      { basePasses: 1, baseRuns: 3, candPasses: 2, candRuns: 2 },
      { basePasses: 2, baseRuns: 2, candPasses: 1, candRuns: 4 },
      { basePasses: 0, baseRuns: 5, candPasses: 3, candRuns: 3 },
    ];
    const r = signFlipTest(items);
    expect(r.method).toBe('exact-dp');
    expect(r.p_one_sided).toBeCloseTo(bruteForce(items), 14);
  });

  it('falls back to a seeded Monte Carlo within its stated error bound', () => {
    const runs = [7, 11, 13, 17, 19, 23];
    const rand = lcg(3);
    const items: ItemRates[] = Array.from({ length: 14 }, (_, i) => {
      const nb = runs[i % runs.length]!;
      const nc = runs[(i + 2) % runs.length]!;
      return {
        basePasses: Math.floor(rand() * (nb + 1)),
        baseRuns: nb,
        candPasses: Math.floor(rand() * (nc + 1)),
        candRuns: nc,
      };
    });
    const r = signFlipTest(items, 42);
    expect(r.method).toBe('monte-carlo');
    expect(r.seed).toBe(42);
    expect(Math.abs(r.p_one_sided - bruteForce(items))).toBeLessThanOrEqual(r.error_bound_99! + 1 / r.draws!);
    expect(signFlipTest(items, 42)).toEqual(r);
  });

  it('defines gains and regressions by majority and lists flaky items apart', () => {
    const baseline = {
      a: [false, false, false],
      b: [true, true, true],
      c: [true, false, true],
      d: [true, true, false],
    };
    const candidate = {
      a: [true, true, false],
      b: [true, false, false],
      c: [true, true, true],
      d: [true, false, true],
    };
    const body = runLogsGate(
      side(baseline),
      side(candidate),
      validateOptions.assert({ policy: { max_regressions: 5 } }),
    );
    expect(body.items.map((i) => [i.item_id, i.decision])).toEqual([
      ['a', 'gain'],
      ['b', 'regression'],
      ['c', 'both_pass'],
      ['d', 'both_pass'],
    ]);
    const flaky = body.result.flaky as { baseline: { item_id: string }[]; candidate: { item_id: string }[] };
    expect(flaky.baseline.map((f) => f.item_id)).toEqual(['c', 'd']);
    expect(flaky.candidate.map((f) => f.item_id)).toEqual(['a', 'b', 'd']);
    // d = 2/3, -2/3, 1/3, 0 -> T = 1/3 (in thirds: 2, -2, 1); patterns with T* >= 1: 4 of 8.
    expect(body.summary.p_one_sided).toBe(0.5);
    expect(body.summary.test_method).toBe('exact-dp');
  });
});

describe('the p the rule compares is exact, or an upper bound', () => {
  const d = {
    a: [false, false, false],
    b: [true, true, true],
    c: [true, false, true],
    d: [true, true, false],
  };
  const c = {
    a: [true, true, false],
    b: [true, false, false],
    c: [true, true, true],
    d: [true, false, true],
  };
  // p = 4/8 exactly (previous test); at, just under and just over it.
  it.each([
    [0.49999, 'HOLD'],
    [0.5, 'PASS'],
    [0.50001, 'PASS'],
  ])('repeated runs, p = 0.5 against alpha %s: %s', (alpha, verdict) => {
    const policy = { confidence_alpha: alpha, max_regressions: 5 };
    expect(runLogsGate(side(d), side(c), validateOptions.assert({ policy })).verdict).toBe(verdict);
  });

  it('holds one run per side when p is above alpha by less than a double can show, as /api/gate does', () => {
    const baseline: Record<string, boolean> = {};
    const candidate: Record<string, boolean> = {};
    for (let i = 0; i < 39; i++) [baseline[`g${i}`], candidate[`g${i}`]] = [false, true];
    for (let i = 0; i < 22; i++) [baseline[`r${i}`], candidate[`r${i}`]] = [true, false];
    const policy = { confidence_alpha: 0.01980850744924984, max_regressions: 30 };
    const logs = runLogsGate(side(baseline), side(candidate), validateOptions.assert({ policy }));
    expect(logs.summary.p_one_sided).toBe(0.01980850744924984);
    expect(logs.verdict).toBe('HOLD');
    expect(runGate(validateGate.assert({ baseline, candidate, policy })).verdict).toBe('HOLD');
  });

  it('counts sign patterns in BigInt: p is the exact rational', () => {
    const r = bigintDp([2, -2, 1], 5, 1 / 3);
    expect(r.compared).toEqual({ num: 4n, den: 8n });
    expect(r.p_one_sided).toBe(0.5);
  });

  it('bounds the floating DP from above, never below, and only just', () => {
    const rand = lcg(5);
    for (let trial = 0; trial < 40; trial++) {
      const m = 20 + Math.floor(rand() * 300);
      const diffs = Array.from({ length: m }, () => (1 + Math.floor(rand() * 12)) * (rand() < 0.55 ? 1 : -1));
      const range = diffs.reduce((a, x) => a + Math.abs(x), 0);
      const exact = bigintDp(diffs, range, 0).compared;
      const float = floatDp(diffs, range, 0);
      expect(atLeast(float.compared, exact)).toBe(true);
      expect(float.compared).toEqual(doubleValue(float.p_one_sided_upper_bound!));
      // The bound is within 1e-9 (relative) of the exact p: it holds only at a hair's breadth.
      expect(
        atMost(float.compared, { num: exact.num * 1_000_000_001n, den: exact.den * 1_000_000_000n }),
      ).toBe(true);
    }
  });

  it("compares Monte Carlo's (hits + 1) / (draws + 1) itself, not its 12-digit rounding", () => {
    const runs = [7, 11, 13, 17, 19, 23];
    const rand = lcg(3);
    const items: ItemRates[] = Array.from({ length: 14 }, (_, i) => {
      const nb = runs[i % runs.length]!;
      const nc = runs[(i + 2) % runs.length]!;
      return {
        basePasses: Math.floor(rand() * (nb + 1)),
        baseRuns: nb,
        candPasses: Math.floor(rand() * (nc + 1)),
        candRuns: nc,
      };
    });
    const r = signFlipTest(items, 42);
    expect(r.method).toBe('monte-carlo');
    expect(r.compared.den).toBe(BigInt(r.draws! + 1));
    expect(Number((Number(r.compared.num) / (r.draws! + 1)).toPrecision(12))).toBe(r.p_one_sided);
  });
});

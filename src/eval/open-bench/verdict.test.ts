import { describe, expect, it } from 'vitest';
import { runGate } from '../tools/gate/gate.js';
import { OPEN_BENCH_POLICY } from './open-bench-service.js';

/** The open bench's paired verdict on six tasks: counts only, compared as integers. */
function verdict(gains: number, regressions: number): string | undefined {
  const baseline: Record<string, boolean> = {};
  const candidate: Record<string, boolean> = {};
  for (let i = 0; i < 6; i++) {
    const kind = i < gains ? 'gain' : i < gains + regressions ? 'regression' : 'same';
    baseline[`task-${i}`] = kind === 'regression';
    candidate[`task-${i}`] = kind === 'gain';
  }
  return runGate({
    baseline,
    candidate,
    baseline_name: 'baseline',
    candidate_name: 'candidate',
    policy: OPEN_BENCH_POLICY,
  }).verdict;
}

describe('open bench verdict: any regression blocks, else any gain passes, else hold', () => {
  it.each([
    [0, 0, 'HOLD'], // one gain short of min_gains 1
    [1, 0, 'PASS'], // exactly min_gains; p = 1/2, and alpha 1 turns the test off (p <= 1 always)
    [5, 0, 'PASS'],
    [5, 1, 'BLOCK'], // one regression over max_regressions 0
    [0, 1, 'BLOCK'],
  ])('%i gains, %i regressions: %s', (gains, regressions, expected) => {
    expect(verdict(gains, regressions)).toBe(expected);
  });
});

describe('open bench policy', () => {
  // Receipts carry this object: no caller may change the policy a later receipt states.
  it('is frozen', () => {
    expect(Object.isFrozen(OPEN_BENCH_POLICY)).toBe(true);
    expect(() => Object.assign(OPEN_BENCH_POLICY, { max_regressions: 5 })).toThrow(TypeError);
    expect(OPEN_BENCH_POLICY.max_regressions).toBe(0);
  });
});

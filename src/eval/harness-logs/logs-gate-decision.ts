/**
 * The gate on two harness logs: join the cohorts, decide each item by the majority of its
 * runs, test the pass-rate differences with the paired sign-flip test, and apply the gate's
 * rules, with one more: a cohort that does not match (items on one side only, changed inputs,
 * duplicate rows) holds at HOLD. With one run per side and a matched cohort this is exactly
 * /api/gate on the same maps.
 */
import type { ItemDecision, ReceiptBody } from '../../core/receipt.js';
import { round12, wilson } from '../math/wilson.js';
import { pairOutcome } from '../tools/gate/cohort.js';
import { additionalGainsNeeded, assertProbe, decide, pairReasons } from '../tools/gate/gate.js';
import type { LogCohort } from './cohort.js';
import { joinCohorts, type JoinedItem, type SideRuns } from './join.js';
import type { LogsGateOptions } from './options.js';
import { signFlipTest } from './sign-flip.js';

export interface SideSource {
  cohort: LogCohort;
  /** SHA-256 of the file's bytes. */
  sha256: string;
  /** The file name as given (not hashed into anything but the receipt). */
  file: string;
}

/** An item passes on a side when a strict majority of its runs pass (one run: that run). */
export const majority = (s: SideRuns): boolean => 2 * s.passes > s.runs;

const rate = (s: SideRuns): string => `${s.passes}/${s.runs}`;

export function sourceSummary(side: SideSource): Record<string, unknown> {
  const c = side.cohort;
  let runs = 0;
  let minRuns = Infinity;
  let maxRuns = 0;
  for (const item of c.items.values()) {
    runs += item.runs.size;
    minRuns = Math.min(minRuns, item.runs.size);
    maxRuns = Math.max(maxRuns, item.runs.size);
  }
  return {
    file: side.file,
    sha256: side.sha256,
    format: c.format,
    harness: c.harness,
    harness_version: c.harness_version,
    task: c.task,
    model: c.model,
    measure: c.measure,
    samples: c.rows,
    items: c.items.size,
    runs: { total: runs, per_item_min: minRuns, per_item_max: maxRuns },
  };
}

function flaky(matched: JoinedItem[], side: 'base' | 'cand'): object[] {
  return matched
    .filter((m) => m[side].passes > 0 && m[side].passes < m[side].runs)
    .map((m) => ({ item_id: m.id, pass_rate: wilson(m[side].passes, m[side].runs) }));
}

export function runLogsGate(
  baseline: SideSource,
  candidate: SideSource,
  options: LogsGateOptions,
): ReceiptBody {
  assertProbe(options.retained_probe);
  const { policy } = options;
  const join = joinCohorts(baseline.cohort, candidate.cohort, options.errors);
  const { matched } = join;
  const oneRun = matched.every((m) => m.base.runs === 1 && m.cand.runs === 1);

  const items: ItemDecision[] = [];
  let gains = 0;
  let regressions = 0;
  let bothPass = 0;
  let bothFail = 0;
  let basePasses = 0;
  let baseRuns = 0;
  let candPasses = 0;
  let candRuns = 0;
  for (const m of matched) {
    const outcome = pairOutcome(majority(m.base), majority(m.cand));
    if (outcome === 'gain') gains++;
    else if (outcome === 'regression') regressions++;
    else if (outcome === 'both_pass') bothPass++;
    else bothFail++;
    basePasses += m.base.passes;
    baseRuns += m.base.runs;
    candPasses += m.cand.passes;
    candRuns += m.cand.runs;
    const reasons = [...pairReasons(outcome)];
    if (m.base.runs > 1 || m.cand.runs > 1)
      reasons.push(`runs passed: baseline ${rate(m.base)}, candidate ${rate(m.cand)}`);
    items.push({ item_id: m.id, decision: outcome, reasons });
  }
  const other = (ids: string[], decision: string, reason: string): void => {
    for (const id of ids) items.push({ item_id: id, decision, reasons: [reason] });
  };
  other(join.onlyBaseline, 'only_baseline', 'in the baseline log only');
  other(join.onlyCandidate, 'only_candidate', 'in the candidate log only');
  other(
    join.inputChanged.map((c) => c.item_id),
    'input_changed',
    'same id, different input in the two logs',
  );
  other(join.excluded, 'excluded_errors', 'every run on one side errored (errors: "exclude")');
  items.sort((a, b) => (a.item_id < b.item_id ? -1 : a.item_id > b.item_id ? 1 : 0));

  const { compared, ...test } = signFlipTest(
    matched.map((m) => ({
      basePasses: m.base.passes,
      baseRuns: m.base.runs,
      candPasses: m.cand.passes,
      candRuns: m.cand.runs,
    })),
    options.seed,
  );
  const dupCount = join.duplicates.baseline.length + join.duplicates.candidate.length;
  const unmatched = join.onlyBaseline.length + join.onlyCandidate.length + join.inputChanged.length;
  const cohortOk = unmatched === 0 && dupCount === 0;
  const cohortDetail = cohortOk
    ? `all ${matched.length} item(s) on both sides with the same inputs, no duplicate rows`
    : `${join.onlyBaseline.length} only in baseline, ${join.onlyCandidate.length} only in candidate, ` +
      `${join.inputChanged.length} with a changed input, ${dupCount} duplicate row(s): the logs do not cover the same items`;
  const { path, verdict } = decide(
    gains,
    regressions,
    { shown: test.p_one_sided, compared, upperBound: test.p_one_sided_upper_bound },
    policy,
    options.retained_probe,
    { ok: cohortOk, detail: cohortDetail },
  );
  const needed = oneRun && cohortOk ? additionalGainsNeeded(verdict, gains, regressions, policy) : null;
  const baseName = options.baseline_name ?? baseline.cohort.model ?? 'baseline';
  const candName = options.candidate_name ?? candidate.cohort.model ?? 'candidate';
  const flakyBase = flaky(matched, 'base');
  const flakyCand = flaky(matched, 'cand');

  return {
    verdict,
    status: verdict,
    summary: {
      baseline_name: baseName,
      candidate_name: candName,
      items: matched.length,
      gains,
      regressions,
      p_one_sided: test.p_one_sided,
      p_two_sided: test.p_two_sided,
      test_method: test.method,
      baseline_pass_rate: baseRuns ? round12(basePasses / baseRuns) : null,
      candidate_pass_rate: candRuns ? round12(candPasses / candRuns) : null,
      flaky: { baseline: flakyBase.length, candidate: flakyCand.length },
      unmatched,
      duplicates: dupCount,
      additional_clean_gains_needed: needed,
    },
    decision_path: path,
    items,
    result: {
      sources: { baseline: sourceSummary(baseline), candidate: sourceSummary(candidate) },
      counts: {
        items: matched.length,
        gains,
        regressions,
        both_pass: bothPass,
        both_fail: bothFail,
        only_baseline: join.onlyBaseline.length,
        only_candidate: join.onlyCandidate.length,
        input_changed: join.inputChanged.length,
        duplicates: {
          baseline: join.duplicates.baseline.length,
          candidate: join.duplicates.candidate.length,
        },
        excluded_errors: join.excluded.length,
        errored_runs: join.erroredRuns,
      },
      errors_policy: options.errors,
      sign_flip_test: {
        description:
          test.method === 'monte-carlo'
            ? `Monte Carlo paired sign-flip test over per-item pass-rate differences, ${test.draws} draws, seed ${test.seed}; p within ±${test.error_bound_99} at 99%; p = (hits + 1) / (draws + 1) is compared with alpha exactly`
            : test.p_one_sided_upper_bound !== undefined
              ? 'paired sign-flip test over per-item pass-rate differences, exact distribution computed in floating point; the rule compares p_one_sided_upper_bound with alpha, so rounding can hold but never pass'
              : 'exact paired sign-flip test over per-item pass-rate differences (one run per side: the exact McNemar sign test, P(X >= gains), X ~ Bin(gains + regressions, 1/2))',
        ...test,
        confidence_alpha: policy.confidence_alpha,
        test_enabled: policy.confidence_alpha < 1,
      },
      flaky: { baseline: flakyBase, candidate: flakyCand },
      unmatched: {
        only_baseline: join.onlyBaseline,
        only_candidate: join.onlyCandidate,
        input_changed: join.inputChanged,
        duplicates: join.duplicates,
        excluded_errors: join.excluded,
      },
      policy,
      retained_probe: options.retained_probe ?? null,
      baseline_pass_rate: wilson(basePasses, baseRuns),
      candidate_pass_rate: wilson(candPasses, candRuns),
      additional_clean_gains_needed: needed,
    },
    next_action: nextAction(verdict, path, cohortOk, needed),
  };
}

function nextAction(
  verdict: string,
  path: { rule: string; outcome: string }[],
  cohortOk: boolean,
  needed: number | null,
): string {
  const failed = path.find((s) => s.outcome === 'fail')?.rule;
  if (verdict === 'PASS') return 'Promote the candidate: every gate rule held.';
  if (verdict === 'BLOCK')
    return failed === 'retained_probe'
      ? 'Do not promote: supply a retained-capability probe on which the candidate verifies at least as many items as the baseline.'
      : 'Do not promote: fix the regressed items listed in items[] (decision "regression") and gate again.';
  if (!cohortOk && failed === 'cohort_matched')
    return 'Hold: run both sides on the same items (see result.unmatched), then gate again.';
  return needed === null
    ? 'Hold: the evidence does not reach PASS; evaluate on more items or more runs and gate again.'
    : `Hold: ${needed} more clean gain(s) with no new regressions would reach PASS; evaluate on more items and gate again.`;
}

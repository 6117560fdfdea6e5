/**
 * The promotion gate: paired comparison of baseline and candidate on the same items, five
 * rules in the reference order (eval-tools.md, gate), an exact one-sided sign test.
 */
import { invalidInput, type FieldError } from '../../../core/errors.js';
import type { DecisionStep, ItemDecision, ReceiptBody, Verdict } from '../../../core/receipt.js';
import { logUpperTail, signTest, upperTailExact } from '../../math/binomial.js';
import { atMost, decimalValue, type Rational } from '../../math/exact.js';
import { round12, wilson, type Proportion } from '../../math/wilson.js';
import {
  assertDomainsInCohort,
  assertSameCohort,
  ownValue,
  pairOutcome,
  type PairOutcome,
} from './cohort.js';
import type { GatePolicy, GateProbe, GateRequest } from './schema.js';

export const UNLABELLED_DOMAIN = '(unlabelled)';
/** The search for additional gains stops here; beyond it the answer is "unreachable". */
const MAX_ADDITIONAL_GAINS = 1_000_000;
/** Up to this many discordant pairs the answer is confirmed with exact BigInt tails. */
const EXACT_CHECK_MAX_N = 20_000;

const REASONS: Record<PairOutcome, string[]> = {
  gain: ['baseline failed, candidate passed'],
  regression: ['baseline passed, candidate failed'],
  both_pass: [],
  both_fail: [],
};

/** The reasons the gate lists for an item with this outcome. */
export function pairReasons(outcome: PairOutcome): readonly string[] {
  return REASONS[outcome];
}

interface DomainTally {
  items: number;
  baselinePasses: number;
  candidatePasses: number;
  gains: number;
  regressions: number;
}

/** A one-sided p-value: the figure a receipt shows, and the rational the sign-test rule compares. */
export interface ComparedP {
  shown: number;
  /** Exact, or an upper bound where p is computed in floating point (never rounded down). */
  compared: Rational;
  /** The floating DP's p_one_sided_upper_bound, when `compared` is that bound. */
  upperBound?: number;
}

/**
 * p <= alpha, exactly: alpha is the decimal the receipt prints (0.05 is 5/100), p the exact
 * tail (a dyadic rational) or an upper bound of it.
 */
export function withinAlpha(p: Rational, alpha: number): boolean {
  return atMost(p, decimalValue(alpha));
}

export interface DomainFigures {
  domain: string;
  items: number;
  gains: number;
  regressions: number;
  baseline_pass_rate: Proportion;
  candidate_pass_rate: Proportion;
}

/** The item ids of a request's three maps, in their own order. */
export interface CohortKeys {
  baseline: readonly string[];
  candidate: readonly string[];
  domains: readonly string[] | undefined;
}

/** The request's cohort keys: from lists already made of these very maps (`listed`), else listed now. */
export function cohortKeys(
  request: GateRequest,
  listed?: ReadonlyMap<object, readonly string[]>,
): CohortKeys {
  const keysOf = (map: object): readonly string[] => listed?.get(map) ?? Object.keys(map);
  return {
    baseline: keysOf(request.baseline),
    candidate: keysOf(request.candidate),
    domains: request.domains && keysOf(request.domains),
  };
}

export function runGate(request: GateRequest, keys: CohortKeys = cohortKeys(request)): ReceiptBody {
  const { baseline, candidate, policy } = request;
  // A copy: it is sorted below, and the caller's list may be shared.
  const ids = [...keys.baseline];
  assertSameCohort(
    baseline,
    candidate,
    {
      baseline: request.baseline_name,
      candidate: request.candidate_name,
    },
    ids,
    keys.candidate.length,
  );
  if (request.domains) assertDomainsInCohort(request.domains, baseline, keys.domains);
  assertProbe(request.retained_probe);

  ids.sort();
  // Keys in canonical order, so sealing copies no item (docs/speed.md: writing
  // items straight to JSON measured no cheaper).
  const items: ItemDecision[] = new Array<ItemDecision>(ids.length);
  const tallies = new Map<string, DomainTally>();
  let gains = 0;
  let regressions = 0;
  let bothPass = 0;
  let bothFail = 0;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    const b = baseline[id]!;
    const c = candidate[id]!;
    const outcome = pairOutcome(b, c);
    if (outcome === 'gain') gains++;
    else if (outcome === 'regression') regressions++;
    else if (outcome === 'both_pass') bothPass++;
    else bothFail++;
    const domain = ownValue(request.domains, id);
    items[i] =
      domain === undefined
        ? { decision: outcome, item_id: id, reasons: [...REASONS[outcome]] }
        : { decision: outcome, domain, item_id: id, reasons: [...REASONS[outcome]] };
    const key = domain ?? UNLABELLED_DOMAIN;
    let t = tallies.get(key);
    if (!t) {
      t = { items: 0, baselinePasses: 0, candidatePasses: 0, gains: 0, regressions: 0 };
      tallies.set(key, t);
    }
    t.items++;
    if (b) t.baselinePasses++;
    if (c) t.candidatePasses++;
    if (outcome === 'gain') t.gains++;
    if (outcome === 'regression') t.regressions++;
  }

  const test = signTest(gains, regressions);
  const { path, verdict } = decide(
    gains,
    regressions,
    { shown: test.p_one_sided, compared: test.p_one_exact },
    policy,
    request.retained_probe,
  );
  const needed = additionalGainsNeeded(verdict, gains, regressions, policy);
  const domains = [...tallies.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([domain, t]): DomainFigures => ({
      domain,
      items: t.items,
      gains: t.gains,
      regressions: t.regressions,
      baseline_pass_rate: wilson(t.baselinePasses, t.items),
      candidate_pass_rate: wilson(t.candidatePasses, t.items),
    }));
  const basePasses = bothPass + regressions;
  const candPasses = bothPass + gains;

  return {
    verdict,
    status: verdict,
    summary: {
      baseline_name: request.baseline_name,
      candidate_name: request.candidate_name,
      items: ids.length,
      gains,
      regressions,
      p_one_sided: test.p_one_sided,
      p_two_sided: test.p_two_sided,
      baseline_pass_rate: round12(basePasses / ids.length),
      candidate_pass_rate: round12(candPasses / ids.length),
      additional_clean_gains_needed: needed,
    },
    decision_path: path,
    items,
    result: {
      counts: { items: ids.length, gains, regressions, both_pass: bothPass, both_fail: bothFail },
      sign_test: {
        method:
          'exact binomial sign test on discordant pairs (McNemar exact), p = P(X >= gains), X ~ Bin(gains + regressions, 1/2)',
        discordant_pairs: test.discordant,
        gains,
        regressions,
        p_one_sided: test.p_one_sided,
        p_two_sided: test.p_two_sided,
        confidence_alpha: policy.confidence_alpha,
        test_enabled: policy.confidence_alpha < 1,
      },
      policy,
      retained_probe: request.retained_probe ?? null,
      baseline_pass_rate: wilson(basePasses, ids.length),
      candidate_pass_rate: wilson(candPasses, ids.length),
      domains,
      additional_clean_gains_needed: needed,
    },
    next_action: nextAction(verdict, path, needed),
  };
}

export function assertProbe(probe: GateProbe | undefined): void {
  if (!probe) return;
  const errors: FieldError[] = [];
  if (probe.base_verified > probe.items)
    errors.push({
      path: '/retained_probe/base_verified',
      message: `is ${probe.base_verified}, above items (${probe.items})`,
    });
  if (probe.candidate_verified > probe.items)
    errors.push({
      path: '/retained_probe/candidate_verified',
      message: `is ${probe.candidate_verified}, above items (${probe.items})`,
    });
  if (errors.length > 0)
    throw invalidInput('retained_probe verified counts cannot exceed its items.', errors);
}

/**
 * The rules in order. `cohort` (the logs gate: items on one side only, changed inputs,
 * duplicates) holds at HOLD after the blocking rules; /api/gate passes none, its cohorts
 * being checked up front.
 */
export function decide(
  gains: number,
  regressions: number,
  p: ComparedP,
  policy: GatePolicy,
  probe: GateProbe | undefined,
  cohort?: { ok: boolean; detail: string },
): { path: DecisionStep[]; verdict: Verdict } {
  const path: DecisionStep[] = [];
  let verdict: Verdict | undefined;
  const step = (rule: string, ok: boolean, detail: string, onFail: Verdict): void => {
    if (verdict !== undefined) {
      path.push({ rule, outcome: 'skip', detail: `not reached (verdict already ${verdict}); ${detail}` });
      return;
    }
    path.push({ rule, outcome: ok ? 'pass' : 'fail', detail });
    if (!ok) verdict = onFail;
  };

  step(
    'regressions_within_limit',
    regressions <= policy.max_regressions,
    `${regressions} regression(s) ${regressions <= policy.max_regressions ? '<=' : '>'} max_regressions ${policy.max_regressions}`,
    'BLOCK',
  );
  if (!probe) {
    step(
      'retained_probe',
      !policy.require_retained_probe,
      policy.require_retained_probe
        ? 'policy requires a retained probe and none was supplied'
        : 'no probe supplied and none required',
      'BLOCK',
    );
  } else {
    const held = probe.candidate_verified >= probe.base_verified;
    step(
      'retained_probe',
      held,
      `candidate verified ${probe.candidate_verified}/${probe.items} ${held ? '>=' : '<'} baseline ${probe.base_verified}/${probe.items}`,
      'BLOCK',
    );
  }
  if (cohort) step('cohort_matched', cohort.ok, cohort.detail, 'HOLD');
  step(
    'min_gains',
    gains >= policy.min_gains,
    `${gains} gain(s) ${gains >= policy.min_gains ? '>=' : '<'} min_gains ${policy.min_gains}`,
    'HOLD',
  );
  const alpha = policy.confidence_alpha;
  const significant = withinAlpha(p.compared, alpha);
  // The shown figures disagree with the rule: say which value the rule compared.
  const side = significant ? 'below' : 'above';
  const exactNote =
    alpha >= 1 || p.shown <= alpha === significant
      ? ''
      : p.upperBound === undefined
        ? ` (compared before rounding: the exact p is ${side} alpha)`
        : ` (the rule compares p_one_sided_upper_bound = ${p.upperBound}, which is ${side} alpha)`;
  step(
    'sign_test',
    significant,
    alpha >= 1
      ? `test off (confidence_alpha = 1); one-sided p = ${p.shown}`
      : `one-sided p = ${p.shown} ${significant ? '<=' : '>'} alpha ${alpha}${exactNote}`,
    'HOLD',
  );
  // Listed on every verdict, as every rule is: skipped on HOLD and BLOCK.
  if (verdict === undefined) {
    path.push({ rule: 'promote', outcome: 'pass', detail: 'every rule held' });
    verdict = 'PASS';
  } else {
    path.push({
      rule: 'promote',
      outcome: 'skip',
      detail: `not reached (verdict already ${verdict}); PASS needs every rule above to hold`,
    });
  }
  return { path, verdict };
}

/**
 * How many more gains, with no new regressions, would turn the verdict into PASS: 0 when it
 * already is, null when gains cannot help (a BLOCK) or when more than MAX_ADDITIONAL_GAINS
 * would be needed. The search runs on the log-space tail (cheap for any number of gains);
 * the boundary is then confirmed with the exact BigInt tail while the sums stay small.
 */
export function additionalGainsNeeded(
  verdict: Verdict,
  gains: number,
  regressions: number,
  policy: GatePolicy,
): number | null {
  if (verdict === 'PASS') return 0;
  if (verdict === 'BLOCK') return null;
  const first = Math.max(0, policy.min_gains - gains);
  if (first > MAX_ADDITIONAL_GAINS) return null;
  const logAlpha = Math.log(policy.confidence_alpha);
  const approx = (k: number): boolean => logUpperTail(gains + k + regressions, gains + k) <= logAlpha;
  let k: number;
  if (approx(first)) {
    k = first;
  } else {
    // p falls as gains grow: double until it passes, then bisect.
    let lo = first;
    let hi = Math.max(1, first * 2);
    while (!approx(hi)) {
      lo = hi;
      if (hi >= MAX_ADDITIONAL_GAINS) return null;
      hi = Math.min(MAX_ADDITIONAL_GAINS, hi * 2);
    }
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (approx(mid)) hi = mid;
      else lo = mid;
    }
    k = hi;
  }
  if (gains + k + regressions <= EXACT_CHECK_MAX_N) {
    const exact = (j: number): boolean =>
      withinAlpha(upperTailExact(gains + j + regressions, gains + j), policy.confidence_alpha);
    while (k > first && exact(k - 1)) k--;
    while (!exact(k)) {
      k++;
      if (k > MAX_ADDITIONAL_GAINS) return null;
    }
  }
  return k;
}

function nextAction(verdict: Verdict, path: DecisionStep[], needed: number | null): string {
  const failed = path.find((s) => s.outcome === 'fail');
  switch (verdict) {
    case 'PASS':
      return 'Promote the candidate: every gate rule held.';
    case 'BLOCK':
      return failed?.rule === 'retained_probe'
        ? 'Do not promote: supply a retained-capability probe on which the candidate verifies at least as many items as the baseline.'
        : 'Do not promote: fix the regressed items listed in items[] (decision "regression") and gate again.';
    case 'HOLD':
      return needed === null
        ? 'Hold: the evidence cannot reach PASS by adding gains alone; revisit the policy or the cohort.'
        : `Hold: ${needed} more clean gain(s) with no new regressions would reach PASS; evaluate on more items and gate again.`;
  }
}

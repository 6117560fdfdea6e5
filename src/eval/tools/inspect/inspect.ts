/**
 * The inspector: leakage audit, then the complete-clean-cohort check, then the promotion gate
 * over the clean items only (eval-tools.md, inspect; docs/inspect.md). The verdict is the
 * gate's, or HOLD when the clean cohort is incomplete or empty.
 */
import type { DecisionStep, ItemDecision, ReceiptBody } from '../../../core/receipt.js';
import { assertDomainsInCohort, emptyMap, ownValue, pairOutcome } from '../gate/cohort.js';
import { assertProbe, pairReasons, runGate } from '../gate/gate.js';
import type { GateRequest } from '../gate/schema.js';
import { auditLeakage, type ItemAudit } from '../leakage/audit.js';
import { leakageCounts, leakageDecisionPath, leakageTiers } from '../leakage/leakage.js';
import { assertCohortInExam, checkCleanCohort, type CohortCheck } from './cohort-check.js';
import type { InspectRequest } from './schema.js';

const MAX_NAMED = 10;

function named(ids: readonly string[]): string {
  const shown = ids
    .slice(0, MAX_NAMED)
    .map((id) => `"${id}"`)
    .join(', ');
  return ids.length > MAX_NAMED ? `${shown} and ${ids.length - MAX_NAMED} more` : shown;
}

function cohortStep(check: CohortCheck, request: InspectRequest): DecisionStep {
  if (check.clean_items.length === 0)
    return {
      rule: 'clean_cohort_complete',
      outcome: 'fail',
      detail: 'no clean items: every exam item is quarantined',
    };
  if (check.complete)
    return {
      rule: 'clean_cohort_complete',
      outcome: 'pass',
      detail: `${request.baseline_name} and ${request.candidate_name} both hold a result for all ${check.clean_items.length} clean item(s)`,
    };
  const parts: string[] = [];
  if (check.missing_from_baseline.length > 0)
    parts.push(
      `${request.baseline_name} lacks ${check.missing_from_baseline.length}: ${named(check.missing_from_baseline)}`,
    );
  if (check.missing_from_candidate.length > 0)
    parts.push(
      `${request.candidate_name} lacks ${check.missing_from_candidate.length}: ${named(check.missing_from_candidate)}`,
    );
  return { rule: 'clean_cohort_complete', outcome: 'fail', detail: parts.join('; ') };
}

/** The gate's request: the clean items only, domains from `domains` or else the exam rows. */
function gateRequest(
  request: InspectRequest,
  audited: readonly ItemAudit[],
  check: CohortCheck,
): GateRequest {
  const clean = new Set(check.clean_items);
  const baseline = emptyMap<boolean>();
  const candidate = emptyMap<boolean>();
  const domains = emptyMap<string>();
  for (const it of audited) {
    const id = it.row.id!;
    if (!clean.has(id)) continue;
    baseline[id] = request.baseline[id]!;
    candidate[id] = request.candidate[id]!;
    const domain = ownValue(request.domains, id) ?? request.exam[it.row.index]!.domain;
    if (domain !== undefined) domains[id] = domain;
  }
  return {
    baseline,
    candidate,
    baseline_name: request.baseline_name,
    candidate_name: request.candidate_name,
    ...(Object.keys(domains).length > 0 ? { domains } : {}),
    policy: request.policy,
    ...(request.retained_probe !== undefined ? { retained_probe: request.retained_probe } : {}),
  };
}

export function runInspect(request: InspectRequest): ReceiptBody {
  const audit = auditLeakage(request);
  const examIds = new Set(audit.items.map((it) => it.row.id!));
  assertCohortInExam(examIds, request.baseline, request.candidate);
  assertDomainsInCohort(request.domains, { ...request.baseline, ...request.candidate });
  // Checked up front: a HOLD from the cohort check must not hide an invalid probe.
  assertProbe(request.retained_probe);
  const check = checkCleanCohort(audit.items, request.baseline, request.candidate);
  const counts = leakageCounts(audit);
  const gate = check.complete ? runGate(gateRequest(request, audit.items, check)) : null;
  const verdict = gate?.verdict ?? 'HOLD';

  const missingBase = new Set(check.missing_from_baseline);
  const missingCand = new Set(check.missing_from_candidate);
  const items: ItemDecision[] = audit.items.map((it) => {
    const id = it.row.id!;
    // Keys here and in the item below in canonical (sorted) order: the receipt's canonicaliser
    // then need not copy each of thousands of items.
    const leakage = {
      decision: it.decision,
      match_count: it.match_count,
      matches: it.matches,
      tier: it.tier,
    };
    const results = {
      baseline: Object.hasOwn(request.baseline, id) ? request.baseline[id]! : null,
      candidate: Object.hasOwn(request.candidate, id) ? request.candidate[id]! : null,
    };
    let decision: string;
    let reasons: string[];
    if (it.decision === 'quarantine') {
      decision = 'quarantined';
      reasons = ['excluded from the gate: exposed', ...it.reasons];
    } else if (missingBase.has(id) || missingCand.has(id)) {
      decision = 'missing_result';
      reasons = [
        ...(missingBase.has(id) ? [`no result from ${request.baseline_name} (baseline)`] : []),
        ...(missingCand.has(id) ? [`no result from ${request.candidate_name} (candidate)`] : []),
      ];
    } else if (gate) {
      // A clean item with both results: the gate decided it from exactly this pair.
      const outcome = pairOutcome(results.baseline!, results.candidate!);
      decision = outcome;
      reasons = [...pairReasons(outcome), ...(it.decision === 'review' ? it.reasons : [])];
    } else {
      decision = 'not_gated';
      reasons = ['the gate did not run: the clean cohort is incomplete'];
    }
    const domain = ownValue(request.domains, id) ?? request.exam[it.row.index]!.domain;
    return {
      ...results,
      decision,
      ...(domain !== undefined ? { domain } : {}),
      exam_index: it.row.index,
      item_id: id,
      leakage,
      reasons,
    };
  });

  const path: DecisionStep[] = [...leakageDecisionPath(audit, request), cohortStep(check, request)];
  if (gate) path.push(...gate.decision_path);
  else
    path.push({
      rule: 'gate',
      outcome: 'skip',
      detail: 'not run: the clean cohort is incomplete or empty; verdict HOLD',
    });

  return {
    verdict,
    status: verdict,
    summary: {
      baseline_name: request.baseline_name,
      candidate_name: request.candidate_name,
      ...counts,
      clean_cohort_complete: check.complete,
      missing_results: new Set([...check.missing_from_baseline, ...check.missing_from_candidate]).size,
      gated_items: gate ? check.clean_items.length : 0,
      gains: gate ? gate.summary.gains : null,
      regressions: gate ? gate.summary.regressions : null,
      p_one_sided: gate ? gate.summary.p_one_sided : null,
    },
    decision_path: path,
    items,
    result: {
      leakage: {
        ...counts,
        quarantined_items: audit.items.filter((i) => i.decision === 'quarantine').map((i) => i.row.id!),
        review_items: audit.items.filter((i) => i.decision === 'review').map((i) => i.row.id!),
        tiers: leakageTiers(audit, request),
      },
      cohort_check: check,
      gate: gate
        ? {
            verdict: gate.verdict,
            summary: gate.summary,
            decision_path: gate.decision_path,
            result: gate.result,
          }
        : null,
    },
    next_action: nextAction(check, gate, counts.quarantined, request),
  };
}

function nextAction(
  check: CohortCheck,
  gate: ReceiptBody | null,
  quarantined: number,
  request: InspectRequest,
): string {
  if (check.clean_items.length === 0)
    return 'Hold: every exam item is quarantined as exposed; build a fresh exam before comparing systems.';
  if (!gate) {
    const missing = new Set([...check.missing_from_baseline, ...check.missing_from_candidate]);
    return (
      `Hold: run ${[
        check.missing_from_baseline.length > 0 ? request.baseline_name : null,
        check.missing_from_candidate.length > 0 ? request.candidate_name : null,
      ]
        .filter((x) => x !== null)
        .join(' and ')} on the ${missing.size} clean item(s) without a result ` +
      `(${named([...missing])}) and inspect again.`
    );
  }
  const leak =
    quarantined > 0 ? `Gated on ${check.clean_items.length} clean items (${quarantined} quarantined). ` : '';
  return leak + gate.next_action;
}

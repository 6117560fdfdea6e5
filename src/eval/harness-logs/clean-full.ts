/**
 * Clean versus full: the inputs read from the two logs form the exam, the leakage tool's tiers
 * (src/eval/tools/leakage/) mark the items the declared exposure covers, and the logs gate runs
 * twice, on the full cohort and on the clean one (quarantined items left out; items sent to
 * review stay, as in the leakage tool). The receipt's verdict is the clean cohort's: the
 * contamination-adjusted verdict; the full cohort's and the difference stand beside it.
 */
import type { DecisionStep, ItemDecision, ReceiptBody } from '../../core/receipt.js';
import { auditLeakage, type LeakageAudit } from '../tools/leakage/audit.js';
import { leakageCounts, leakageDecisionPath, leakageTiers } from '../tools/leakage/leakage.js';
import type { ExamRow } from '../tools/leakage/schema.js';
import type { LogCohort } from './cohort.js';
import type { ExposureSpec } from './exposure.js';
import { runLogsGate, type SideSource } from './logs-gate-decision.js';
import type { LogsGateOptions } from './options.js';

/**
 * One exam row per item of either log, in id order: its input text as the content, or, when the
 * log holds no input (HELM, OpenAI evals, a bare cohort), its id (then tier 1's identity match
 * is the evidence that can apply).
 */
export function examFromLogs(baseline: LogCohort, candidate: LogCohort): ExamRow[] {
  const ids = new Set([...baseline.items.keys(), ...candidate.items.keys()]);
  return [...ids].sort(byId).map((id) => {
    const text = baseline.items.get(id)?.inputText ?? candidate.items.get(id)?.inputText ?? null;
    return { item_id: id, input: text ?? id };
  });
}

function byId(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function withoutItems(side: SideSource, drop: ReadonlySet<string>): SideSource {
  const c = side.cohort;
  return {
    ...side,
    cohort: {
      ...c,
      items: new Map([...c.items].filter(([id]) => !drop.has(id))),
      duplicates: c.duplicates.filter((d) => !drop.has(d.item_id)),
    },
  };
}

type Summary = Record<string, unknown>;

function short(body: ReceiptBody): Summary {
  const s = body.summary as Summary;
  return {
    verdict: body.verdict,
    items: s.items,
    gains: s.gains,
    regressions: s.regressions,
    p_one_sided: s.p_one_sided,
    baseline_pass_rate: s.baseline_pass_rate,
    candidate_pass_rate: s.candidate_pass_rate,
  };
}

function statement(full: Summary, clean: Summary, quarantined: number): string {
  const part = (name: string, s: Summary): string =>
    `${name}: ${String(s.verdict)} (${String(s.items)} items, ${String(s.gains)} gains, ${String(s.regressions)} regressions, p = ${String(s.p_one_sided)})`;
  const change =
    full.verdict === clean.verdict
      ? 'the verdict does not depend on the exposed items'
      : `the verdict changes from ${String(full.verdict)} to ${String(clean.verdict)} once the exposed items are left out`;
  return `${part('full cohort', full)}; ${part(`clean cohort (${quarantined} exposed item(s) quarantined)`, clean)}: ${change}.`;
}

function items(
  clean: ReceiptBody,
  full: ReceiptBody,
  audit: LeakageAudit,
  quarantined: ReadonlySet<string>,
): ItemDecision[] {
  const fullDecision = new Map(full.items.map((it) => [it.item_id, it.decision]));
  const review = new Map(
    audit.items.filter((it) => it.decision === 'review').map((it) => [it.row.id!, it.reasons]),
  );
  const out: ItemDecision[] = clean.items.map((it) => {
    const notes = review.get(it.item_id);
    return notes ? { ...it, reasons: [...it.reasons, ...notes] } : it;
  });
  for (const it of audit.items) {
    const id = it.row.id!;
    if (!quarantined.has(id)) continue;
    out.push({
      item_id: id,
      decision: 'quarantined',
      reasons: [
        `left out of the clean cohort: exposed; in the full cohort: ${fullDecision.get(id) ?? 'not gated'}`,
        ...it.reasons,
      ],
      tier: it.tier,
      matches: it.matches,
    });
  }
  return out.sort((a, b) => byId(a.item_id, b.item_id));
}

export function runCleanVersusFull(
  baseline: SideSource,
  candidate: SideSource,
  options: LogsGateOptions,
  spec: ExposureSpec,
): ReceiptBody {
  const full = runLogsGate(baseline, candidate, options);
  const leakage = { exam: examFromLogs(baseline.cohort, candidate.cohort), ...spec };
  const audit = auditLeakage(leakage);
  const quarantined = new Set(
    audit.items.filter((it) => it.decision === 'quarantine').map((it) => it.row.id!),
  );
  const clean = runLogsGate(
    withoutItems(baseline, quarantined),
    withoutItems(candidate, quarantined),
    options,
  );
  const fullShort = short(full);
  const cleanShort = short(clean);
  const changed = full.verdict !== clean.verdict;
  const counts = leakageCounts(audit);
  const difference = {
    verdict_changed: changed,
    full_verdict: full.verdict,
    clean_verdict: clean.verdict,
    quarantined_items: quarantined.size,
    gains_in_exposed_items: Number(fullShort.gains) - Number(cleanShort.gains),
    regressions_in_exposed_items: Number(fullShort.regressions) - Number(cleanShort.regressions),
    statement: statement(fullShort, cleanShort, quarantined.size),
  };
  const path: DecisionStep[] = [
    ...leakageDecisionPath(audit, leakage),
    ...clean.decision_path,
    {
      rule: 'contamination_adjusted',
      outcome: 'info',
      detail: difference.statement,
    },
  ];
  const fullResult = full.result as Summary;
  return {
    verdict: clean.verdict,
    status: clean.status,
    summary: { ...(clean.summary as Summary), full: fullShort, exposure: counts, verdict_changed: changed },
    decision_path: path,
    items: items(clean, full, audit, quarantined),
    result: {
      ...(clean.result as Summary),
      sources: fullResult.sources,
      full: {
        ...fullShort,
        summary: full.summary,
        decision_path: full.decision_path,
        counts: fullResult.counts,
      },
      exposure: {
        counts,
        quarantined: [...quarantined],
        review: audit.items.filter((it) => it.decision === 'review').map((it) => it.row.id!),
        tiers: leakageTiers(audit, leakage),
      },
      difference,
    },
    next_action: changed
      ? `Decide on the clean cohort (${String(clean.verdict)}): the full cohort's ${String(full.verdict)} rests on items the declared exposure covers. ${clean.next_action}`
      : clean.next_action,
  };
}

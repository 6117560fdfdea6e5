/**
 * The benchmark health report: classifies every item, summarises domains and scores the
 * benchmark's readiness (eval-tools.md, health; docs/health-report.md).
 */
import type { DecisionStep, ItemDecision, ReceiptBody } from '../../../core/receipt.js';
import { wilson, type Proportion } from '../../math/wilson.js';
import {
  classifyItem,
  DISCRIMINATION_THRESHOLD,
  FLAKY_FLIP_RATE_THRESHOLD,
  FLAKY_MIN_FLIPS,
  ITEM_CLASSES,
  MIN_SYSTEMS,
  type ItemClass,
  type ItemFigures,
} from './classify.js';
import { MAX_WARNINGS_LISTED, observe, type ItemObservation } from './observe.js';
import { domainFigures, emptyCounts, readiness, weakestComponent, type ClassifiedItem } from './readiness.js';
import type { HealthReportRequest } from './schema.js';

interface ClassPolicy {
  definition: string;
  /** The item-level decision. */
  action: string;
  next_action: string;
}

export const CLASS_POLICY: Record<ItemClass, ClassPolicy> = {
  unmeasured: {
    definition: 'listed in items[] but no history row names it',
    action: 'measure',
    next_action: `Run at least ${MIN_SYSTEMS} systems on these items; they have no results yet.`,
  },
  under_observed: {
    definition: `results from fewer than ${MIN_SYSTEMS} distinct systems`,
    action: 'observe_more',
    next_action:
      'Run another system on these items: one system cannot show whether an item separates systems.',
  },
  saturated: {
    definition: 'every system passed every run',
    action: 'retire',
    next_action:
      'Retire these items or replace them with harder variants: every system passes them every time.',
  },
  too_hard: {
    definition: 'no system passed any run',
    action: 'add_easier_variant',
    next_action:
      'Add easier variants of these items and check their reference answers: no system has ever passed them.',
  },
  flaky: {
    definition:
      `some system flipped at least ${FLAKY_MIN_FLIPS} times between consecutive runs and the 95% Wilson ` +
      `lower bound of its flip rate (flips / (runs - 1)) is above ${FLAKY_FLIP_RATE_THRESHOLD}`,
    action: 'review',
    next_action:
      'Review these items: make their grading deterministic or fix them, and keep them out of gates until they stop flipping.',
  },
  discriminating: {
    definition: `per-system pass rates span at least ${DISCRIMINATION_THRESHOLD} (highest minus lowest)`,
    action: 'keep',
    next_action: 'Keep these items: they separate systems.',
  },
  flat: {
    definition: `per-system pass rates span less than ${DISCRIMINATION_THRESHOLD}`,
    action: 'revise',
    next_action:
      'Revise these items: systems pass them at similar rates, so they cost runs without separating systems.',
  },
};

interface SystemTally {
  runs: number;
  passes: number;
  items: number;
}

export function runHealthReport(request: HealthReportRequest): ReceiptBody {
  const { observations, warnings, warningCounts } = observe(request);
  const counts = emptyCounts();
  const classified: ClassifiedItem[] = [];
  const items: ItemDecision[] = [];
  const systemTallies = new Map<string, SystemTally>();

  for (const obs of observations) {
    const f = classifyItem(obs);
    counts[f.item_class]++;
    classified.push({
      item_id: obs.item_id,
      domain: obs.domain,
      item_class: f.item_class,
      utility: f.utility,
    });
    for (const s of f.systems) {
      let t = systemTallies.get(s.system);
      if (!t) {
        t = { runs: 0, passes: 0, items: 0 };
        systemTallies.set(s.system, t);
      }
      t.runs += s.runs;
      t.passes += s.passes;
      t.items++;
    }
    items.push(itemEntry(obs, f));
  }

  const domains = domainFigures(classified);
  const frontierGaps = domains.filter((d) => d.frontier_gap).map((d) => d.domain);
  const ready = readiness(counts, domains);
  const systems = [...systemTallies.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([system, t]): { system: string; items: number; pass_rate: Proportion } => ({
      system,
      items: t.items,
      pass_rate: wilson(t.passes, t.runs),
    }));

  const decisionPath: DecisionStep[] = ITEM_CLASSES.map((c) => ({
    rule: c,
    outcome: 'info',
    detail: `${counts[c]} item(s): ${CLASS_POLICY[c].definition}`,
  }));
  decisionPath.push({
    rule: 'frontier_gaps',
    outcome: frontierGaps.length === 0 ? 'pass' : 'fail',
    detail:
      frontierGaps.length === 0
        ? `every one of ${domains.length} domain(s) has a discriminating item`
        : `${frontierGaps.length} of ${domains.length} domain(s) have no discriminating item: ${frontierGaps.join(', ')}`,
  });
  const warned = warningCounts.duplicate_item_definition + warningCounts.conflicting_domain;
  decisionPath.push({
    rule: 'inputs_consistent',
    outcome: warned === 0 ? 'pass' : 'info',
    detail:
      warned === 0
        ? 'every item is defined at most once and labelled with one domain'
        : `${warningCounts.conflicting_domain} conflicting domain label(s) and ${warningCounts.duplicate_item_definition} repeated item definition(s): ` +
          "the item's first definition and its domain (else the first label seen) were used; see result.warnings",
  });
  decisionPath.push({
    rule: 'readiness',
    outcome: ready.band === 'READY' ? 'pass' : 'fail',
    detail: `index ${ready.index} -> ${ready.band}`,
  });

  return {
    status: ready.band,
    summary: {
      items: observations.length,
      history_rows: request.history.length,
      systems: systems.length,
      classes: counts,
      frontier_gaps: frontierGaps,
      readiness_index: ready.index,
      readiness_band: ready.band,
    },
    decision_path: decisionPath,
    items,
    result: {
      thresholds: {
        min_systems: MIN_SYSTEMS,
        flaky_min_flips: FLAKY_MIN_FLIPS,
        flaky_flip_rate_lower_bound_above: FLAKY_FLIP_RATE_THRESHOLD,
        discrimination_threshold: DISCRIMINATION_THRESHOLD,
        interval: 'Wilson score, 95%',
        flip_rate:
          'flips / (runs - 1) per system; a flip is a change of result between consecutive runs (row order)',
        discrimination: 'highest minus lowest per-system pass rate',
        utility: 'discrimination x (1 - pooled flip rate of the item)',
      },
      classes: Object.fromEntries(
        ITEM_CLASSES.map((c) => [
          c,
          {
            count: counts[c],
            definition: CLASS_POLICY[c].definition,
            action: CLASS_POLICY[c].action,
            next_action: CLASS_POLICY[c].next_action,
          },
        ]),
      ),
      domains,
      frontier_gaps: frontierGaps,
      readiness: ready,
      systems,
      warnings: { counts: warningCounts, listed: warnings, listed_at_most: MAX_WARNINGS_LISTED },
    },
    next_action: nextAction(ready, counts, frontierGaps),
  };
}

/**
 * Per-system figures as columns aligned with `systems`: one name list instead of a key per
 * figure per system. Rates are ratios of these counts; the flip-rate bound and the flaky flag
 * appear only when some system ran the item twice (otherwise there is no flip to judge).
 */
/**
 * One item's receipt entry, its keys inserted in canonical (UTF-16) order so sealing copies
 * none of the up to 5000 entries; the conditional keys go where that order puts them.
 */
function itemEntry(obs: ItemObservation, f: ItemFigures): ItemDecision {
  const systems = f.systems;
  const judged = systems.some((s) => s.runs > 1);
  const e: Record<string, unknown> = {
    decision: CLASS_POLICY[f.item_class].action,
    declared: obs.declared,
    discrimination: f.discrimination,
  };
  if (obs.domain !== undefined) e.domain = obs.domain;
  if (judged) e.flaky = systems.map((s) => s.flaky);
  e.flip_rate = f.flip_rate.trials === 0 ? null : f.flip_rate;
  if (judged) e.flip_rate_wilson_low = systems.map((s) => s.flip_rate_wilson_low);
  e.flips = systems.map((s) => s.flips);
  e.item_class = f.item_class;
  e.item_id = obs.item_id;
  e.pass_rate = f.pass_rate;
  e.passes = systems.map((s) => s.passes);
  e.reasons = f.reasons;
  e.runs = systems.map((s) => s.runs);
  e.systems = systems.map((s) => s.system);
  e.utility = f.utility;
  return e as ItemDecision;
}

function nextAction(
  ready: ReturnType<typeof readiness>,
  counts: Record<ItemClass, number>,
  frontierGaps: string[],
): string {
  const weakest = weakestComponent(ready);
  if (!weakest)
    return `Readiness ${ready.index}/100 (${ready.band}): keep the benchmark as it is and re-run the report as history grows.`;
  const points = Math.round(100 * weakest.weight * (1 - weakest.value) * 10) / 10;
  const detail =
    weakest.name === 'frontier' && frontierGaps.length > 0
      ? ` (${frontierGaps.slice(0, 5).join(', ')}${frontierGaps.length > 5 ? ', ...' : ''})`
      : weakest.name === 'reliability'
        ? ` (${counts.flaky} flaky item(s))`
        : '';
  return (
    `Readiness ${ready.index}/100 (${ready.band}); the largest gain is ${weakest.name}, ${points} point(s) short: ` +
    `${weakest.remedy}${detail}. Per-class actions are in result.classes.`
  );
}

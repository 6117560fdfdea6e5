/**
 * Benchmark-level figures: per-domain class counts, frontier gaps and the readiness index
 * (docs/health-report.md, "Readiness index").
 */
import {
  atLeast,
  compareRationals,
  floorDecimal,
  ratio as fraction,
  type Rational,
} from '../../math/exact.js';
import { round12 } from '../../math/wilson.js';
import { ITEM_CLASSES, type ItemClass } from './classify.js';

export const UNLABELLED_DOMAIN = '(unlabelled)';

export interface ClassifiedItem {
  item_id: string;
  domain: string | undefined;
  item_class: ItemClass;
  utility: number | null;
}

export type ClassCounts = Record<ItemClass, number>;

export function emptyCounts(): ClassCounts {
  return Object.fromEntries(ITEM_CLASSES.map((c) => [c, 0])) as ClassCounts;
}

export interface DomainFigures {
  domain: string;
  items: number;
  classes: ClassCounts;
  /** Mean utility over the domain's measured items; null when none is measured. */
  mean_utility: number | null;
  frontier_gap: boolean;
}

export function domainFigures(items: readonly ClassifiedItem[]): DomainFigures[] {
  const byDomain = new Map<
    string,
    { counts: ClassCounts; items: number; utility: number; measured: number }
  >();
  for (const it of items) {
    const key = it.domain ?? UNLABELLED_DOMAIN;
    let d = byDomain.get(key);
    if (!d) {
      d = { counts: emptyCounts(), items: 0, utility: 0, measured: 0 };
      byDomain.set(key, d);
    }
    d.items++;
    d.counts[it.item_class]++;
    if (it.utility !== null) {
      d.utility += it.utility;
      d.measured++;
    }
  }
  return [...byDomain.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([domain, d]) => ({
      domain,
      items: d.items,
      classes: d.counts,
      mean_utility: d.measured === 0 ? null : round12(d.utility / d.measured),
      frontier_gap: d.counts.discriminating === 0,
    }));
}

export interface ReadinessComponent {
  name: 'coverage' | 'observation' | 'discrimination' | 'reliability' | 'frontier';
  weight: number;
  value: number;
  numerator: number;
  denominator: number;
  meaning: string;
  /** What raising this component takes. */
  remedy: string;
}

export interface Readiness {
  index: number;
  band: 'READY' | 'NEEDS_WORK' | 'NOT_READY';
  components: ReadinessComponent[];
  formula: string;
}

export const READY_AT = 75;
export const NEEDS_WORK_AT = 40;

const ratio = (num: number, den: number): number => (den === 0 ? 0 : num / den);
/** A component's value as a fraction; an empty denominator counts 0. */
const exactValue = (p: { numerator: number; denominator: number }): Rational =>
  p.denominator === 0 ? fraction(0) : fraction(p.numerator, p.denominator);
/** Weights in index points (weight x 100), integers so the index is an exact fraction. */
const points = (weight: number): bigint => BigInt(Math.round(weight * 100));

/** 100 x sum of weight x value, exactly: the band is decided on this, not on the rounded index. */
function exactIndex(parts: readonly Omit<ReadinessComponent, 'value'>[]): Rational {
  let sum = fraction(0);
  for (const p of parts) {
    const v = exactValue(p);
    sum = fraction(sum.num * v.den + points(p.weight) * v.num * sum.den, sum.den * v.den);
  }
  return sum;
}

export function readiness(counts: ClassCounts, domains: readonly DomainFigures[]): Readiness {
  const total = ITEM_CLASSES.reduce((s, c) => s + counts[c], 0);
  const measured = total - counts.unmeasured;
  const observed = measured - counts.under_observed;
  const covered = domains.filter((d) => !d.frontier_gap).length;
  const parts: Omit<ReadinessComponent, 'value'>[] = [
    {
      name: 'coverage',
      weight: 0.15,
      numerator: measured,
      denominator: total,
      meaning: 'measured items / all items',
      remedy: 'run systems on the unmeasured items',
    },
    {
      name: 'observation',
      weight: 0.1,
      numerator: observed,
      denominator: measured,
      meaning: `items with results from >= 2 systems / measured items`,
      remedy: 'run a second system on the under-observed items',
    },
    {
      name: 'discrimination',
      weight: 0.35,
      numerator: counts.discriminating,
      denominator: observed,
      meaning: 'discriminating items / items observed by >= 2 systems',
      remedy: 'retire saturated items, add easier variants of too-hard ones and revise flat ones',
    },
    {
      name: 'reliability',
      weight: 0.25,
      numerator: observed - counts.flaky,
      denominator: observed,
      meaning: '1 - flaky items / items observed by >= 2 systems',
      remedy: 'review the flaky items and make their grading deterministic',
    },
    {
      name: 'frontier',
      weight: 0.15,
      numerator: covered,
      denominator: domains.length,
      meaning: 'domains with at least one discriminating item / domains',
      remedy: 'add discriminating items to the frontier-gap domains',
    },
  ];
  const components = parts.map((p) => ({ ...p, value: round12(ratio(p.numerator, p.denominator)) }));
  const exact = exactIndex(parts);
  return {
    // Rounded down, so the index shown and the band always agree (74.96 shows as 74.9).
    index: floorDecimal(exact, 1),
    band: atLeast(exact, fraction(READY_AT))
      ? 'READY'
      : atLeast(exact, fraction(NEEDS_WORK_AT))
        ? 'NEEDS_WORK'
        : 'NOT_READY',
    components,
    formula:
      'index = 100 x (0.15 coverage + 0.10 observation + 0.35 discrimination + 0.25 reliability + 0.15 frontier), ' +
      `rounded down to one decimal; the band is decided on the exact index: READY at >= ${READY_AT}, ` +
      `NEEDS_WORK at >= ${NEEDS_WORK_AT}, NOT_READY below; a component with an empty denominator counts 0`,
  };
}

/** The component whose shortfall costs the most index points (first in order on ties), exactly. */
export function weakestComponent(r: Readiness): ReadinessComponent | undefined {
  let worst: ReadinessComponent | undefined;
  let worstLoss = fraction(0);
  for (const c of r.components) {
    const v = exactValue(c);
    const loss = fraction(points(c.weight) * (v.den - v.num), v.den);
    if (compareRationals(loss, worstLoss) > 0) {
      worst = c;
      worstLoss = loss;
    }
  }
  return worst;
}

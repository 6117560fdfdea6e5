/**
 * Grades one repair: it parses, reads no forbidden feature, implies the item's class on
 * every graph of the universe, makes the heuristic right on every graph it admits (else a
 * counterexample graph), and keeps at least 5% of the class's correctly-handled graphs. Pure.
 */
import { compileExpression, FEATURE_NAMES, featuresUsed, tryParseExpression } from '../dsl/index.js';
import { F } from '../graph/features.js';
import { toGraph6 } from '../graph/graph6.js';
import { colourCount, exactColouring, greedyColouring, greedyOrder } from '../graph/colouring.js';
import { edgeList, type Graph } from '../graph/graph.js';
import { andBits, bitsOf, firstOutside, popcountBits } from './bitset.js';
import { floorDecimal, ratio } from '../math/exact.js';
import { MIN_RETENTION_PERCENT, minimumKept, predicateBits, retainsEnough, rightBits } from './bank.js';
import {
  HEURISTIC_INFO,
  maximumIndependentMask,
  minDegreeGreedyMask,
  minDegreeGreedyMis,
  type HeuristicId,
} from './heuristics.js';
import type { Universe } from './universe.js';

export interface GradedItemInput {
  item_id: string;
  heuristic: HeuristicId;
  class_predicate: string;
}

export interface Counterexample {
  graph6: string;
  n: number;
  edges: [number, number][];
  heuristic_value: number;
  optimum: number;
  /**
   * What the workbench draws, shaped as the counterexample tool's witness checks: both
   * colourings (greedy and optimal), or both independent sets (greedy and maximum).
   */
  checks: ColouringChecks | IndependentSetChecks;
}

export interface ColouringChecks {
  greedy_colouring: { order: number[]; colours: number[]; count: number };
  optimal_colouring: { colours: number[]; count: number };
}

export interface IndependentSetChecks {
  greedy_set: { vertices: number[]; size: number };
  maximum_set: { vertices: number[]; size: number };
}

export interface ItemGrade {
  item_id: string;
  heuristic: HeuristicId;
  class_predicate: string;
  answered: boolean;
  parses: boolean;
  subclass: boolean;
  always_right: boolean;
  /** kept / right_in_class rounded down to 4 decimals, for display: never shows 0.05 for less. */
  retention: number;
  /** Decided on the counts: kept x 20 >= right_in_class. */
  retains_enough: boolean;
  /** Graphs the answer admits (0 unless it is a subclass on which the heuristic is right). */
  kept?: number;
  /** Graphs of the original class on which the heuristic is right. */
  right_in_class?: number;
  passed: boolean;
  message: string;
  counterexample?: Counterexample;
  outside_class?: { graph6: string; n: number };
}

function failed(item: GradedItemInput, message: string, answered = true): ItemGrade {
  return {
    item_id: item.item_id,
    heuristic: item.heuristic,
    class_predicate: item.class_predicate,
    answered,
    parses: false,
    subclass: false,
    always_right: false,
    retention: 0,
    retains_enough: false,
    passed: false,
    message,
  };
}

const vertices = (mask: number, n: number): number[] =>
  Array.from({ length: n }, (_, v) => v).filter((v) => (mask >> v) & 1);

function checksOf(g: Graph, heuristic: HeuristicId): Counterexample['checks'] {
  if (heuristic === 'greedy_colouring') {
    const greedy = greedyColouring(g);
    const exact = exactColouring(g);
    return {
      greedy_colouring: { order: greedyOrder(g), colours: greedy, count: colourCount(greedy) },
      optimal_colouring: { colours: exact.colouring, count: exact.chromaticNumber },
    };
  }
  const greedy = vertices(minDegreeGreedyMask(g), g.n);
  const maximum = vertices(maximumIndependentMask(g), g.n);
  return {
    greedy_set: { vertices: greedy, size: greedy.length },
    maximum_set: { vertices: maximum, size: maximum.length },
  };
}

function counterexample(universe: Universe, heuristic: HeuristicId, index: number): Counterexample {
  const g = universe.graph(index);
  const row = universe.featureRow(index);
  const [value, optimum] =
    heuristic === 'greedy_colouring'
      ? [row[F.greedy_colors]!, row[F.chromatic_number]!]
      : [minDegreeGreedyMis(g), row[F.independence_number]!];
  return {
    graph6: toGraph6(g),
    n: g.n,
    edges: edgeList(g),
    heuristic_value: value,
    optimum,
    checks: checksOf(g, heuristic),
  };
}

export function gradeItem(universe: Universe, item: GradedItemInput, answer: string | undefined): ItemGrade {
  if (answer === undefined) return failed(item, 'No answer was given for this item.', false);
  const parsed = tryParseExpression(answer);
  if (!parsed.ok) return failed(item, `The answer does not parse: ${parsed.error.message}.`);
  const forbidden = HEURISTIC_INFO[item.heuristic].forbidden;
  const used = featuresUsed(parsed.expr).map((id) => FEATURE_NAMES[id]!);
  const bad = used.filter((f) => forbidden.includes(f));
  if (bad.length > 0) {
    return {
      ...failed(
        item,
        `The answer reads ${bad.join(', ')}, which states the heuristic's answer instead of a class of graphs.`,
      ),
      parses: true,
    };
  }
  const repair = compileExpression(parsed.expr);
  const r = bitsOf(universe.count, (i) => repair.onValues(universe.featureRow(i)));
  const original = predicateBits(universe, item.class_predicate);
  const right = rightBits(universe, item.heuristic);
  const outside = firstOutside(r, original);
  const wrongAt = firstOutside(r, right);
  const rightInClass = popcountBits(andBits(original, right));
  const kept = outside < 0 && wrongAt < 0 ? popcountBits(r) : 0;
  const retention = rightInClass === 0 ? 0 : floorDecimal(ratio(kept, rightInClass), 4);
  const grade: ItemGrade = {
    item_id: item.item_id,
    heuristic: item.heuristic,
    class_predicate: item.class_predicate,
    answered: true,
    parses: true,
    subclass: outside < 0,
    always_right: wrongAt < 0,
    retention,
    retains_enough: retainsEnough(kept, rightInClass),
    kept,
    right_in_class: rightInClass,
    passed: false,
    message: '',
  };
  if (outside >= 0) {
    const g = universe.graph(outside);
    grade.outside_class = { graph6: toGraph6(g), n: g.n };
    grade.message = 'The answer admits a graph outside the original class; a repair must narrow the class.';
  } else if (wrongAt >= 0) {
    grade.counterexample = counterexample(universe, item.heuristic, wrongAt);
    grade.message = 'The heuristic is still wrong on a graph the answer admits (see counterexample).';
  } else if (!grade.retains_enough) {
    grade.message =
      `The answer keeps ${kept} of the class's ${rightInClass} correctly-handled graphs ` +
      `(${floorDecimal(ratio(100 * kept, rightInClass), 2)}%, rounded down); at least ${MIN_RETENTION_PERCENT}% ` +
      `(${minimumKept(rightInClass)} graphs) is required.`;
  } else {
    grade.passed = true;
    grade.message = 'Correct repair.';
  }
  return grade;
}

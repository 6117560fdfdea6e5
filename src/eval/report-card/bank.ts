/**
 * The item bank: conjectures "heuristic H is right on every graph of class C" that are false
 * on the universe, each kept only when a narrower class (the reference repair) is right
 * everywhere and retains at least 5% of C's correctly-handled graphs, so every item can be
 * answered. Pure; built once in a pool thread.
 */
import { compileExpression, parseExpression } from '../dsl/index.js';
import { andBits, bitsOf, firstOutside, popcountBits, type Bits } from './bitset.js';
import { HEURISTICS, type HeuristicId } from './heuristics.js';
import type { Universe } from './universe.js';

/** A repair keeps at least 1 in 20 (5%) of the class's correctly-handled graphs. */
export const MIN_RETENTION = { kept: 1, of: 20 } as const;
export const MIN_RETENTION_PERCENT = (100 * MIN_RETENTION.kept) / MIN_RETENTION.of;

/** kept / rightInClass >= 1/20, compared in integers: 282 of 5644 (4.9965%) is not enough. */
export function retainsEnough(kept: number, rightInClass: number): boolean {
  return rightInClass > 0 && kept * MIN_RETENTION.of >= rightInClass * MIN_RETENTION.kept;
}

/** The fewest graphs a repair must keep: ceil(rightInClass / 20). */
export function minimumKept(rightInClass: number): number {
  return Math.ceil((rightInClass * MIN_RETENTION.kept) / MIN_RETENTION.of);
}

const BASES = [
  'is_connected',
  'is_bipartite',
  'is_triangle_free',
  'is_claw_free',
  'max_degree <= 3',
  'min_degree >= 2',
  'm >= n',
  'diameter <= 2',
  'girth >= 4',
  'not is_forest',
  'num_triangles >= 1',
  'n >= 6',
  '2 * m >= n * (n - 1) * 0.5',
  'has_isolated_vertex',
];

const NARROWERS = [
  'is_forest',
  'max_degree_le_2',
  'is_complete',
  'n <= 4',
  'n <= 5',
  'is_tree',
  'has_universal_vertex',
  'min_degree >= n - 2',
  'is_regular',
  'm <= n',
  'max_degree <= 2 or is_complete',
  'is_bipartite and max_degree <= 2',
];

export interface BankItem {
  bank_id: string;
  heuristic: HeuristicId;
  class_predicate: string;
  /** Graphs of the class; of them, where the heuristic is wrong and right. */
  class_graphs: number;
  wrong_graphs: number;
  right_graphs: number;
  /** A valid answer: known to exist, never shown to a client. */
  reference_repair: string;
}

export function predicateBits(universe: Universe, expression: string): Bits {
  const p = compileExpression(parseExpression(expression));
  return bitsOf(universe.count, (i) => p.onValues(universe.featureRow(i)));
}

export function rightBits(universe: Universe, heuristic: HeuristicId): Bits {
  const bit = 1 << HEURISTICS.indexOf(heuristic);
  return bitsOf(universe.count, (i) => (universe.right[i]! & bit) !== 0);
}

export function buildBank(universe: Universe): BankItem[] {
  const base = BASES.map((e) => ({ e, bits: predicateBits(universe, e) }));
  const narrow = NARROWERS.map((e) => ({ e, bits: predicateBits(universe, e) }));
  const classes: { e: string; bits: Bits }[] = [...base];
  for (let a = 0; a < base.length; a++)
    for (let b = a + 1; b < base.length; b++)
      classes.push({ e: `${base[a]!.e} and ${base[b]!.e}`, bits: andBits(base[a]!.bits, base[b]!.bits) });
  const bank: BankItem[] = [];
  for (const heuristic of HEURISTICS) {
    const right = rightBits(universe, heuristic);
    let serial = 0;
    for (const c of classes) {
      const classGraphs = popcountBits(c.bits);
      const rightGraphs = popcountBits(andBits(c.bits, right));
      if (rightGraphs === classGraphs || rightGraphs === 0) continue;
      const repair = narrow.find((n) => {
        const r = andBits(c.bits, n.bits);
        return firstOutside(r, right) < 0 && retainsEnough(popcountBits(r), rightGraphs);
      });
      if (!repair) continue;
      bank.push({
        bank_id: `${heuristic === 'greedy_colouring' ? 'gc' : 'mis'}-${String(++serial).padStart(3, '0')}`,
        heuristic,
        class_predicate: c.e,
        class_graphs: classGraphs,
        wrong_graphs: classGraphs - rightGraphs,
        right_graphs: rightGraphs,
        reference_repair: `(${c.e}) and (${repair.e})`,
      });
    }
  }
  return bank;
}

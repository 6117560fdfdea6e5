/** Truth values of a predicate on every labelled graph with 1..maxN vertices (maxN <= 5). */
import { tabulatedSmallGraphs } from '../graph/enumerate.js';
import type { CompiledPredicate } from './compile.js';

/**
 * One byte per graph (1 true, 0 false) in tabulatedSmallGraphs order: 1, 3, 11, 75 or 1099
 * bytes for maxN 1..5. Features of those graphs are computed once per process, so each call
 * costs one table look-up per feature reached per graph.
 */
export function truthTable(predicate: CompiledPredicate, maxN: number): Uint8Array {
  const graphs = tabulatedSmallGraphs(maxN);
  const out = new Uint8Array(graphs.length);
  for (let i = 0; i < graphs.length; i++) out[i] = predicate.onValues(graphs[i]!.values) ? 1 : 0;
  return out;
}

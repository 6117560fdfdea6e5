/**
 * The two heuristics the report card's conjectures are about, and whether each is right on
 * a graph: greedy colouring (the DSL's `greedy_colors`) against the chromatic number, and
 * the minimum-degree greedy independent set against the independence number.
 */
import { F } from '../graph/features.js';
import { lowestBit, popcount, type Graph } from '../graph/graph.js';

export type HeuristicId = 'greedy_colouring' | 'min_degree_mis';
export const HEURISTICS: readonly HeuristicId[] = ['greedy_colouring', 'min_degree_mis'];

export interface HeuristicInfo {
  claim: string;
  /** Features a repair may not read: they state the answer instead of a class of graphs. */
  forbidden: readonly string[];
}

export const HEURISTIC_INFO: Readonly<Record<HeuristicId, HeuristicInfo>> = {
  greedy_colouring: {
    claim:
      'The greedy colouring (vertices by descending degree, ties to the lower index, smallest free colour) uses exactly chromatic_number colours.',
    forbidden: ['greedy_colors', 'chromatic_number'],
  },
  min_degree_mis: {
    claim:
      'The minimum-degree greedy independent set (repeatedly take a vertex of least degree among those left, ties to the lower index, and delete it and its neighbours) has independence_number vertices.',
    forbidden: ['independence_number'],
  },
};

/** The minimum-degree greedy independent set, as a vertex bitmask. */
export function minDegreeGreedyMask(g: Graph): number {
  let left = g.n >= 32 ? -1 : (1 << g.n) - 1;
  let set = 0;
  while (left !== 0) {
    let best = -1;
    let bestDegree = Infinity;
    for (let rest = left; rest !== 0; rest &= rest - 1) {
      const v = lowestBit(rest);
      const d = popcount(g.adj[v]! & left);
      if (d < bestDegree) {
        best = v;
        bestDegree = d;
      }
    }
    set |= 1 << best;
    left &= ~((1 << best) | g.adj[best]!);
  }
  return set;
}

/** Size of the minimum-degree greedy independent set. */
export function minDegreeGreedyMis(g: Graph): number {
  return popcount(minDegreeGreedyMask(g));
}

/**
 * A maximum independent set as a bitmask (the lowest such mask), by trying every vertex subset:
 * for a counterexample's certificate only, on the report card's graphs (at most 8 vertices).
 */
export function maximumIndependentMask(g: Graph): number {
  let best = 0;
  for (let mask = 1; mask < 1 << g.n; mask++) {
    if (popcount(mask) <= popcount(best)) continue;
    let independent = true;
    for (let rest = mask; rest !== 0 && independent; rest &= rest - 1)
      independent = (g.adj[lowestBit(rest)]! & mask) === 0;
    if (independent) best = mask;
  }
  return best;
}

/** Whether the heuristic is right on a graph, from its feature values (FeatureCache order). */
export function heuristicRight(id: HeuristicId, g: Graph, values: Float64Array): boolean {
  if (id === 'greedy_colouring') return values[F.greedy_colors] === values[F.chromatic_number];
  return minDegreeGreedyMis(g) === values[F.independence_number];
}

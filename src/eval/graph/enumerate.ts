/**
 * Every labelled graph on exactly n vertices (2^(n(n-1)/2) of them), in Gray-code order so
 * consecutive graphs differ by one edge and the callback's graph is updated in place.
 */
import { FEATURE_COUNT, FeatureCache } from './features.js';
import { emptyGraph, type Graph } from './graph.js';

/** Number of labelled graphs on exactly n vertices. */
export function labelledGraphCount(n: number): number {
  return 2 ** ((n * (n - 1)) / 2);
}

/** The vertex pairs in graph6 order: (0,1), (0,2), (1,2), (0,3), ... */
export function vertexPairs(n: number): [number, number][] {
  const out: [number, number][] = [];
  for (let j = 1; j < n; j++) for (let i = 0; i < j; i++) out.push([i, j]);
  return out;
}

/**
 * Calls `cb` once per labelled graph on n vertices. The graph object is reused and mutated
 * between calls: copy it (cloneGraph) to keep it. Returning `false` from `cb` stops early.
 * Returns the number of graphs visited.
 */
export function forEachLabelledGraph(n: number, cb: (g: Graph, index: number) => boolean | void): number {
  const g = emptyGraph(n);
  const pairs = vertexPairs(n);
  const total = labelledGraphCount(n);
  if (cb(g, 0) === false) return 1;
  for (let i = 1; i < total; i++) {
    // Reflected Gray code: step i flips the pair at the index of i's lowest set bit.
    const [a, b] = pairs[31 - Math.clz32(i & -i)]!;
    g.adj[a]! ^= 1 << b;
    g.adj[b]! ^= 1 << a;
    if (cb(g, i) === false) return i + 1;
  }
  return total;
}

export interface TabulatedGraph {
  graph: Graph;
  /** Every feature's value (FeatureCache order). */
  values: Float64Array;
}

const tables = new Map<number, readonly TabulatedGraph[]>();

/**
 * Every labelled graph on 1..maxN vertices (maxN <= 5: 1, 3, 11, 75 or 1099 graphs) with all
 * feature values computed once and cached for the process: evaluating an expression over
 * them is then a table look-up per feature. Order: by n, then labelled index (bit k of the
 * index is the k-th pair of vertexPairs), which is stable across runs.
 */
export function tabulatedSmallGraphs(maxN: number): readonly TabulatedGraph[] {
  if (!Number.isInteger(maxN) || maxN < 1 || maxN > 5) throw new RangeError('maxN must be 1..5');
  const hit = tables.get(maxN);
  if (hit) return hit;
  const out: TabulatedGraph[] = [];
  for (let n = 1; n <= maxN; n++) {
    const pairs = vertexPairs(n);
    const total = labelledGraphCount(n);
    for (let index = 0; index < total; index++) {
      const g = emptyGraph(n);
      for (let k = 0; k < pairs.length; k++) {
        if ((index >> k) & 1) {
          const [a, b] = pairs[k]!;
          g.adj[a]! |= 1 << b;
          g.adj[b]! |= 1 << a;
        }
      }
      out.push({ graph: g, values: new FeatureCache(g).computeAll().slice() });
    }
  }
  const frozen = Object.freeze(out);
  tables.set(maxN, frozen);
  return frozen;
}

const columnTables = new Map<number, readonly Float64Array[]>();

/** tabulatedSmallGraphs(maxN) by column: one array per feature, one element per graph, cached alike. */
export function tabulatedFeatureColumns(maxN: number): readonly Float64Array[] {
  const hit = columnTables.get(maxN);
  if (hit) return hit;
  const graphs = tabulatedSmallGraphs(maxN);
  const cols = Array.from({ length: FEATURE_COUNT }, () => new Float64Array(graphs.length));
  for (let g = 0; g < graphs.length; g++) {
    const v = graphs[g]!.values;
    for (let f = 0; f < FEATURE_COUNT; f++) cols[f]![g] = v[f]!;
  }
  columnTables.set(maxN, cols);
  return cols;
}

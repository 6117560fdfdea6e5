/**
 * The graphs every repair is checked on: every labelled graph on 1..6 vertices (33 867) plus
 * a fixed set of hard 7–8-vertex graphs (seeded random graphs on which a heuristic fails).
 * Held in SharedArrayBuffers so the pool's threads grade against one copy built once.
 */
import { FeatureCache, FEATURE_COUNT } from '../graph/features.js';
import { emptyGraph, type Graph } from '../graph/graph.js';
import { forEachLabelledGraph } from '../graph/enumerate.js';
import { restartState, Xoshiro128 } from '../tools/counterexample/prng.js';
import { heuristicRight, HEURISTICS } from './heuristics.js';

export const EXHAUSTIVE_MAX_N = 6;
const HARD_SEED = 20261125;
const HARD_PER_HEURISTIC = 96;
const MAX_N = 8;

/** Plain data (SharedArrayBuffers and numbers): crosses to pool threads without a copy. */
export interface UniverseData {
  count: number;
  /** Index of the first hard 7–8-vertex graph. */
  hardFrom: number;
  /** count × FEATURE_COUNT feature values (FeatureCache order). */
  values: SharedArrayBuffer;
  /** count × 8 adjacency masks. */
  adj: SharedArrayBuffer;
  /** count vertex counts. */
  n: SharedArrayBuffer;
  /** count bytes: bit h set when heuristic HEURISTICS[h] is right on the graph. */
  right: SharedArrayBuffer;
}

export interface Universe {
  data: UniverseData;
  count: number;
  hardFrom: number;
  values: Float64Array;
  right: Uint8Array;
  graph(index: number): Graph;
  featureRow(index: number): Float64Array;
}

function rightMask(g: Graph, values: Float64Array): number {
  let mask = 0;
  HEURISTICS.forEach((h, bit) => {
    if (heuristicRight(h, g, values)) mask |= 1 << bit;
  });
  return mask;
}

function randomGraph(n: number, rnd: Xoshiro128): Graph {
  const g = emptyGraph(n);
  const p = 0.25 + 0.5 * rnd.uniform();
  for (let b = 1; b < n; b++)
    for (let a = 0; a < b; a++)
      if (rnd.uniform() < p) {
        g.adj[a]! |= 1 << b;
        g.adj[b]! |= 1 << a;
      }
  return g;
}

/** Builds the universe; pure CPU work (about a second), meant for a pool thread. */
export function buildUniverse(): UniverseData {
  const graphs: { adj: number[]; n: number; values: Float64Array; right: number }[] = [];
  const cache = new FeatureCache(emptyGraph(1));
  const add = (g: Graph): number => {
    cache.reset(g);
    const values = cache.computeAll().slice();
    const right = rightMask(g, values);
    graphs.push({ adj: Array.from(g.adj.slice(0, g.n)), n: g.n, values, right });
    return right;
  };
  for (let n = 1; n <= EXHAUSTIVE_MAX_N; n++) forEachLabelledGraph(n, (g) => void add(g));
  const hardFrom = graphs.length;
  const rnd = new Xoshiro128(restartState(HARD_SEED, 0));
  const wanted = HEURISTICS.map(() => HARD_PER_HEURISTIC);
  for (let tries = 0; tries < 200_000 && wanted.some((w) => w > 0); tries++) {
    const g = randomGraph(7 + (tries % 2), rnd);
    cache.reset(g);
    const mask = rightMask(g, cache.computeAll());
    const fails = HEURISTICS.map((_, bit) => ((mask >> bit) & 1) === 0 && wanted[bit]! > 0);
    if (!fails.some(Boolean)) continue;
    fails.forEach((f, bit) => {
      if (f) wanted[bit]!--;
    });
    add(g);
  }
  const count = graphs.length;
  const data: UniverseData = {
    count,
    hardFrom,
    values: new SharedArrayBuffer(count * FEATURE_COUNT * 8),
    adj: new SharedArrayBuffer(count * MAX_N * 2),
    n: new SharedArrayBuffer(count),
    right: new SharedArrayBuffer(count),
  };
  const values = new Float64Array(data.values);
  const adj = new Uint16Array(data.adj);
  const ns = new Uint8Array(data.n);
  const right = new Uint8Array(data.right);
  graphs.forEach((g, i) => {
    values.set(g.values, i * FEATURE_COUNT);
    adj.set(g.adj, i * MAX_N);
    ns[i] = g.n;
    right[i] = g.right;
  });
  return data;
}

export function openUniverse(data: UniverseData): Universe {
  const values = new Float64Array(data.values);
  const adj = new Uint16Array(data.adj);
  const ns = new Uint8Array(data.n);
  return {
    data,
    count: data.count,
    hardFrom: data.hardFrom,
    values,
    right: new Uint8Array(data.right),
    graph(index) {
      const n = ns[index]!;
      const g = emptyGraph(n);
      for (let v = 0; v < n; v++) g.adj[v] = adj[index * MAX_N + v]!;
      return g;
    },
    featureRow(index) {
      return values.subarray(index * FEATURE_COUNT, (index + 1) * FEATURE_COUNT);
    },
  };
}

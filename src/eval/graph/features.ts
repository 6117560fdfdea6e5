/**
 * The feature catalogue of the counterexample DSL and a lazy per-graph cache of their exact
 * values. Feature ids are positions in FEATURES; the native kernel uses the same ids.
 */
import { popcount, type Graph } from './graph.js';
import { cliqueNumber, independenceNumber } from './cliques.js';
import { chromaticNumber, greedyColourCount } from './colouring.js';
import {
  NONE,
  clawCentres,
  componentCount,
  diameter,
  girth,
  parityColouring,
  triangleCount,
} from './structure.js';

export type FeatureType = 'bool' | 'num';

export interface FeatureInfo {
  id: number;
  name: string;
  type: FeatureType;
  /** The exact definition, as documented in docs/dsl-grammar.md. */
  definition: string;
}

const TABLE: readonly [string, FeatureType, string][] = [
  ['n', 'num', 'number of vertices'],
  ['m', 'num', 'number of edges'],
  ['density', 'num', 'm / (n(n-1)/2); 0 when n = 1'],
  ['max_degree', 'num', 'largest vertex degree'],
  ['min_degree', 'num', 'smallest vertex degree'],
  ['is_connected', 'bool', 'exactly one connected component'],
  ['is_complete', 'bool', 'every pair of distinct vertices is adjacent (m = n(n-1)/2)'],
  ['is_forest', 'bool', 'no cycle (m = n - num_components)'],
  ['is_tree', 'bool', 'connected and no cycle (connected and m = n - 1)'],
  ['is_bipartite', 'bool', 'the vertices split into two independent sets (no odd cycle)'],
  ['is_triangle_free', 'bool', 'no three mutually adjacent vertices'],
  ['max_degree_le_2', 'bool', 'max_degree <= 2 (disjoint paths and cycles)'],
  ['has_universal_vertex', 'bool', 'some vertex is adjacent to all n - 1 others (true for n = 1)'],
  ['has_isolated_vertex', 'bool', 'some vertex has degree 0 (true for n = 1)'],
  ['is_regular', 'bool', 'all vertices have the same degree'],
  ['num_components', 'num', 'number of connected components (an isolated vertex is one)'],
  ['clique_number', 'num', 'size of a largest clique (1 for an edgeless graph)'],
  ['girth', 'num', 'length of a shortest cycle; 999 when the graph has no cycle'],
  ['chromatic_number', 'num', 'fewest colours in a proper vertex colouring (exact)'],
  [
    'greedy_colors',
    'num',
    'colours used by the greedy colouring: vertices by descending degree, ties to the lower index, each given the smallest colour absent from its coloured neighbours',
  ],
  ['independence_number', 'num', 'size of a largest set of pairwise non-adjacent vertices'],
  ['num_triangles', 'num', 'number of triangles (3-vertex cliques)'],
  ['diameter', 'num', 'largest distance between two vertices; 999 when disconnected; 0 when n = 1'],
  ['is_claw_free', 'bool', 'no induced K1,3: no vertex has three pairwise non-adjacent neighbours'],
  ['is_eulerian', 'bool', 'connected and every degree even (has a closed walk using every edge once)'],
];

export const FEATURES: readonly FeatureInfo[] = TABLE.map(([name, type, definition], id) => ({
  id,
  name,
  type,
  definition,
}));

export const FEATURE_NAMES: readonly string[] = FEATURES.map((f) => f.name);
export const FEATURE_COUNT = FEATURES.length;
const byName = new Map(FEATURES.map((f) => [f.name, f]));

export function featureByName(name: string): FeatureInfo | undefined {
  return byName.get(name);
}

/** Feature ids, for code that switches on them. */
export const F = {
  n: 0,
  m: 1,
  density: 2,
  max_degree: 3,
  min_degree: 4,
  is_connected: 5,
  is_complete: 6,
  is_forest: 7,
  is_tree: 8,
  is_bipartite: 9,
  is_triangle_free: 10,
  max_degree_le_2: 11,
  has_universal_vertex: 12,
  has_isolated_vertex: 13,
  is_regular: 14,
  num_components: 15,
  clique_number: 16,
  girth: 17,
  chromatic_number: 18,
  greedy_colors: 19,
  independence_number: 20,
  num_triangles: 21,
  diameter: 22,
  is_claw_free: 23,
  is_eulerian: 24,
} as const;

/** Features derived from the degree sequence, computed together in one pass. */
const DEGREE_GROUP =
  (1 << F.n) |
  (1 << F.m) |
  (1 << F.density) |
  (1 << F.max_degree) |
  (1 << F.min_degree) |
  (1 << F.is_complete) |
  (1 << F.max_degree_le_2) |
  (1 << F.has_universal_vertex) |
  (1 << F.has_isolated_vertex) |
  (1 << F.is_regular);

export const ALL_FEATURES_MASK = (1 << FEATURE_COUNT) - 1;

/**
 * Feature values of one graph, computed on first use and kept: booleans as 0/1. Reusable
 * across graphs with `reset`, so a search allocates nothing per step.
 */
export class FeatureCache {
  readonly values = new Float64Array(FEATURE_COUNT);
  private known = 0;
  private evenDegrees = false;
  graph: Graph;

  constructor(g: Graph) {
    this.graph = g;
  }

  reset(g: Graph): void {
    this.graph = g;
    this.known = 0;
  }

  /** Takes every value from a precomputed table (as computeAll returns it). */
  load(values: Float64Array): void {
    this.values.set(values);
    this.known = ALL_FEATURES_MASK;
  }

  /** The graph changed in place (e.g. an edge flip): forget every value. */
  invalidate(): void {
    this.known = 0;
  }

  get(id: number): number {
    if ((this.known >> id) & 1) return this.values[id]!;
    this.compute(id);
    return this.values[id]!;
  }

  bool(id: number): boolean {
    return this.get(id) !== 0;
  }

  /** Computes every feature (used to tabulate small graphs once). */
  computeAll(): Float64Array {
    for (let id = 0; id < FEATURE_COUNT; id++) this.get(id);
    return this.values;
  }

  private set(id: number, v: number): void {
    this.values[id] = v;
    this.known |= 1 << id;
  }

  private degrees(): void {
    const g = this.graph;
    const n = g.n;
    let sum = 0;
    let max = 0;
    let min = n;
    let even = true;
    for (let v = 0; v < n; v++) {
      const d = popcount(g.adj[v]!);
      sum += d;
      if (d > max) max = d;
      if (d < min) min = d;
      if (d & 1) even = false;
    }
    const m = sum >> 1;
    const pairs = (n * (n - 1)) / 2;
    this.evenDegrees = even;
    this.set(F.n, n);
    this.set(F.m, m);
    this.set(F.density, pairs === 0 ? 0 : m / pairs);
    this.set(F.max_degree, max);
    this.set(F.min_degree, min);
    this.set(F.is_complete, m === pairs ? 1 : 0);
    this.set(F.max_degree_le_2, max <= 2 ? 1 : 0);
    this.set(F.has_universal_vertex, max === n - 1 ? 1 : 0);
    this.set(F.has_isolated_vertex, min === 0 ? 1 : 0);
    this.set(F.is_regular, max === min ? 1 : 0);
  }

  private compute(id: number): void {
    const g = this.graph;
    if ((DEGREE_GROUP >> id) & 1) return this.degrees();
    switch (id) {
      case F.num_components:
        return this.set(id, componentCount(g));
      case F.is_connected:
        return this.set(id, this.get(F.num_components) === 1 ? 1 : 0);
      case F.is_forest:
        return this.set(id, this.get(F.m) === g.n - this.get(F.num_components) ? 1 : 0);
      case F.is_tree:
        return this.set(id, this.get(F.num_components) === 1 && this.get(F.m) === g.n - 1 ? 1 : 0);
      case F.is_bipartite:
        return this.set(id, parityColouring(g).conflicts === 0 ? 1 : 0);
      case F.num_triangles:
        return this.set(id, triangleCount(g));
      case F.is_triangle_free:
        return this.set(id, this.get(F.num_triangles) === 0 ? 1 : 0);
      case F.clique_number:
        return this.set(id, cliqueNumber(g));
      case F.independence_number:
        return this.set(id, independenceNumber(g));
      case F.girth:
        return this.set(id, girth(g));
      case F.diameter:
        return this.set(id, this.get(F.num_components) === 1 ? diameter(g) : NONE);
      case F.chromatic_number:
        return this.set(id, chromaticNumber(g));
      case F.greedy_colors:
        return this.set(id, greedyColourCount(g));
      case F.is_claw_free:
        return this.set(id, clawCentres(g) === 0 ? 1 : 0);
      case F.is_eulerian:
        this.get(F.m);
        return this.set(id, this.evenDegrees && this.get(F.num_components) === 1 ? 1 : 0);
      default:
        throw new RangeError(`unknown feature id ${id}`);
    }
  }
}

export type FeatureRecord = Record<string, number | boolean>;

/** Every feature of `g` by name, booleans as booleans: what a receipt shows for a witness. */
export function featureRecord(g: Graph): FeatureRecord {
  const values = new FeatureCache(g).computeAll();
  const out: FeatureRecord = {};
  for (const f of FEATURES) out[f.name] = f.type === 'bool' ? values[f.id] !== 0 : values[f.id]!;
  return out;
}

/**
 * Simple undirected graphs on at most 12 vertices as bitsets: `adj[v]` has bit `w` set when
 * v and w are adjacent. Small enough that every exact feature is a few bit operations.
 */

export const MAX_VERTICES = 12;

export interface Graph {
  readonly n: number;
  /** One adjacency mask per vertex; symmetric, no loops. */
  readonly adj: Uint16Array;
}

export type Edge = readonly [number, number];

export class GraphError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GraphError';
  }
}

function checkOrder(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > MAX_VERTICES)
    throw new GraphError(`a graph has 1 to ${MAX_VERTICES} vertices, not ${n}`);
}

export function emptyGraph(n: number): Graph {
  checkOrder(n);
  return { n, adj: new Uint16Array(n) };
}

export function graphFromEdges(n: number, edges: Iterable<Edge>): Graph {
  const g = emptyGraph(n);
  for (const [a, b] of edges) {
    if (!Number.isInteger(a) || !Number.isInteger(b) || a < 0 || b < 0 || a >= n || b >= n)
      throw new GraphError(`edge ${a}-${b} names a vertex outside 0..${n - 1}`);
    if (a === b) throw new GraphError(`edge ${a}-${b} is a loop; graphs are simple`);
    g.adj[a]! |= 1 << b;
    g.adj[b]! |= 1 << a;
  }
  return g;
}

/** Builds a graph from adjacency masks, checking symmetry and the absence of loops. */
export function graphFromMasks(n: number, masks: ArrayLike<number>): Graph {
  const g = emptyGraph(n);
  const all = (1 << n) - 1;
  for (let v = 0; v < n; v++) {
    const m = masks[v]!;
    if ((m & ~all) !== 0 || m & (1 << v)) throw new GraphError(`adjacency mask of vertex ${v} is invalid`);
    g.adj[v] = m;
  }
  for (let v = 0; v < n; v++)
    for (let w = 0; w < n; w++)
      if (((g.adj[v]! >> w) & 1) !== ((g.adj[w]! >> v) & 1))
        throw new GraphError(`adjacency is not symmetric between ${v} and ${w}`);
  return g;
}

export function hasEdge(g: Graph, a: number, b: number): boolean {
  return ((g.adj[a]! >> b) & 1) === 1;
}

/** Edges as [a, b] with a < b, sorted lexicographically. */
export function edgeList(g: Graph): [number, number][] {
  const out: [number, number][] = [];
  for (let a = 0; a < g.n; a++) for (let b = a + 1; b < g.n; b++) if ((g.adj[a]! >> b) & 1) out.push([a, b]);
  return out;
}

export function sameGraph(a: Graph, b: Graph): boolean {
  if (a.n !== b.n) return false;
  for (let v = 0; v < a.n; v++) if (a.adj[v] !== b.adj[v]) return false;
  return true;
}

/** Population count of a 32-bit value. */
export function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Index of the lowest set bit (x must be non-zero). */
export function lowestBit(x: number): number {
  return 31 - Math.clz32(x & -x);
}

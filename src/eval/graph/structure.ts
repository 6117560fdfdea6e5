/** Exact structural features of bitset graphs: components, 2-colouring, cycles, distances. */
import { lowestBit, popcount, type Graph } from './graph.js';

/** Returned for the girth of an acyclic graph and the diameter of a disconnected one. */
export const NONE = 999;

export function allMask(n: number): number {
  return (1 << n) - 1;
}

export function edgeCount(g: Graph): number {
  let s = 0;
  for (let v = 0; v < g.n; v++) s += popcount(g.adj[v]!);
  return s >> 1;
}

/** The vertex set of the component holding `v`, by bitset frontier expansion. */
export function componentOf(g: Graph, v: number): number {
  let comp = 1 << v;
  let frontier = comp;
  while (frontier !== 0) {
    let next = 0;
    for (let f = frontier; f !== 0; f &= f - 1) next |= g.adj[lowestBit(f)]!;
    frontier = next & ~comp;
    comp |= next;
  }
  return comp;
}

export function componentCount(g: Graph): number {
  let left = allMask(g.n);
  let count = 0;
  while (left !== 0) {
    left &= ~componentOf(g, lowestBit(left));
    count++;
  }
  return count;
}

/**
 * A parity 2-colouring, component by component (BFS layers alternate sides), as the mask of
 * side-1 vertices, with the number of edges whose ends got the same side: 0 exactly when the
 * graph is bipartite. The count is a cheap upper bound on the edges to delete to make it so.
 */
export function parityColouring(g: Graph): { side: number; conflicts: number } {
  let left = allMask(g.n);
  let side = 0;
  while (left !== 0) {
    const root = lowestBit(left);
    let seen = 1 << root;
    let frontier = seen;
    let parity = 0;
    while (frontier !== 0) {
      if (parity) side |= frontier;
      let next = 0;
      for (let f = frontier; f !== 0; f &= f - 1) next |= g.adj[lowestBit(f)]!;
      frontier = next & ~seen;
      seen |= next;
      parity ^= 1;
    }
    left &= ~seen;
  }
  let conflicts = 0;
  for (let v = 0; v < g.n; v++) {
    const same = (side >> v) & 1 ? side : ~side;
    conflicts += popcount(g.adj[v]! & same & ~((2 << v) - 1) & allMask(g.n));
  }
  return { side, conflicts };
}

export function triangleCount(g: Graph): number {
  let t = 0;
  for (let a = 0; a < g.n; a++) {
    const higherA = g.adj[a]! & ~((2 << a) - 1);
    for (let f = higherA; f !== 0; f &= f - 1) {
      const b = lowestBit(f);
      t += popcount(g.adj[a]! & g.adj[b]! & ~((2 << b) - 1));
    }
  }
  return t;
}

/** Eccentricity of v by BFS layers; NONE when some vertex is unreachable. */
export function eccentricity(g: Graph, v: number): number {
  const all = allMask(g.n);
  let seen = 1 << v;
  let frontier = seen;
  let depth = 0;
  while (seen !== all) {
    let next = 0;
    for (let f = frontier; f !== 0; f &= f - 1) next |= g.adj[lowestBit(f)]!;
    frontier = next & ~seen;
    if (frontier === 0) return NONE;
    seen |= frontier;
    depth++;
  }
  return depth;
}

export function diameter(g: Graph): number {
  let d = 0;
  for (let v = 0; v < g.n; v++) {
    const e = eccentricity(g, v);
    if (e === NONE) return NONE;
    if (e > d) d = e;
  }
  return d;
}

/**
 * Length of a shortest cycle: BFS from every vertex; a non-tree edge between layers i and j
 * closes a closed walk of length i + j + 1 that contains a cycle at most that long, and the
 * BFS rooted on a shortest cycle finds it exactly, so the minimum over roots is the girth.
 */
export function girth(g: Graph): number {
  let best = NONE;
  const dist = new Int8Array(g.n);
  const parent = new Int8Array(g.n);
  const queue = new Int8Array(g.n);
  for (let root = 0; root < g.n; root++) {
    dist.fill(-1);
    dist[root] = 0;
    parent[root] = -1;
    let head = 0;
    let tail = 0;
    queue[tail++] = root;
    while (head < tail) {
      const u = queue[head++]!;
      // Every cycle closed from layer d has length at least 2d.
      if (2 * dist[u]! >= best) break;
      for (let f = g.adj[u]!; f !== 0; f &= f - 1) {
        const w = lowestBit(f);
        if (dist[w] === -1) {
          dist[w] = dist[u]! + 1;
          parent[w] = u;
          queue[tail++] = w;
        } else if (parent[u] !== w) {
          const len = dist[u]! + dist[w]! + 1;
          if (len < best) best = len;
        }
      }
    }
  }
  return best;
}

/** Number of vertices that centre an induced claw K1,3 (three pairwise non-adjacent neighbours). */
export function clawCentres(g: Graph): number {
  let centres = 0;
  for (let v = 0; v < g.n; v++) {
    const nb = g.adj[v]!;
    if (popcount(nb) < 3) continue;
    let found = false;
    for (let fa = nb; fa !== 0 && !found; fa &= fa - 1) {
      const a = lowestBit(fa);
      const rest = nb & ~g.adj[a]! & ~((2 << a) - 1);
      for (let fb = rest; fb !== 0; fb &= fb - 1) {
        const b = lowestBit(fb);
        if ((rest & ~g.adj[b]! & ~((2 << b) - 1)) !== 0) {
          found = true;
          break;
        }
      }
    }
    if (found) centres++;
  }
  return centres;
}

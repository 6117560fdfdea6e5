/** Clique and independence numbers by bitset branch and bound (exact). */
import { lowestBit, popcount, type Graph } from './graph.js';
import { allMask } from './structure.js';

function maxCliqueIn(adj: ArrayLike<number>, candidates: number, size: number, best: number): number {
  if (candidates === 0) return size > best ? size : best;
  if (size + popcount(candidates) <= best) return best;
  let p = candidates;
  while (p !== 0) {
    if (size + popcount(p) <= best) return best;
    const v = lowestBit(p);
    p &= p - 1;
    best = maxCliqueIn(adj, p & adj[v]!, size + 1, best);
  }
  return best;
}

export function cliqueNumber(g: Graph): number {
  return maxCliqueIn(g.adj, allMask(g.n), 0, 0);
}

export function complementAdjacency(g: Graph): Uint16Array {
  const all = allMask(g.n);
  const c = new Uint16Array(g.n);
  for (let v = 0; v < g.n; v++) c[v] = ~g.adj[v]! & all & ~(1 << v);
  return c;
}

export function independenceNumber(g: Graph): number {
  return maxCliqueIn(complementAdjacency(g), allMask(g.n), 0, 0);
}

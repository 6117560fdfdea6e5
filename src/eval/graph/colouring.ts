/**
 * Vertex colourings: the greedy colouring the reference's claim is about, and an exact
 * chromatic number by DSATUR-ordered branch and bound over colour-class bitsets.
 */
import { lowestBit, popcount, type Graph } from './graph.js';
import { cliqueNumber } from './cliques.js';

/** Vertices by descending degree, ties to the lower index. */
export function greedyOrder(g: Graph): number[] {
  const order = Array.from({ length: g.n }, (_, v) => v);
  const deg = order.map((v) => popcount(g.adj[v]!));
  order.sort((a, b) => deg[b]! - deg[a]! || a - b);
  return order;
}

/** Greedy colouring in `greedyOrder`: each vertex takes the smallest colour its coloured neighbours lack. */
export function greedyColouring(g: Graph): number[] {
  const colour = new Array<number>(g.n).fill(-1);
  const classes: number[] = [];
  for (const v of greedyOrder(g)) {
    let c = 0;
    while (c < classes.length && (classes[c]! & g.adj[v]!) !== 0) c++;
    if (c === classes.length) classes.push(0);
    classes[c]! |= 1 << v;
    colour[v] = c;
  }
  return colour;
}

export function greedyColourCount(g: Graph): number {
  // Same rule as greedyColouring without allocating the colour array (hot in the search).
  const deg = new Int8Array(g.n);
  for (let v = 0; v < g.n; v++) deg[v] = popcount(g.adj[v]!);
  let done = 0;
  let used = 0;
  const classes = new Uint16Array(g.n);
  for (let k = 0; k < g.n; k++) {
    let v = -1;
    for (let u = 0; u < g.n; u++) if (!((done >> u) & 1) && (v < 0 || deg[u]! > deg[v]!)) v = u;
    done |= 1 << v;
    let c = 0;
    while (c < used && (classes[c]! & g.adj[v]!) !== 0) c++;
    if (c === used) used++;
    classes[c]! |= 1 << v;
  }
  return used;
}

interface Search {
  g: Graph;
  k: number;
  classes: Uint16Array;
  colour: Int8Array;
}

/** Tries to extend a partial colouring to a proper colouring with at most `k` colours. */
function extend(s: Search, coloured: number, used: number): boolean {
  const { g } = s;
  if (coloured === (1 << g.n) - 1) return true;
  // DSATUR: the uncoloured vertex seeing the most distinct colours, then the highest
  // uncoloured degree, then the lowest index. Deterministic, so the colouring found is too.
  let best = -1;
  let bestSat = -1;
  let bestDeg = -1;
  for (let v = 0; v < g.n; v++) {
    if ((coloured >> v) & 1) continue;
    let sat = 0;
    for (let c = 0; c < used; c++) if (s.classes[c]! & g.adj[v]!) sat++;
    const deg = popcount(g.adj[v]! & ~coloured);
    if (sat > bestSat || (sat === bestSat && deg > bestDeg)) {
      best = v;
      bestSat = sat;
      bestDeg = deg;
    }
  }
  const v = best;
  // A fresh colour is tried only once (colour `used`): the classes are interchangeable.
  const limit = used < s.k ? used + 1 : s.k;
  for (let c = 0; c < limit; c++) {
    if (s.classes[c]! & g.adj[v]!) continue;
    s.classes[c]! |= 1 << v;
    s.colour[v] = c;
    if (extend(s, coloured | (1 << v), c === used ? used + 1 : used)) return true;
    s.classes[c]! &= ~(1 << v);
  }
  s.colour[v] = -1;
  return false;
}

export interface ExactColouring {
  chromaticNumber: number;
  /** A proper colouring with exactly `chromaticNumber` colours. */
  colouring: number[];
}

/** A proper colouring with at most k colours, or null when none exists (exhaustive search). */
export function colourWith(g: Graph, k: number): number[] | null {
  const s: Search = { g, k, classes: new Uint16Array(g.n), colour: new Int8Array(g.n).fill(-1) };
  return extend(s, 0, 0) ? Array.from(s.colour) : null;
}

/** The chromatic number: the smallest k >= clique number for which a k-colouring exists. */
export function exactColouring(g: Graph): ExactColouring {
  // The greedy colouring is an upper bound: only the k between the clique number and it
  // need a search, and none at all when the two bounds meet.
  const greedy = greedyColouring(g);
  const upper = colourCount(greedy);
  for (let k = Math.max(1, cliqueNumber(g)); k < upper; k++) {
    const c = colourWith(g, k);
    if (c) return { chromaticNumber: k, colouring: c };
  }
  return { chromaticNumber: upper, colouring: greedy };
}

export function chromaticNumber(g: Graph): number {
  const upper = greedyColourCount(g);
  for (let k = Math.max(1, cliqueNumber(g)); k < upper; k++) if (colourWith(g, k)) return k;
  return upper;
}

/** True when `colour` gives every vertex a colour and no edge two equal colours. */
export function isProperColouring(g: Graph, colour: readonly number[]): boolean {
  if (colour.length !== g.n) return false;
  for (let v = 0; v < g.n; v++) {
    const c = colour[v]!;
    if (!Number.isInteger(c) || c < 0) return false;
    for (let f = g.adj[v]!; f !== 0; f &= f - 1) if (colour[lowestBit(f)] === c) return false;
  }
  return true;
}

export function colourCount(colour: readonly number[]): number {
  return new Set(colour).size;
}

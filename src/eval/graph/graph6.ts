/**
 * graph6 (Brendan McKay's format, as used by nauty and networkx) for graphs on 1..12
 * vertices: one byte N(n) = n + 63, then the upper triangle column by column
 * (0-1, 0-2, 1-2, 0-3, ...) packed six bits per byte, most significant first, plus 63.
 */
import { GraphError, MAX_VERTICES, emptyGraph, type Graph } from './graph.js';

export function toGraph6(g: Graph): string {
  const bits: number[] = [];
  for (let j = 1; j < g.n; j++) for (let i = 0; i < j; i++) bits.push((g.adj[i]! >> j) & 1);
  while (bits.length % 6 !== 0) bits.push(0);
  let out = String.fromCharCode(g.n + 63);
  for (let k = 0; k < bits.length; k += 6) {
    let v = 0;
    for (let b = 0; b < 6; b++) v = (v << 1) | bits[k + b]!;
    out += String.fromCharCode(v + 63);
  }
  return out;
}

export function fromGraph6(text: string): Graph {
  const s = text.startsWith('>>graph6<<') ? text.slice(10) : text;
  if (s.length === 0) throw new GraphError('graph6 string is empty');
  const n = s.charCodeAt(0) - 63;
  if (n < 1 || n > MAX_VERTICES)
    throw new GraphError(
      `graph6 string encodes ${n < 0 ? 'an invalid' : n} vertex count; 1..${MAX_VERTICES} supported`,
    );
  const pairs = (n * (n - 1)) / 2;
  const need = Math.ceil(pairs / 6);
  if (s.length !== 1 + need)
    throw new GraphError(`graph6 string for ${n} vertices must be ${1 + need} characters, not ${s.length}`);
  for (let p = 1; p < s.length; p++) {
    const c = s.charCodeAt(p);
    if (c < 63 || c > 126) throw new GraphError(`graph6 character at position ${p + 1} is out of range`);
  }
  const g = emptyGraph(n);
  let k = 0;
  for (let j = 1; j < n; j++) {
    for (let i = 0; i < j; i++, k++) {
      const c = s.charCodeAt(1 + Math.floor(k / 6)) - 63;
      if ((c >> (5 - (k % 6))) & 1) {
        g.adj[i]! |= 1 << j;
        g.adj[j]! |= 1 << i;
      }
    }
  }
  // Padding bits must be zero, or two strings would decode to the same graph.
  for (; k < need * 6; k++) {
    const c = s.charCodeAt(1 + Math.floor(k / 6)) - 63;
    if ((c >> (5 - (k % 6))) & 1) throw new GraphError('graph6 string has non-zero padding bits');
  }
  return g;
}

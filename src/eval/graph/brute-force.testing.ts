/** Slow, obviously-correct feature definitions that the tests check the fast kernel against. */
import { graphFromEdges, hasEdge, type Edge, type Graph } from './graph.js';

export function xorshift(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

export function randomGraph(n: number, p: number, rnd: () => number): Graph {
  const edges: Edge[] = [];
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) if (rnd() / 2 ** 32 < p) edges.push([a, b]);
  return graphFromEdges(n, edges);
}

function subsets(n: number): number[] {
  return Array.from({ length: 1 << n }, (_, i) => i);
}

const bits = (s: number, n: number): number[] =>
  Array.from({ length: n }, (_, v) => v).filter((v) => (s >> v) & 1);

function isClique(g: Graph, s: number): boolean {
  const vs = bits(s, g.n);
  return vs.every((a, i) => vs.slice(i + 1).every((b) => hasEdge(g, a, b)));
}

function isIndependent(g: Graph, s: number): boolean {
  const vs = bits(s, g.n);
  return vs.every((a, i) => vs.slice(i + 1).every((b) => !hasEdge(g, a, b)));
}

function distances(g: Graph): number[][] {
  const INF = 1e9;
  const d: number[][] = Array.from({ length: g.n }, (_, a) =>
    Array.from({ length: g.n }, (_, b) => (a === b ? 0 : hasEdge(g, a, b) ? 1 : INF)),
  );
  for (let k = 0; k < g.n; k++)
    for (let i = 0; i < g.n; i++)
      for (let j = 0; j < g.n; j++) d[i]![j] = Math.min(d[i]![j]!, d[i]![k]! + d[k]![j]!);
  return d;
}

export function brute(g: Graph): Record<string, number | boolean> {
  const n = g.n;
  const deg = Array.from({ length: n }, (_, v) => bits(g.adj[v]!, n).length);
  const m = deg.reduce((a, b) => a + b, 0) / 2;
  const d = distances(g);
  const connected = d.every((row) => row.every((x) => x < 1e9));
  // Components by union-find.
  const parent = Array.from({ length: n }, (_, v) => v);
  const find = (v: number): number => (parent[v] === v ? v : (parent[v] = find(parent[v]!)));
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) if (hasEdge(g, a, b)) parent[find(a)] = find(b);
  const comps = new Set(Array.from({ length: n }, (_, v) => find(v))).size;
  let triangles = 0;
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++)
      for (let c = b + 1; c < n; c++)
        if (hasEdge(g, a, b) && hasEdge(g, b, c) && hasEdge(g, a, c)) triangles++;
  // Girth: shortest path between the ends of each edge with that edge removed, plus one.
  let girth = 999;
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++) {
      if (!hasEdge(g, a, b)) continue;
      const h = graphFromEdges(
        n,
        bits((1 << n) - 1, n).flatMap((x) =>
          bits(g.adj[x]!, n)
            .filter((y) => x < y && !(x === a && y === b))
            .map((y): Edge => [x, y]),
        ),
      );
      const dd = distances(h)[a]![b]!;
      if (dd < 1e9) girth = Math.min(girth, dd + 1);
    }
  const all = subsets(n);
  const clique = Math.max(...all.filter((s) => isClique(g, s)).map((s) => bits(s, n).length));
  const alpha = Math.max(...all.filter((s) => isIndependent(g, s)).map((s) => bits(s, n).length));
  // Chromatic number: fewest independent sets covering all vertices (subset DP).
  const chi = new Array<number>(1 << n).fill(Infinity);
  chi[0] = 0;
  for (let s = 1; s < 1 << n; s++) {
    const low = s & -s;
    for (let t = s; t > 0; t = (t - 1) & s)
      if (t & low && isIndependent(g, t)) chi[s] = Math.min(chi[s]!, chi[s ^ t]! + 1);
  }
  const bipartite = all.some((side) => {
    for (let a = 0; a < n; a++)
      for (let b = 0; b < n; b++)
        if (hasEdge(g, a, b) && ((side >> a) & 1) === ((side >> b) & 1)) return false;
    return true;
  });
  let claw = false;
  for (let v = 0; v < n; v++)
    for (let a = 0; a < n; a++)
      for (let b = a + 1; b < n; b++)
        for (let c = b + 1; c < n; c++)
          if (
            [a, b, c].every((x) => hasEdge(g, v, x)) &&
            !hasEdge(g, a, b) &&
            !hasEdge(g, a, c) &&
            !hasEdge(g, b, c)
          )
            claw = true;
  const diam = connected ? Math.max(...d.flat()) : 999;
  return {
    n,
    m,
    density: n < 2 ? 0 : m / ((n * (n - 1)) / 2),
    max_degree: Math.max(...deg),
    min_degree: Math.min(...deg),
    is_connected: connected,
    is_complete: m === (n * (n - 1)) / 2,
    is_forest: girth === 999,
    is_tree: connected && girth === 999,
    is_bipartite: bipartite,
    is_triangle_free: triangles === 0,
    max_degree_le_2: Math.max(...deg) <= 2,
    has_universal_vertex: deg.some((x) => x === n - 1),
    has_isolated_vertex: deg.some((x) => x === 0),
    is_regular: deg.every((x) => x === deg[0]),
    num_components: comps,
    clique_number: clique,
    girth,
    chromatic_number: chi[(1 << n) - 1]!,
    independence_number: alpha,
    num_triangles: triangles,
    diameter: diam,
    is_claw_free: !claw,
    is_eulerian: connected && deg.every((x) => x % 2 === 0),
  };
}

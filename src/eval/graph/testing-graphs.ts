/** Named graphs used by tests and examples (all on at most 12 vertices). */
import { graphFromEdges, type Edge, type Graph } from './graph.js';

export function cycle(n: number): Graph {
  return graphFromEdges(
    n,
    Array.from({ length: n }, (_, i): Edge => [i, (i + 1) % n]),
  );
}

export function path(n: number): Graph {
  return graphFromEdges(
    n,
    Array.from({ length: n - 1 }, (_, i): Edge => [i, i + 1]),
  );
}

export function complete(n: number): Graph {
  const edges: Edge[] = [];
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) edges.push([a, b]);
  return graphFromEdges(n, edges);
}

export function completeBipartite(p: number, q: number): Graph {
  const edges: Edge[] = [];
  for (let a = 0; a < p; a++) for (let b = 0; b < q; b++) edges.push([a, p + b]);
  return graphFromEdges(p + q, edges);
}

export function petersen(): Graph {
  const edges: Edge[] = [];
  for (let i = 0; i < 5; i++) {
    edges.push([i, (i + 1) % 5]); // outer 5-cycle
    edges.push([i, i + 5]); // spokes
    edges.push([5 + i, 5 + ((i + 2) % 5)]); // inner pentagram
  }
  return graphFromEdges(10, edges);
}

/** eval-tools.md's fixture: connected, triangle-free, not bipartite, chi 3, greedy uses 4. */
export const GREEDY_FIXTURE_EDGES: readonly Edge[] = [
  [0, 1],
  [0, 5],
  [0, 10],
  [1, 6],
  [1, 8],
  [2, 7],
  [3, 7],
  [4, 5],
  [4, 8],
  [4, 10],
  [5, 9],
  [7, 9],
  [8, 9],
];

export function greedyFixture(): Graph {
  return graphFromEdges(11, GREEDY_FIXTURE_EDGES);
}

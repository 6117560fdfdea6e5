import { describe, expect, it } from 'vitest';
import { featureRecord, FEATURE_NAMES } from './features.js';
import { emptyGraph, graphFromEdges, type Graph } from './graph.js';
import { exactColouring, greedyColouring, isProperColouring, colourCount } from './colouring.js';
import { complete, completeBipartite, cycle, greedyFixture, path, petersen } from './testing-graphs.js';
import { brute, randomGraph, xorshift } from './brute-force.testing.js';

const expected = (g: Graph, values: Record<string, number | boolean>): void => {
  const got = featureRecord(g);
  expect(Object.keys(got)).toEqual([...FEATURE_NAMES]);
  for (const [k, v] of Object.entries(values)) expect({ [k]: got[k] }).toEqual({ [k]: v });
};

describe('features on known graphs', () => {
  it('Petersen graph', () => {
    expected(petersen(), {
      n: 10,
      m: 15,
      density: 1 / 3,
      max_degree: 3,
      min_degree: 3,
      is_regular: true,
      is_connected: true,
      is_complete: false,
      is_forest: false,
      is_tree: false,
      is_bipartite: false,
      is_triangle_free: true,
      max_degree_le_2: false,
      has_universal_vertex: false,
      has_isolated_vertex: false,
      num_components: 1,
      clique_number: 2,
      girth: 5,
      chromatic_number: 3,
      greedy_colors: 3,
      independence_number: 4,
      num_triangles: 0,
      diameter: 2,
      is_claw_free: false,
      is_eulerian: false,
    });
  });

  it('C5', () => {
    expected(cycle(5), {
      n: 5,
      m: 5,
      density: 0.5,
      max_degree: 2,
      min_degree: 2,
      is_connected: true,
      is_forest: false,
      is_bipartite: false,
      is_triangle_free: true,
      max_degree_le_2: true,
      is_regular: true,
      clique_number: 2,
      girth: 5,
      chromatic_number: 3,
      greedy_colors: 3,
      independence_number: 2,
      diameter: 2,
      is_claw_free: true,
      is_eulerian: true,
    });
  });

  it('C6 is bipartite with girth 6', () => {
    expected(cycle(6), {
      is_bipartite: true,
      girth: 6,
      chromatic_number: 2,
      diameter: 3,
      independence_number: 3,
    });
  });

  it('K4', () => {
    expected(complete(4), {
      m: 6,
      density: 1,
      is_complete: true,
      has_universal_vertex: true,
      is_bipartite: false,
      is_triangle_free: false,
      clique_number: 4,
      girth: 3,
      chromatic_number: 4,
      greedy_colors: 4,
      independence_number: 1,
      num_triangles: 4,
      diameter: 1,
      is_claw_free: true,
      is_eulerian: false,
    });
  });

  it('K5 is Eulerian', () => {
    expected(complete(5), { is_eulerian: true, num_triangles: 10, chromatic_number: 5 });
  });

  it('K3,3', () => {
    expected(completeBipartite(3, 3), {
      n: 6,
      m: 9,
      density: 0.6,
      is_regular: true,
      max_degree: 3,
      is_bipartite: true,
      is_triangle_free: true,
      clique_number: 2,
      girth: 4,
      chromatic_number: 2,
      greedy_colors: 2,
      independence_number: 3,
      diameter: 2,
      is_claw_free: false,
      is_eulerian: false,
      is_forest: false,
    });
  });

  it('the star K1,5', () => {
    expected(completeBipartite(1, 5), {
      n: 6,
      m: 5,
      max_degree: 5,
      min_degree: 1,
      is_tree: true,
      is_forest: true,
      is_bipartite: true,
      has_universal_vertex: true,
      has_isolated_vertex: false,
      is_regular: false,
      clique_number: 2,
      girth: 999,
      chromatic_number: 2,
      greedy_colors: 2,
      independence_number: 5,
      diameter: 2,
      is_claw_free: false,
      max_degree_le_2: false,
    });
  });

  it('paths', () => {
    expected(path(4), {
      m: 3,
      is_tree: true,
      girth: 999,
      diameter: 3,
      chromatic_number: 2,
      independence_number: 2,
      is_claw_free: true,
      max_degree_le_2: true,
      is_eulerian: false,
    });
    expected(path(2), { is_complete: true, has_universal_vertex: true, diameter: 1, density: 1 });
    expected(path(1), {
      n: 1,
      m: 0,
      density: 0,
      is_connected: true,
      is_tree: true,
      is_complete: true,
      has_universal_vertex: true,
      has_isolated_vertex: true,
      is_regular: true,
      num_components: 1,
      clique_number: 1,
      chromatic_number: 1,
      greedy_colors: 1,
      independence_number: 1,
      girth: 999,
      diameter: 0,
      is_claw_free: true,
      is_eulerian: true,
    });
  });

  it('the empty graph on 5 vertices', () => {
    expected(emptyGraph(5), {
      m: 0,
      density: 0,
      is_connected: false,
      num_components: 5,
      is_forest: true,
      is_tree: false,
      is_bipartite: true,
      has_isolated_vertex: true,
      is_regular: true,
      clique_number: 1,
      chromatic_number: 1,
      greedy_colors: 1,
      independence_number: 5,
      diameter: 999,
      girth: 999,
      is_claw_free: true,
      is_eulerian: false,
    });
  });

  it("eval-tools.md's 11-vertex fixture: chi 3, greedy 4", () => {
    const g = greedyFixture();
    expected(g, {
      n: 11,
      m: 13,
      is_connected: true,
      is_triangle_free: true,
      is_bipartite: false,
      chromatic_number: 3,
      greedy_colors: 4,
    });
    const greedy = greedyColouring(g);
    const exact = exactColouring(g);
    expect(isProperColouring(g, greedy)).toBe(true);
    expect(colourCount(greedy)).toBe(4);
    expect(isProperColouring(g, exact.colouring)).toBe(true);
    expect(colourCount(exact.colouring)).toBe(3);
  });

  it('two disjoint triangles: disconnected, diameter 999, girth 3', () => {
    const g = graphFromEdges(6, [
      [0, 1],
      [1, 2],
      [0, 2],
      [3, 4],
      [4, 5],
      [3, 5],
    ]);
    expected(g, {
      num_components: 2,
      diameter: 999,
      girth: 3,
      is_eulerian: false,
      num_triangles: 2,
      is_regular: true,
    });
  });
});

describe('features agree with brute-force definitions', () => {
  it('on 600 random graphs with 1..8 vertices', () => {
    const rnd = xorshift(12345);
    for (let i = 0; i < 600; i++) {
      const n = 1 + (i % 8);
      const g = randomGraph(n, (rnd() % 101) / 100, rnd);
      const got = featureRecord(g);
      const want = brute(g);
      for (const [k, v] of Object.entries(want)) expect({ i, [k]: got[k] }).toEqual({ i, [k]: v });
      const c = exactColouring(g);
      expect(isProperColouring(g, c.colouring)).toBe(true);
      expect(colourCount(c.colouring)).toBe(c.chromaticNumber);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { FeatureCache } from '../graph/features.js';
import { emptyGraph } from '../graph/graph.js';
import { complete, cycle, greedyFixture, path, petersen } from '../graph/testing-graphs.js';
import { tabulatedSmallGraphs } from '../graph/enumerate.js';
import { canonicalForm, compileExpression, parseExpression, truthTable } from './index.js';

const holds = (src: string, g = petersen()): boolean => compileExpression(parseExpression(src))(g);

describe('compiled predicates', () => {
  it('evaluate features, arithmetic and logic', () => {
    expect(holds('n == 10 and m == 15 and is_regular and girth == 5')).toBe(true);
    expect(holds('chromatic_number == 3 and independence_number == 4 and diameter == 2')).toBe(true);
    expect(holds('is_claw_free')).toBe(false);
    expect(holds('2 <= max_degree <= 4')).toBe(true);
    expect(holds('2 <= max_degree <= 2')).toBe(false);
    expect(holds('m * 2 == n * max_degree')).toBe(true);
    expect(holds('m - n - 5 == 0')).toBe(true);
    expect(holds('m - (n - 5) == 10')).toBe(true);
    expect(holds('-n + 10 == 0')).toBe(true);
    expect(holds('density * 3 == 1')).toBe(true);
    expect(holds('density > 0.33 and density < 0.34')).toBe(true);
    expect(holds('is_tree == is_forest')).toBe(true);
    expect(holds('is_tree != is_connected')).toBe(true);
    expect(holds('is_tree => false')).toBe(true);
    expect(holds('is_connected => false')).toBe(false);
    expect(holds('false or true and not false')).toBe(true);
    expect(holds('girth < 999 and diameter < 999')).toBe(true);
    expect(holds('girth == 999', path(5))).toBe(true);
    expect(holds('diameter == 999', emptyGraph(3))).toBe(true);
    expect(holds('greedy_colors > chromatic_number', greedyFixture())).toBe(true);
    expect(holds('is_eulerian and max_degree_le_2', cycle(7))).toBe(true);
    expect(holds('has_universal_vertex and is_complete and num_triangles == 10', complete(5))).toBe(true);
  });

  it('short-circuits: features behind a false conjunct are not computed', () => {
    const p = compileExpression(parseExpression('n > 100 and chromatic_number > 2'));
    const cache = new FeatureCache(petersen());
    expect(p.onCache(cache)).toBe(false);
    // chromatic_number (id 18) stayed unknown: reading it now computes it.
    expect(p.features).toEqual([0, 18]);
  });

  it('evaluates the same on precomputed values as on graphs', () => {
    const exprs = [
      'is_tree => m == n - 1',
      'is_connected and not is_bipartite',
      'girth > 3 or density >= 0.5',
    ];
    for (const src of exprs) {
      const p = compileExpression(parseExpression(src));
      for (const row of tabulatedSmallGraphs(4)) expect(p.onValues(row.values)).toBe(p(row.graph));
    }
  });

  it('truth tables identify equivalent expressions written differently', () => {
    const t = (s: string): string =>
      Buffer.from(truthTable(compileExpression(parseExpression(s)), 5)).toString('hex');
    expect(t('is_connected and is_triangle_free')).toBe(t('is_triangle_free and is_connected'));
    expect(t('is_tree')).toBe(t('is_connected and m == n - 1'));
    expect(t('is_tree')).not.toBe(t('is_forest'));
    expect(truthTable(compileExpression(parseExpression('true')), 5)).toHaveLength(1099);
    expect(canonicalForm(parseExpression('is_tree'))).toBe('is_tree');
  });
});

import { describe, expect, it } from 'vitest';
import { randomGraph, xorshift } from '../graph/brute-force.testing.js';
import { FEATURES, FeatureCache, featureRecord } from '../graph/features.js';
import { MAX_VERTICES, emptyGraph, graphFromEdges, type Edge } from '../graph/graph.js';
import { compileExpression } from './compile.js';
import { FEATURE_MAXIMA, MAX_MAGNITUDE, magnitudeBound } from './magnitude.js';
import { parseExpression, tryParseExpression, type DslError } from './index.js';

const N = MAX_VERTICES;
const complete = (n: number) => {
  const edges: Edge[] = [];
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) edges.push([a, b]);
  return graphFromEdges(n, edges);
};

function error(src: string): DslError {
  const r = tryParseExpression(src);
  if (r.ok) throw new Error(`expected ${src} to fail`);
  return r.error;
}

const MAX_INT = '9007199254740991';

describe('static magnitude bounds', () => {
  it('bounds every numeric feature, and the bounds are reached or exceeded by no graph', () => {
    const numeric = FEATURES.filter((f) => f.type === 'num').map((f) => f.name);
    expect(Object.keys(FEATURE_MAXIMA).sort()).toEqual([...numeric].sort());
    // The extremes: K12 has 66 edges and 220 triangles, 12 isolated vertices are 12 components,
    // and a graph without a cycle or a path between two vertices has girth/diameter 999.
    const k = featureRecord(complete(N));
    expect([k.m, k.num_triangles, k.clique_number, k.max_degree, k.density]).toEqual([66, 220, 12, 11, 1]);
    const e = featureRecord(emptyGraph(N));
    expect([e.num_components, e.independence_number, e.girth, e.diameter]).toEqual([12, 12, 999, 999]);
    const rnd = xorshift(17);
    for (let i = 0; i < 400; i++) {
      const g = randomGraph(1 + (i % N), (rnd() % 101) / 100, rnd);
      const values = new FeatureCache(g).computeAll();
      for (const f of FEATURES) {
        const v = values[f.id]!;
        expect(Math.abs(v)).toBeLessThanOrEqual(FEATURE_MAXIMA[f.name] ?? 1);
      }
    }
  });

  it("rejects the reviewer's overflowing product at the column of the '*' that overflows", () => {
    const factors = Array.from({ length: 20 }, () => MAX_INT).join('*');
    const src = `is_connected => ${factors}*(n-n) == 0`;
    const err = error(src);
    expect(err.kind).toBe('too_large');
    // MAX_INT * MAX_INT already exceeds 2^53 - 1: the first '*' is the offending one.
    expect(err.column).toBe(src.indexOf('*') + 1);
    expect(err.message).toContain(`'*' at column ${err.column}`);
    expect(err.message).toMatch(/2\^53 - 1/);
  });

  it('names the column of an overflowing + or -, and of a product inside parentheses', () => {
    expect(error(`${MAX_INT} + 1 > n`)).toMatchObject({ kind: 'too_large', column: 18 });
    expect(error(`-${MAX_INT} - n < 0`)).toMatchObject({ kind: 'too_large', column: 19 });
    // 999^6 > 2^53 - 1 > 999^5: the sixth factor's '*' is the one.
    const src = 'n > (girth * girth * girth * girth * girth * diameter)';
    expect(error(src)).toMatchObject({ kind: 'too_large', column: src.lastIndexOf('*') + 1 });
    expect(error(`n * ${MAX_INT} > 0`)).toMatchObject({ kind: 'too_large', column: 3 });
  });

  it('still accepts ordinary large-ish expressions, up to exactly 2^53 - 1', () => {
    for (const src of [
      'girth * diameter * m * n * num_triangles <= 1000000',
      'girth * girth * girth * girth * girth > 0',
      `${MAX_INT} * 1 > n`,
      `${MAX_INT} >= n * 1`,
      `4503599627370495 + 4503599627370496 > n`, // exactly 2^53 - 1
      `-${MAX_INT} < -n`,
      `density * ${MAX_INT} >= 0`,
      '2 * m >= n and 3 * num_triangles <= m * max_degree',
      '(m - n + num_components) * 1000 == 1000 * (m - n + num_components)',
    ])
      expect(tryParseExpression(src).ok, src).toBe(true);
  });

  it("is conservative: a sum's bound adds magnitudes, so cancellation does not lift it", () => {
    expect(error(`${MAX_INT} - 12 >= n`)).toMatchObject({ kind: 'too_large', column: 18 });
    expect(error(`${MAX_INT} * (n - n) == 0`)).toMatchObject({ kind: 'too_large', column: 18 });
  });

  it('bounds every partial result of an accepted expression, so evaluation is exact', () => {
    const e = parseExpression(`girth * diameter * num_triangles * m * 12 - 1000 + 1 <= 0`);
    if (e.kind !== 'compare') throw new Error('not a comparison');
    expect(magnitudeBound(e.args[0]!)).toBeLessThanOrEqual(MAX_MAGNITUDE);
    // A cancellation the reviewer's overflow would have turned into NaN stays exact.
    const zero = compileExpression(
      parseExpression(
        '999 * 999 * 999 * 999 * (girth - girth) == 0 and 999 * 999 * 999 * 999 * 999 + n - 999 * 999 * 999 * 999 * 999 == n',
      ),
    );
    for (let n = 1; n <= N; n++) expect(zero(complete(n))).toBe(true);
  });
});

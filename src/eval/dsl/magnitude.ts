/**
 * Static magnitude bounds of numeric sub-expressions. Every feature has a known largest value
 * on graphs with at most MAX_VERTICES vertices and every literal is at most 2^53 - 1, so the
 * parser can bound each sum and product before any graph is seen, and reject an expression
 * whose arithmetic could leave the range where doubles hold integers exactly. Without this,
 * `x * y * ... * (n - n)` overflows to Infinity, Infinity * 0 is NaN, and a true claim is
 * reported false.
 */
import { MAX_VERTICES } from '../graph/graph.js';
import { NONE } from '../graph/structure.js';
import type { Expr } from './ast.js';

/** Largest magnitude any numeric sub-expression may reach: beyond it integers stop being exact. */
export const MAX_MAGNITUDE = Number.MAX_SAFE_INTEGER;

const N = MAX_VERTICES;

/** Largest value of each numeric feature on a graph with 1..MAX_VERTICES vertices (all are >= 0). */
export const FEATURE_MAXIMA: Readonly<Record<string, number>> = {
  n: N,
  m: (N * (N - 1)) / 2,
  density: 1,
  max_degree: N - 1,
  min_degree: N - 1,
  num_components: N,
  clique_number: N,
  girth: NONE,
  chromatic_number: N,
  greedy_colors: N,
  independence_number: N,
  num_triangles: (N * (N - 1) * (N - 2)) / 6,
  diameter: NONE,
};

const memo = new WeakMap<Expr, number>();

/**
 * An upper bound on |value| of a numeric expression on every graph, and on every partial
 * result of its left-to-right evaluation. Bounds of operands that were already checked are
 * finite, so the products and sums here stay finite too.
 */
export function magnitudeBound(e: Expr): number {
  const hit = memo.get(e);
  if (hit !== undefined) return hit;
  let b: number;
  switch (e.kind) {
    case 'num':
      b = e.value;
      break;
    case 'feature': {
      const max = FEATURE_MAXIMA[e.name];
      // True/false features are 0 or 1 where they appear as values (only in == and !=).
      b = max ?? 1;
      break;
    }
    case 'neg':
      b = magnitudeBound(e.arg);
      break;
    case 'sum':
      b = e.rest.reduce((s, r) => s + magnitudeBound(r.arg), magnitudeBound(e.first));
      break;
    case 'product':
      b = e.args.reduce((p, a) => p * magnitudeBound(a), 1);
      break;
    // True/false nodes are never operands of arithmetic; 0 or 1 where they are values.
    case 'bool':
    case 'not':
    case 'and':
    case 'or':
    case 'implies':
    case 'compare':
      b = 1;
      break;
  }
  memo.set(e, b);
  return b;
}

/** Plain digits up to 1e18 (so 2^53 shows as 9007199254740992), "8.11e+31" beyond. */
export function formatBound(b: number): string {
  return b < 1e18 ? String(b) : b.toExponential(2);
}

/**
 * The DSL's stated number semantics (docs/dsl-grammar.md, "Evaluation"): every literal is the
 * binary64 double nearest its decimal, each + - * rounds to nearest-even, left to right as
 * written, and comparisons read the rounded values. Pinned in every evaluator so none can drift.
 */
import { describe, expect, it } from 'vitest';
import { tabulatedSmallGraphs } from '../graph/enumerate.js';
import { F } from '../graph/features.js';
import { loadNativeKernel } from '../speed/graph-kernel-native.js';
import { tsKernel } from '../tools/counterexample/anneal.js';
import { nativeKernel } from '../tools/counterexample/kernel.js';
import { prepareClaim } from '../tools/counterexample/prepare.js';
import { vectorTruthTable } from '../tools/leakage/vector-truth-table.js';
import { compileExpression } from './compile.js';
import { parseExpression } from './parser.js';
import { truthTable } from './truth-table.js';

/** Each claim and whether it holds on a graph with n vertices and m edges, under binary64. */
const CLAIMS: [string, (n: number, m: number) => boolean][] = [
  // 0.1 + 0.2 rounds to 0.30000000000000004, one ulp above the double nearest 0.3.
  ['true => 0.1 + 0.2 == 0.3', () => false],
  ['true => 0.1 + 0.2 > 0.3', () => true],
  ['true => 0.1 + 0.2 == 0.30000000000000004', () => true],
  ['true => 0.1 * 3 == 0.30000000000000004', () => true],
  // Left to right as written: the grouping changes the rounding.
  ['true => 0.1 + 0.2 + 0.3 == 0.6000000000000001', () => true],
  ['true => 0.1 + (0.2 + 0.3) == 0.6', () => true],
  // A literal of any length is its nearest double (0.1's exact value, truncated, still rounds to it).
  ['true => 0.1 == 0.1000000000000000055511151231257827', () => true],
  // density is m / (n(n-1)/2) correctly rounded, so it equals the literal 0.3 at n 5, m 3 ...
  ['n == 5 and m == 3 => density == 0.3', () => true],
  // ... but not 0.1 * 3, which rounded above it.
  ['n == 5 and m == 3 => density >= 0.1 * 3', (n, m) => !(n === 5 && m === 3)],
  // Integers stay exact (the parser bounds them below 2^53).
  ['true => 9007199254740991 * 1 == 9007199254740990 + 1', () => true],
];

const MAX_N = 5;
const graphs = tabulatedSmallGraphs(MAX_N);
const expected = (holds: (n: number, m: number) => boolean): number[] =>
  graphs.map((g) => (holds(g.values[F.n]!, g.values[F.m]!) ? 1 : 0));
/** Whether some graph on exactly n vertices falsifies the claim. */
const falsifiedAt = (holds: (n: number, m: number) => boolean, n: number): boolean =>
  graphs.some((g) => g.values[F.n] === n && !holds(n, g.values[F.m]!));

describe('decimal literals and arithmetic round as binary64, in every evaluator', () => {
  it.each(CLAIMS)('compiled truth table of %s', (src, holds) => {
    expect(Array.from(truthTable(compileExpression(parseExpression(src)), MAX_N))).toEqual(expected(holds));
  });

  it.each(CLAIMS)('vectorised truth table of %s', (src, holds) => {
    expect(Array.from(vectorTruthTable(parseExpression(src), MAX_N))).toEqual(expected(holds));
  });

  it.each(CLAIMS)('counterexample search (TypeScript kernel) on %s', (src, holds) => {
    const claim = prepareClaim(parseExpression(src));
    for (let n = 1; n <= MAX_N; n++)
      expect([n, tsKernel.exhaustive(claim, n, false).found]).toEqual([n, falsifiedAt(holds, n)]);
  });

  const { kernel: addon } = loadNativeKernel();
  // Skipped only where the addon is not built; kernel-differential.test.ts requires it under CI.
  it.skipIf(addon === null).each(CLAIMS)('counterexample program (native kernel) on %s', (src, holds) => {
    const native = nativeKernel(addon!);
    const claim = prepareClaim(parseExpression(src));
    for (let n = 1; n <= MAX_N; n++)
      expect([n, native.exhaustive(claim, n, false).found]).toEqual([n, falsifiedAt(holds, n)]);
  });
});

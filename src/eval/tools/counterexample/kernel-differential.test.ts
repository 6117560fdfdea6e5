/**
 * The native kernel against the TypeScript reference: identical feature values, identical
 * annealing trajectories (scores are compared bit for bit), identical enumeration outcomes
 * and byte-identical receipts. When the addon is not built the comparison is skipped only on a
 * developer's machine: under CI or with GRAPH_KERNEL=native the availability test fails.
 */
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../core/canonical-json.js';
import { parseExpression, tryParseExpression } from '../../dsl/parser.js';
import { generator } from '../../dsl/random-expressions.testing.js';
import { randomGraph, xorshift } from '../../graph/brute-force.testing.js';
import { FeatureCache } from '../../graph/features.js';
import { nativeKernelRequired } from '../../speed/addons-promised.testing.js';
import { loadNativeKernel } from '../../speed/graph-kernel-native.js';
import { tsKernel } from './anneal.js';
import { runCounterexample } from './counterexample.js';
import { nativeKernel } from './kernel.js';
import { prepareClaim } from './prepare.js';
import { restartState } from './prng.js';

const { kernel: addon, reason } = loadNativeKernel();
const required = nativeKernelRequired();

it('the native kernel is available when CI is set or GRAPH_KERNEL=native', () => {
  if (required)
    expect(
      addon,
      `${reason}; CI or GRAPH_KERNEL=native requires the addon (make test builds it), so the differential test cannot be skipped`,
    ).not.toBeNull();
  else expect(typeof reason).toBe('string');
});

it('requires the addon exactly when CI is set or GRAPH_KERNEL=native', () => {
  expect(nativeKernelRequired({})).toBe(false);
  expect(nativeKernelRequired({ GRAPH_KERNEL: 'auto' })).toBe(false);
  expect(nativeKernelRequired({ GRAPH_KERNEL: 'ts' })).toBe(false);
  expect(nativeKernelRequired({ CI: '' })).toBe(false);
  expect(nativeKernelRequired({ CI: 'false' })).toBe(false);
  expect(nativeKernelRequired({ CI: '0' })).toBe(false);
  expect(nativeKernelRequired({ CI: 'true' })).toBe(true);
  expect(nativeKernelRequired({ CI: '1' })).toBe(true);
  expect(nativeKernelRequired({ CI: 'true', GRAPH_KERNEL: 'ts' })).toBe(true);
  expect(nativeKernelRequired({ GRAPH_KERNEL: 'native' })).toBe(true);
  expect(nativeKernelRequired({ GRAPH_KERNEL: ' Native ' })).toBe(true);
});

// Every feature and every node kind appears in at least one of these.
const EXPRESSIONS = [
  'is_connected and is_triangle_free and not is_bipartite',
  'is_tree => max_degree <= 3',
  'is_connected and is_regular => is_bipartite',
  'is_tree => m == n - 1',
  'is_claw_free and density >= 0.4 => is_eulerian or 2 * girth > n',
  'has_universal_vertex or has_isolated_vertex => is_complete != max_degree_le_2',
  '2 <= min_degree <= max_degree < 5 and num_components == 1 => clique_number * 2 >= -independence_number + n',
  'is_forest == is_tree => diameter - num_triangles != 999',
  'chromatic_number < greedy_colors or not is_connected',
  'true => false',
  'n - (m - 3) * 0.5 > density + 1 => girth != 999',
  // Arithmetic near the static bound (2^53 - 1): exact in both kernels.
  '999 * 999 * 999 * 999 * 999 + n - girth * girth * girth * girth * girth != n => diameter * diameter * 9000000 < 9007199254740991',
];

describe.skipIf(addon === null)('native kernel = TypeScript kernel', () => {
  const native = nativeKernel(addon!);

  it('computes identical features on 3000 random graphs with 1..12 vertices', () => {
    const rnd = xorshift(2024);
    for (let i = 0; i < 3000; i++) {
      const n = 1 + (i % 12);
      const g = randomGraph(n, (rnd() % 100) / 100, rnd);
      const ts = new FeatureCache(g).computeAll();
      const nat = addon!.features(n, g.adj);
      expect(Array.from(nat)).toEqual(Array.from(ts));
    }
  });

  it('featuresBatch equals features', () => {
    const rnd = xorshift(3);
    const graphs = Array.from({ length: 50 }, () => randomGraph(9, 0.4, rnd));
    const flat = new Uint16Array(50 * 9);
    graphs.forEach((g, i) => flat.set(g.adj, i * 9));
    const batch = addon!.featuresBatch(9, flat, 50);
    graphs.forEach((g, i) =>
      expect(Array.from(batch.subarray(i * 25, i * 25 + 25))).toEqual(Array.from(addon!.features(9, g.adj))),
    );
  });

  it('anneals identically for fixed expressions, sizes and seeds', () => {
    for (const src of EXPRESSIONS) {
      const prepared = prepareClaim(parseExpression(src));
      for (const n of [4, 7, 12])
        for (const seed of [0, 1, -5, 2 ** 40 + 3]) {
          const params = { n, steps: 400, state: restartState(seed, n) };
          expect({ src, n, seed, ...native.anneal(prepared, params) }).toEqual({
            src,
            n,
            seed,
            ...tsKernel.anneal(prepared, params),
          });
        }
    }
  });

  it('anneals identically for 150 random expressions', () => {
    const gen = generator(77);
    let checked = 0;
    for (let i = 0; checked < 150; i++) {
      const r = tryParseExpression(gen.bool(3));
      if (!r.ok) continue;
      const prepared = prepareClaim(r.expr);
      const params = { n: 4 + (i % 9), steps: 200, state: restartState(i, 0) };
      expect(native.anneal(prepared, params)).toEqual(tsKernel.anneal(prepared, params));
      checked++;
    }
  });

  it('enumerates identically (labelled and degree-sorted)', () => {
    for (const src of EXPRESSIONS)
      for (const sorted of [false, true]) {
        const prepared = prepareClaim(parseExpression(src));
        for (let n = 1; n <= 6; n++)
          expect(native.exhaustive(prepared, n, sorted)).toEqual(tsKernel.exhaustive(prepared, n, sorted));
      }
  });

  it('gives byte-identical receipts', () => {
    const requests = [
      ...EXPRESSIONS.map((expression, i) => ({
        expression,
        ns: [8, 9, 10, 11],
        restarts: 4,
        seed: i,
        steps: 800,
      })),
      { expression: 'is_tree => m == n - 1', ns: [5, 12], restarts: 2, seed: 99, steps: 1500 },
      { expression: 'is_bipartite and is_regular and m > 0', ns: [4], restarts: 6, seed: -1, steps: 50 },
    ];
    for (const req of requests)
      expect(canonicalJson(runCounterexample(req, native))).toBe(
        canonicalJson(runCounterexample(req, tsKernel)),
      );
  });

  it('rejects malformed input instead of crashing', () => {
    const { program, constants } = prepareClaim(parseExpression('is_tree => n > 3')).lowered();
    const state = Uint32Array.from([1, 2, 3, 4]);
    const bad = program.slice();
    bad[8 + 1] = 50; // a child index past its parent
    expect(() => addon!.anneal(bad, constants, 8, 10, state)).toThrow(/out of range/);
    expect(() => addon!.anneal(program, new Float64Array(0), 8, 10, state)).toThrow(/constant index/);
    expect(() => addon!.anneal(program, constants, 13, 10, state)).toThrow(RangeError);
    expect(() => addon!.features(3, Uint16Array.from([2, 0, 0]))).toThrow(/symmetric/);
    expect(() => addon!.features(3, Uint16Array.from([1, 0, 0]))).toThrow(/loop/);
    expect(() => addon!.exhaustive(program, constants, 10, true)).toThrow(RangeError);
  });
});

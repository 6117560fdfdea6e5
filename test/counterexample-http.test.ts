/**
 * POST /api/counterexample through the real app and verifier pool: 400s for every bad input,
 * a verified witness for the default example, identical receipts across pool sizes and
 * repeated requests, and /api/health answering while the pool is saturated with searches.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReceipt } from '../src/core/receipt.js';
import { fromGraph6 } from '../src/eval/graph/graph6.js';
import { featureRecord } from '../src/eval/graph/features.js';
import { resolveGraphKernel } from '../src/eval/speed/graph-kernel-native.js';
import { createVerifierPool, type VerifierPool } from '../src/eval/speed/pool.js';
import { makeEvalApp, postJson } from './helpers/eval-app.js';

const URL = '/api/counterexample';
const DEFAULTS = { ns: [8, 9, 10, 11], restarts: 4, seed: 0, steps: 800 };

let app: FastifyInstance;
beforeAll(async () => {
  app = await makeEvalApp();
});
afterAll(async () => {
  await app.close();
});

describe('POST /api/counterexample', () => {
  it('falsifies the catalog example with a witness that checks out', async () => {
    const examples = (await app.inject('/api/examples')).json().examples;
    const request = examples.counterexample;
    expect(request.expression).toBe('is_connected and is_triangle_free and not is_bipartite');
    const res = await postJson(app, URL, request);
    expect(res.statusCode).toBe(200);
    const receipt = res.json();
    expect(receipt).toMatchObject({ tool: 'counterexample', status: 'FALSIFIED' });
    expect(verifyReceipt(receipt, { ...DEFAULTS, ...request })).toEqual([]);
    const w = receipt.result.witness;
    const f = featureRecord(fromGraph6(w.graph6));
    expect(f.is_connected && f.is_triangle_free && !f.is_bipartite).toBe(true);
    expect(f.greedy_colors as number).toBeGreaterThan(f.chromatic_number as number);
    expect(receipt.summary.claim).toBe('is_connected and is_triangle_free and not is_bipartite');
  });

  it('states the bounded proof when nothing is found', async () => {
    const res = await postJson(app, URL, { expression: 'is_tree => m == n - 1' });
    expect(res.statusCode).toBe(200);
    const receipt = res.json();
    expect(receipt.status).toBe('NOT_FALSIFIED_WITHIN_BUDGET');
    expect(receipt.result.exhaustive.statement).toBe(
      'no counterexample on any graph with at most 7 vertices',
    );
  });

  it.each([
    ['ns entry below 4', { ns: [3] }, '/ns/0'],
    ['ns entry above 12', { ns: [8, 13] }, '/ns/1'],
    ['more than 5 ns', { ns: [4, 5, 6, 7, 8, 9] }, '/ns'],
    ['empty ns', { ns: [] }, '/ns'],
    ['steps below 50', { steps: 49 }, '/steps'],
    ['steps above 1500', { steps: 1501 }, '/steps'],
    ['restarts 0', { restarts: 0 }, '/restarts'],
    ['restarts 7', { restarts: 7 }, '/restarts'],
    ['a fractional seed', { seed: 0.5 }, '/seed'],
    ['an unknown property', { timeout: 5 }, '/timeout'],
    ['a 501-character expression', { expression: 'n'.repeat(501) }, '/expression'],
  ])('answers 400 for %s', async (_what, patch, path) => {
    const res = await postJson(app, URL, { expression: 'is_tree => max_degree <= 3', ...patch });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    const problem = res.json();
    expect(problem.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect(problem.hint).toMatch(/\/api\/examples/);
  });

  it.each([
    ['a malformed expression', 'is_tree and (n > 3', /column 19.*expected.*'\)'/],
    ['division-like junk', 'm / n >= 0.5', /'\/' \(division\) is not supported.*column 3/],
    [
      'an unknown feature',
      'is_planar => n < 5',
      /unknown feature 'is_planar' at column 1.*Known features: n, m,/,
    ],
    ['a type error', 'is_tree + 1 > 0', /needs a number/],
    [
      'deeply nested parentheses',
      '('.repeat(240) + 'is_tree' + ')'.repeat(240),
      /nests deeper than 64 levels/,
    ],
    ['deeply nested not', 'not '.repeat(120) + 'true', /nests deeper than 64 levels/],
  ])('answers 400 for %s, naming the column', async (_what, expression, detail) => {
    const res = await postJson(app, URL, { expression });
    expect(res.statusCode).toBe(400);
    const problem = res.json();
    expect(problem.detail).toMatch(detail);
    expect(problem.errors[0].path).toBe('/expression');
    expect(problem.errors[0].message).toMatch(/^column \d+: /);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await postJson(app, URL, '{"expression": ');
    expect(res.statusCode).toBe(400);
  });
});

describe('reproducibility across pool sizes', () => {
  const requests = [
    { expression: 'is_connected and is_triangle_free and not is_bipartite' },
    { expression: 'is_tree => max_degree <= 3', seed: 7 },
    { expression: 'is_connected and is_regular => is_bipartite', ns: [6, 10], restarts: 6, steps: 300 },
    { expression: 'is_tree => m == n - 1', restarts: 1, steps: 50, ns: [4] },
    { expression: '2 <= max_degree <= 3 and is_connected => is_claw_free or girth >= 4', seed: -12 },
  ];

  it('pool sizes 1 and 4 give byte-identical receipts, request after request', async () => {
    const one = await makeEvalApp({ EVAL_POOL_SIZE: '1' });
    const four = await makeEvalApp({ EVAL_POOL_SIZE: '4' });
    try {
      const [a, b, c] = await Promise.all([
        Promise.all(requests.map((r) => postJson(one, URL, r))),
        Promise.all(requests.map((r) => postJson(four, URL, r))),
        Promise.all(requests.map((r) => postJson(four, URL, r))),
      ]);
      for (let i = 0; i < requests.length; i++) {
        expect(a[i]!.statusCode).toBe(200);
        expect(b[i]!.body).toBe(a[i]!.body);
        expect(c[i]!.body).toBe(a[i]!.body);
      }
      expect(new Set(a.map((r) => r.json().status))).toEqual(
        new Set(['FALSIFIED', 'NOT_FALSIFIED_WITHIN_BUDGET']),
      );
    } finally {
      await Promise.all([one.close(), four.close()]);
    }
  });
});

describe('the event loop stays free', () => {
  it('GET /api/health answers while 8 searches run in the pool', async () => {
    // The TypeScript kernel and a request that ends in the exhaustive check keep each search
    // busy for a while. Worker threads copy process.env when they start.
    const previous = process.env.GRAPH_KERNEL;
    process.env.GRAPH_KERNEL = 'ts';
    const inner = createVerifierPool({ size: 2, graphKernel: resolveGraphKernel('auto') });
    if (previous === undefined) delete process.env.GRAPH_KERNEL;
    else process.env.GRAPH_KERNEL = previous;
    let started = 0;
    let finished = 0;
    const pool: VerifierPool = {
      ...inner,
      run(toolId, bytes) {
        started++;
        return inner.run(toolId, bytes).finally(() => finished++);
      },
    };
    const busy = await makeEvalApp({}, { pool });
    try {
      const searches = Array.from({ length: 8 }, (_, i) =>
        postJson(busy, URL, { expression: 'is_tree => m == n - 1', seed: i, restarts: 6, steps: 1500 }),
      );
      // Ask until all 8 searches are in the pool, yielding to I/O between asks (injected
      // requests alone would resolve in microtasks and starve the searches' dispatch).
      for (let asks = 0; started < 8; asks++) {
        expect(asks).toBeLessThan(100_000);
        expect((await busy.inject('/api/health')).statusCode).toBe(200);
        await new Promise((resolve) => setImmediate(resolve));
      }
      const answers = [];
      for (let i = 0; i < 5; i++) {
        const res = await busy.inject('/api/health');
        answers.push({ status: res.statusCode, body: res.json().status, searchesStillRunning: finished < 8 });
      }
      expect(answers[0]).toEqual({ status: 200, body: 'ok', searchesStillRunning: true });
      expect(answers.every((a) => a.status === 200)).toBe(true);
      const results = await Promise.all(searches);
      for (const r of results) expect(r.json().status).toBe('NOT_FALSIFIED_WITHIN_BUDGET');
      expect(finished).toBe(8);
    } finally {
      await busy.close();
      await inner.destroy();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { sealWithText, verifyReceipt } from '../../../core/receipt.js';
import { executeTool } from '../../execute.js';
import { fromGraph6 } from '../../graph/graph6.js';
import { featureRecord } from '../../graph/features.js';
import { compileExpression } from '../../dsl/compile.js';
import { parseExpression } from '../../dsl/parser.js';
import { tsKernel } from './anneal.js';
import { runCounterexample } from './counterexample.js';
import { counterexampleExample } from './example.js';
import { prepareClaim } from './prepare.js';
import { restartState } from './prng.js';
import type { CounterexampleRequest } from './schema.js';

const defaults = { ns: [8, 9, 10, 11], restarts: 4, seed: 0, steps: 800 };
const run = (expression: string, extra: Partial<CounterexampleRequest> = {}) =>
  runCounterexample({ ...defaults, expression, ...extra }, tsKernel);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- receipts are read as loose JSON here
type Json = Record<string, any>;

describe('counterexample tool (TypeScript kernel)', () => {
  it('falsifies the default example with a verified greedy-colouring witness', () => {
    const body = run(counterexampleExample.expression);
    expect(body.status).toBe('FALSIFIED');
    const w = (body.result as Json).witness;
    const g = fromGraph6(w.graph6);
    expect(g.n).toBe(w.n);
    const f = featureRecord(g);
    expect(f.is_connected && f.is_triangle_free && !f.is_bipartite).toBe(true);
    expect(f.greedy_colors as number).toBeGreaterThan(f.chromatic_number as number);
    expect(w.features).toEqual(f);
    expect(w.checks.greedy_colouring.proper).toBe(true);
    expect(w.checks.optimal_colouring.proper).toBe(true);
    expect(w.checks.optimal_colouring.count).toBe(f.chromatic_number);
    expect(w.checks.greedy_colouring.count).toBe(f.greedy_colors);
    expect(w.checks.chromatic_number_exact.colouring_with_fewer_colours_exists).toBe(false);
    expect(body.summary.claim).toBe('is_connected and is_triangle_free and not is_bipartite');
    expect(body.summary.claim_kind).toBe('greedy_colouring');
    expect(body.decision_path.map((d) => d.rule)).toEqual([
      'expression_parsed',
      'claim',
      'claim_survives_annealing',
      'claim_survives_exhaustive_check',
      'witness_verified',
    ]);
  });

  it.each([['is_tree => max_degree <= 3'], ['is_connected and is_regular => is_bipartite']])(
    'falsifies %s',
    (src) => {
      const body = run(src);
      expect(body.status).toBe('FALSIFIED');
      const w = (body.result as Json).witness;
      const expr = parseExpression(src);
      if (expr.kind !== 'implies') throw new Error('not an implication');
      const g = fromGraph6(w.graph6);
      expect(compileExpression(expr.left)(g)).toBe(true);
      expect(compileExpression(expr.right)(g)).toBe(false);
      expect(w.checks).toMatchObject({ antecedent_holds: true, consequent_holds: false });
    },
  );

  it('annealing finds the default example and a regular counterexample for every seed tried', () => {
    for (let seed = 0; seed < 20; seed++) {
      expect(run(counterexampleExample.expression, { seed }).summary.found_by).toBe('annealing');
      expect(run('is_connected and is_regular => is_bipartite', { seed }).summary.found_by).toBe('annealing');
    }
  });

  it('does not falsify is_tree => m == n - 1 and states the exhaustive bound', () => {
    const body = run('is_tree => m == n - 1');
    expect(body.status).toBe('NOT_FALSIFIED_WITHIN_BUDGET');
    const r = body.result as Json;
    expect(r.witness).toBeNull();
    expect(r.exhaustive.max_n).toBeGreaterThanOrEqual(7);
    expect(r.exhaustive.statement).toBe('no counterexample on any graph with at most 7 vertices');
    expect(r.exhaustive.labelled_graphs).toBe(1 + 2 + 8 + 64 + 1024 + 32768 + 2097152);
    expect(body.summary.exhaustive_max_n).toBe(7);
    expect(body.decision_path[3]).toMatchObject({ rule: 'claim_survives_exhaustive_check', outcome: 'pass' });
    expect(body.items).toHaveLength(4);
    expect(body.items.every((i) => i.decision === 'none_found')).toBe(true);
  });

  it('the smallest budget still proves k = 6', () => {
    const body = run('is_forest => is_bipartite', { restarts: 1, steps: 50, ns: [4] });
    expect(body.status).toBe('NOT_FALSIFIED_WITHIN_BUDGET');
    expect((body.result as Json).exhaustive.max_n).toBe(6);
  });

  it('an exhaustive witness is the smallest one', () => {
    // Annealing on 12 vertices for 50 steps rarely hits a 2-regular graph with n = 12 that
    // is a single cycle; whichever way it is found, the witness must be exact.
    const body = run('is_connected and max_degree_le_2 and min_degree == 2 => n >= 6', {
      ns: [12],
      restarts: 1,
      steps: 50,
    });
    expect(body.status).toBe('FALSIFIED');
    expect(body.summary.found_by).toBe('exhaustive');
    expect(body.summary.witness_n).toBe(3);
    expect((body.result as Json).exhaustive.statement).toMatch(
      /counterexample on 3 vertices; no counterexample on any graph with fewer/,
    );
  });

  it('is deterministic: the same request gives byte-identical receipts; another seed may differ', () => {
    const req = { ...defaults, expression: counterexampleExample.expression };
    const a = sealWithText('counterexample', req, runCounterexample(req, tsKernel)).text;
    const b = sealWithText('counterexample', req, runCounterexample(structuredClone(req), tsKernel)).text;
    expect(a).toBe(b);
    const c = sealWithText(
      'counterexample',
      { ...req, seed: 1 },
      runCounterexample({ ...req, seed: 1 }, tsKernel),
    ).text;
    expect(c).not.toBe(a);
  });

  it('seeds 2^32 and 0 give different search traces', () => {
    // The seed used to be reduced modulo 2^64 from a double; it must reach the generator whole.
    const req = { expression: 'is_regular and m > 0 => is_complete', ns: [12], restarts: 2, steps: 200 };
    const trace = (seed: number) => run(req.expression, { ...req, seed }).items;
    expect(trace(2 ** 32)).not.toEqual(trace(0));
    const prepared = prepareClaim(parseExpression(req.expression));
    const walk = (seed: number) =>
      tsKernel.anneal(prepared, { n: 12, steps: 200, state: restartState(seed, 0) });
    expect(walk(2 ** 32).adj).not.toEqual(walk(0).adj);
  });

  it('skipped restarts are listed once a counterexample is found', () => {
    const body = run('is_tree => max_degree <= 3');
    const found = body.items.findIndex((i) => i.decision === 'counterexample_found');
    expect(found).toBeGreaterThanOrEqual(0);
    expect(body.items.slice(found + 1).every((i) => i.decision === 'skipped')).toBe(true);
  });
});

describe('requests through executeTool', () => {
  const call = (body: unknown) => executeTool('counterexample', Buffer.from(JSON.stringify(body)));

  it('accepts the extreme safe seeds', () => {
    for (const seed of [2 ** 53 - 1, -(2 ** 53 - 1)])
      expect(call({ expression: 'is_tree => is_forest', seed, restarts: 1, steps: 50, ns: [4] }).ok).toBe(
        true,
      );
  });

  it("rejects the reviewer's overflowing product (a true claim once reported FALSIFIED) at its column", () => {
    const big = Array.from({ length: 20 }, () => '9007199254740991').join('*');
    const expression = `is_connected => ${big}*(n-n) == 0`;
    const out = call({ expression });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.problem.status).toBe(400);
    expect(out.problem.detail).toMatch(
      /'\*' at column 33 can reach .* beyond 9007199254740991 \(2\^53 - 1\)/,
    );
    expect(out.problem.errors?.[0]).toMatchObject({ path: '/expression' });
    expect(out.problem.errors?.[0]?.message).toMatch(/^column 33: /);
  });

  it('applies defaults and seals a verifiable receipt', () => {
    const out = call({ expression: 'is_tree => max_degree <= 3' });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    const receipt = JSON.parse(out.body);
    expect(receipt.result.budget).toMatchObject({ ns: [8, 9, 10, 11], restarts: 4, seed: 0, steps: 800 });
    expect(verifyReceipt(receipt, { expression: 'is_tree => max_degree <= 3', ...defaults })).toEqual([]);
  });

  it.each([
    [{ expression: 'is_tree', ns: [3] }, '/ns/0'],
    [{ expression: 'is_tree', ns: [13] }, '/ns/0'],
    [{ expression: 'is_tree', ns: [4, 5, 6, 7, 8, 9] }, '/ns'],
    [{ expression: 'is_tree', ns: [] }, '/ns'],
    [{ expression: 'is_tree', steps: 49 }, '/steps'],
    [{ expression: 'is_tree', steps: 1501 }, '/steps'],
    [{ expression: 'is_tree', restarts: 0 }, '/restarts'],
    [{ expression: 'is_tree', restarts: 7 }, '/restarts'],
    [{ expression: 'is_tree', seed: 1.5 }, '/seed'],
    [{ expression: 'is_tree', seed: 2 ** 53 }, '/seed'],
    [{ expression: 'is_tree', seed: -(2 ** 53) }, '/seed'],
    [{ expression: 'is_tree', seed: 1e300 }, '/seed'],
    [{ expression: 'is_tree', seed: -1e300 }, '/seed'],
    [{ expression: 'is_tree', verbose: true }, '/verbose'],
    [{ expression: '' }, '/expression'],
    [{ expression: 'n >= 1 and '.repeat(46) + 'true' }, '/expression'],
    [{}, '/expression'],
  ])('rejects %j at %s', (body, path) => {
    const out = call(body);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.problem.status).toBe(400);
    expect(out.problem.errors?.some((e) => e.path === path)).toBe(true);
  });

  it.each([
    ['is_tree and', /column 12/],
    ['m / n > 1', /division/],
    ['is_conected', /Known features: n, m, density/],
    ['n and m', /'and' needs true\/false/],
    ['('.repeat(200) + 'is_tree' + ')'.repeat(200), /nests deeper than 64/],
  ])('rejects the expression %s with a message naming the problem', (expression, re) => {
    const out = call({ expression });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.problem.status).toBe(400);
    expect(out.problem.detail).toMatch(re);
    expect(out.problem.errors?.[0]?.path).toBe('/expression');
    expect(out.problem.errors?.[0]?.message).toMatch(/^column \d+: /);
  });
});

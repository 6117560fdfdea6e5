/* eslint-disable @typescript-eslint/no-explicit-any -- responses are parsed JSON; the assertions check their shape */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvalApp, postJson } from './helpers/eval-app.js';

let app: FastifyInstance;
let examples: Record<string, any>;

beforeAll(async () => {
  app = await makeEvalApp();
  examples = (await app.inject('/api/examples')).json().examples;
});
afterAll(async () => {
  await app.close();
});

async function ok(url: string, body: unknown): Promise<any> {
  const res = await postJson(app, url, body);
  expect(res.statusCode, res.body.slice(0, 400)).toBe(200);
  return res.json();
}

async function bad(url: string, body: unknown): Promise<any> {
  const res = await postJson(app, url, body);
  expect(res.statusCode, res.body.slice(0, 400)).toBe(400);
  expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  const problem = res.json();
  expect(problem.hint).toMatch(/\/api\/examples/);
  return problem;
}

const byId = (receipt: any, id: string): any => receipt.items.find((i: any) => i.item_id === id);

describe('catalog and OpenAPI', () => {
  it('lists health, leakage and inspector at their seed paths', async () => {
    const tools = (await app.inject('/api/catalog')).json().tools;
    const find = (id: string): any => tools.find((t: any) => t.id === id);
    expect(find('health')).toMatchObject({ operationId: 'health', endpoint: '/api/health-report' });
    expect(find('leakage')).toMatchObject({ operationId: 'leakage', endpoint: '/api/leakage' });
    expect(find('inspector')).toMatchObject({ operationId: 'inspector', endpoint: '/api/inspect' });
    const spec = (await app.inject('/openapi.json')).json();
    for (const p of ['/api/health-report', '/api/leakage', '/api/inspect'])
      expect(spec.paths[p].post).toBeTruthy();
  });
});

describe('POST /api/health-report', () => {
  it('classifies the published example: stable saturated, frontier discriminating, hard too_hard, noisy flaky', async () => {
    const r = await ok('/api/health-report', examples.health);
    expect(byId(r, 'stable').item_class).toBe('saturated');
    expect(byId(r, 'frontier').item_class).toBe('discriminating');
    expect(byId(r, 'hard').item_class).toBe('too_hard');
    // model-a ran noisy T F T F T: 4 flips in 4 pairs, 95% lower bound 0.51 > 0.10.
    expect(byId(r, 'noisy').item_class).toBe('flaky');
    expect(byId(r, 'fresh').item_class).toBe('unmeasured');
    expect(r.result.thresholds).toMatchObject({ flaky_min_flips: 2, flaky_flip_rate_lower_bound_above: 0.1 });
  });

  it('classifies every item of a 5000-row history', async () => {
    const history = Array.from({ length: 5000 }, (_, i) => ({
      item_id: `it-${i % 1250}`,
      system: `sys-${Math.floor(i / 1250)}`,
      passed: (i % 1250) % 3 !== 0 || i < 2500,
    }));
    const items = Array.from({ length: 1260 }, (_, i) => ({ item_id: `it-${i}` }));
    const r = await ok('/api/health-report', { history, items });
    expect(r.items).toHaveLength(1260);
    expect(r.summary.classes.unmeasured).toBe(10);
    expect(r.summary.classes.discriminating + r.summary.classes.saturated).toBe(1250);
  });

  it('answers 400 for 5001 rows and for non-object rows', async () => {
    const row = { item_id: 'a', system: 's', passed: true };
    expect(
      (await bad('/api/health-report', { history: Array.from({ length: 5001 }, () => row) })).errors[0].path,
    ).toBe('/history');
    expect((await bad('/api/health-report', { history: [row, 7] })).errors[0].path).toBe('/history/1');
  });
});

describe('POST /api/leakage', () => {
  it('answers the published example: three quarantined, one review, clean_exam the rest in order', async () => {
    const r = await ok('/api/leakage', examples.leakage);
    expect(
      r.items
        .filter((i: { decision: string }) => i.decision === 'quarantine')
        .map((i: { item_id: string }) => i.item_id),
    ).toEqual(['q-001', 'q-002', 'q-003']);
    expect(byId(r, 'q-001').tier).toBe('exact');
    expect(byId(r, 'q-002').matches[0].evidence).toEqual(['content_hash']);
    expect(byId(r, 'q-003').tier).toBe('fingerprint');
    expect(byId(r, 'q-004').decision).toBe('review');
    expect(r.result.clean_exam).toEqual(examples.leakage.exam.slice(3));
  });

  it('quarantines by fingerprint only while that tier is on', async () => {
    const body = {
      exam: [{ item_id: 'e', expression: 'is_connected and is_tree' }],
      exposure: [{ expression: 'is_tree and is_connected' }],
    };
    expect(byId(await ok('/api/leakage', body), 'e').decision).toBe('quarantine');
    expect(
      byId(await ok('/api/leakage', { ...body, enable_behavioral_fingerprint: false }), 'e').decision,
    ).toBe('clean');
  });

  it('answers 400 naming the row for rows without identity or content, and for out-of-range options', async () => {
    const p = await bad('/api/leakage', { exam: [{ prompt: 'no id here' }, { id: 'x' }] });
    expect(p.errors.map((e: any) => e.path)).toEqual(['/exam/0', '/exam/1']);
    expect(
      (await bad('/api/leakage', { exam: [{ id: 'x', prompt: 'p q r' }], similarity_threshold: 0.4 }))
        .errors[0].path,
    ).toBe('/similarity_threshold');
    expect(
      (await bad('/api/leakage', { exam: [{ id: 'x', prompt: 'p q r' }], fingerprint_max_n: 6 })).errors[0]
        .path,
    ).toBe('/fingerprint_max_n');
    expect((await bad('/api/leakage', { exam: ['x'] })).errors[0].path).toBe('/exam/0');
    const many = Array.from({ length: 5001 }, (_, i) => ({ id: `r${i}`, prompt: `row ${i}` }));
    expect((await bad('/api/leakage', { exam: many })).errors[0].path).toBe('/exam');
  });

  it('returns byte-identical receipts for identical requests', async () => {
    const a = await postJson(app, '/api/leakage', examples.leakage);
    const b = await postJson(app, '/api/leakage', examples.leakage);
    expect(a.statusCode).toBe(200);
    expect(a.body).toBe(b.body);
  });
});

describe('POST /api/inspect', () => {
  it('gates the example on its clean items and agrees with /api/gate on that subset', async () => {
    const r = await ok('/api/inspect', examples.inspector);
    expect(r.verdict).toBe('PASS');
    const clean = r.result.cohort_check.clean_items as string[];
    expect(clean).not.toContain('q-001');
    const pick = (m: Record<string, boolean>): Record<string, boolean> =>
      Object.fromEntries(clean.map((id) => [id, m[id]!]));
    const g = await ok('/api/gate', {
      baseline: pick(examples.inspector.baseline),
      candidate: pick(examples.inspector.candidate),
      baseline_name: examples.inspector.baseline_name,
      candidate_name: examples.inspector.candidate_name,
      policy: examples.inspector.policy,
    });
    expect(r.verdict).toBe(g.verdict);
    expect(r.result.gate.summary).toEqual(g.summary);
  });

  it('holds, naming a clean item the candidate has no result for', async () => {
    const body = structuredClone(examples.inspector);
    delete body.candidate['q-007'];
    const r = await ok('/api/inspect', body);
    expect(r.verdict).toBe('HOLD');
    expect(r.result.cohort_check.missing_from_candidate).toEqual(['q-007']);
    expect(byId(r, 'q-007').decision).toBe('missing_result');
  });

  it('answers 400 for cohort items outside the exam', async () => {
    const body = structuredClone(examples.inspector);
    body.baseline.ghost = true;
    body.candidate.ghost = true;
    const p = await bad('/api/inspect', body);
    expect(p.errors.map((e: any) => e.path)).toEqual(['/baseline/ghost', '/candidate/ghost']);
  });
});

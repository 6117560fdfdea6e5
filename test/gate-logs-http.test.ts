import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fx from '../src/eval/harness-logs/fixtures.testing.js';
import { makeEvalApp, postJson } from './helpers/eval-app.js';
import { multipartBody, type FormPart } from './helpers/multipart.js';

let app: FastifyInstance;

beforeAll(async () => {
  app = await makeEvalApp();
});
afterAll(async () => {
  await app.close();
});

function post(parts: FormPart[]) {
  const { payload, headers } = multipartBody(parts);
  return app.inject({ method: 'POST', url: '/api/gate/logs', payload, headers });
}

const files = (base: Uint8Array, cand: Uint8Array, options?: unknown): FormPart[] => [
  { name: 'baseline', value: base, filename: 'base.log' },
  { name: 'candidate', value: cand, filename: 'cand.log' },
  ...(options === undefined
    ? []
    : [{ name: 'options', value: JSON.stringify(options), type: 'application/json' }]),
];

describe('POST /api/gate/logs', () => {
  it('answers its /api/examples entry, listed in the catalog and OpenAPI', async () => {
    const ex = (await app.inject('/api/examples')).json().examples['gate-logs'];
    const res = await post(
      files(Buffer.from(ex.parts.baseline), Buffer.from(ex.parts.candidate), ex.parts.options),
    );
    expect(res.statusCode, res.body).toBe(200);
    const receipt = res.json();
    expect(receipt).toMatchObject({
      tool: 'gate-logs',
      verdict: 'PASS',
      summary: { gains: 6, regressions: 0 },
    });
    expect(res.headers['x-receipt-status']).toBe('PASS');
    expect(receipt.result.sources.baseline).toMatchObject({
      format: 'cohort-jsonl',
      file: 'base.log',
      samples: 21,
    });
    const catalog = (await app.inject('/api/catalog')).json();
    expect(catalog.upload_tools.map((t: { endpoint: string }) => t.endpoint)).toEqual(['/api/gate/logs']);
    const spec = (await app.inject('/openapi.json')).json();
    expect(spec.paths['/api/gate/logs'].post.requestBody.content['multipart/form-data']).toBeDefined();
  });

  it('gives one-run logs the same p-value and verdict as /api/gate on the same maps', async () => {
    const base: fx.Outcome[] = Array.from({ length: 40 }, (_, i) => ({ id: `i${i}`, runs: [i % 3 === 0] }));
    const cand: fx.Outcome[] = base.map((o, i) => ({ ...o, runs: [i % 4 !== 0] }));
    const logs = (
      await post(files(fx.inspectEval(base), fx.inspectJson(cand), { policy: { max_regressions: 5 } }))
    ).json();
    const gate = (
      await postJson(app, '/api/gate', {
        baseline: Object.fromEntries(base.map((o) => [o.id, o.runs[0]])),
        candidate: Object.fromEntries(cand.map((o) => [o.id, o.runs[0]])),
        policy: { max_regressions: 5 },
      })
    ).json();
    expect(logs.summary.p_one_sided).toBe(gate.summary.p_one_sided);
    expect(logs.summary.gains).toBe(gate.summary.gains);
    expect(logs.verdict).toBe(gate.verdict);
  });

  it('gates the clean cohort beside the full one with an exposure part, and names a bad one (400)', async () => {
    // Full: 4 gains, p = 1/16 -> PASS at alpha 0.1; "a" and "b" exposed: 2 gains, p = 1/4 -> HOLD.
    const base: fx.Outcome[] = ['a', 'b', 'c', 'd'].map((id) => ({ id, runs: [false] }));
    const cand = base.map((o) => ({ ...o, runs: [true] }));
    const parts = files(fx.inspectEval(base), fx.inspectEval(cand), { policy: { confidence_alpha: 0.1 } });
    const res = await post([
      ...parts,
      {
        name: 'exposure',
        value: Buffer.from('[{"item_id": "a"}, {"input": "question b"}]'),
        filename: 'x.json',
      },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      verdict: 'HOLD',
      summary: { gains: 2, p_one_sided: 0.25, full: { verdict: 'PASS', gains: 4, p_one_sided: 0.0625 } },
      result: { difference: { full_verdict: 'PASS', clean_verdict: 'HOLD', quarantined_items: 2 } },
    });
    const bad = await post([...parts, { name: 'exposure', value: '{"exposure": [{"id": 1}], "tiers": 3}' }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(bad.json().errors).toContainEqual({
      path: '/tiers',
      message: 'is not an allowed property here (unknown property "tiers")',
    });
    const cut = await post([
      ...parts,
      { name: 'exposure', value: '{"id": 1}\n{"id": ', filename: 'e.jsonl' },
    ]);
    expect(cut.statusCode).toBe(400);
    expect(cut.json().detail).toMatch(/line 2 is not valid JSON/);
  });

  it('refuses a 65 MB file with 413', async () => {
    const big = Buffer.alloc(65 * 1024 * 1024, 0x20);
    const res = await post(files(big, fx.cohortMap([{ id: 'a', runs: [true] }])));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({
      code: 'payload_too_large',
      detail: expect.stringMatching(/baseline file is larger than 64 MB/),
    });
  });

  it('refuses a file beyond baseline, candidate and exposure (400, then 413), and a body that is not multipart with 415', async () => {
    const a = fx.cohortMap([{ id: 'a', runs: [true] }]);
    const extra = await post([...files(a, a), { name: 'extra', value: a, filename: 'x' }]);
    expect(extra.statusCode).toBe(400);
    expect(extra.json().detail).toMatch(/Unexpected file part "extra"/);
    const exposure = { name: 'exposure', value: '[{"id": "a"}]', filename: 'e.json' };
    const four = await post([...files(a, a), exposure, { name: 'extra', value: a, filename: 'x' }]);
    expect(four.statusCode).toBe(413);
    const json = await postJson(app, '/api/gate/logs', { baseline: {}, candidate: {} });
    expect(json.statusCode).toBe(415);
    expect(json.json().detail).toMatch(/multipart\/form-data/);
  });

  it('names what it saw in an unknown file, a missing part, and an unknown scorer', async () => {
    const a = fx.cohortMap([{ id: 'a', runs: [true] }]);
    const unknown = await post(files(Buffer.from('hello'), a));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().detail).toMatch(
      /base\.log: unknown log format: text starting "hello"; accepted formats: Inspect AI/,
    );
    const missing = await post([{ name: 'baseline', value: a, filename: 'a' }]);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().detail).toMatch(/Missing file part\(s\): candidate/);
    const o: fx.Outcome[] = [{ id: '1', runs: [true] }];
    const scorer = await post(files(fx.inspectEval(o), fx.inspectEval(o), { scorer: 'f1' }));
    expect(scorer.statusCode).toBe(400);
    expect(scorer.json().detail).toMatch(/no scorer "f1" in this log; it has "match"/);
    const badOptions = await post(files(a, a, { threshold: 'high' }));
    expect(badOptions.statusCode).toBe(400);
  });
});

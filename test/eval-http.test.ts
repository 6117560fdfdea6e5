import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/core/canonical-json.js';
import { verifyReceipt } from '../src/core/receipt.js';
import { makeEvalApp, postJson } from './helpers/eval-app.js';

let app: FastifyInstance;
let examples: Record<string, unknown>;

beforeAll(async () => {
  app = await makeEvalApp();
  examples = (await app.inject('/api/examples')).json().examples;
});
afterAll(async () => {
  await app.close();
});

function bigCohort(n: number): { baseline: Record<string, boolean>; candidate: Record<string, boolean> } {
  const baseline: Record<string, boolean> = {};
  const candidate: Record<string, boolean> = {};
  for (let i = 0; i < n; i++) {
    baseline[`item-${i}`] = i % 3 === 0;
    candidate[`item-${i}`] = i % 4 !== 0;
  }
  return { baseline, candidate };
}

describe('service endpoints', () => {
  it('lists every registered tool in the catalog with an example that answers 200', async () => {
    const catalog = (await app.inject('/api/catalog')).json();
    expect(catalog.tools.length).toBeGreaterThanOrEqual(1);
    for (const tool of catalog.tools) {
      expect(tool).toMatchObject({
        id: expect.any(String),
        operationId: expect.any(String),
        endpoint: expect.stringMatching(/^\/api\//),
      });
      const res = await postJson(app, tool.endpoint, examples[tool.id]);
      expect(res.statusCode, `${tool.id}: ${res.body.slice(0, 300)}`).toBe(200);
      expect(res.json().tool).toBe(tool.id);
    }
  });

  it('answers health with version and pool figures', async () => {
    const res = await app.inject('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', version: '0.8.0', pool: { size: 2 } });
    expect(res.json().runtime).toEqual({ name: 'node', version: process.versions.node });
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('publishes OpenAPI 3.1.0 version 0.8.0 built from the validating schemas', async () => {
    const spec = (await app.inject('/openapi.json')).json();
    expect(spec.openapi).toBe('3.1.0');
    expect(spec.info.version).toBe('0.8.0');
    const gate = spec.components.schemas.gateRequest;
    expect(gate.additionalProperties).toBe(false);
    expect(gate.properties.baseline.maxProperties).toBe(5000);
    expect(gate.properties.policy.properties.confidence_alpha).toMatchObject({
      exclusiveMinimum: 0,
      maximum: 1,
    });
    expect(spec.paths['/api/gate'].post.operationId).toBe('gate');
  });

  it('counts calls, 2xx, 4xx and verdicts per tool in stats, with nothing from payloads', async () => {
    const before = (await app.inject('/api/stats')).json().tools.gate ?? {
      calls: 0,
      status_2xx: 0,
      status_4xx: 0,
      verdicts: {},
    };
    await postJson(app, '/api/gate', examples.gate);
    await postJson(app, '/api/gate', { baseline: {} });
    const stats = (await app.inject('/api/stats')).json();
    expect(stats.tools.gate.calls).toBe(before.calls + 2);
    expect(stats.tools.gate.status_2xx).toBe(before.status_2xx + 1);
    expect(stats.tools.gate.status_4xx).toBe(before.status_4xx + 1);
    expect(stats.tools.gate.verdicts.PASS).toBe((before.verdicts.PASS ?? 0) + 1);
    expect(JSON.stringify(stats)).not.toContain('q-01');
  });
});

describe('POST /api/gate', () => {
  it('gives byte-identical bodies for the same request, and key order changes no hash', async () => {
    const a = await postJson(app, '/api/gate', examples.gate);
    const b = await postJson(app, '/api/gate', examples.gate);
    expect(a.statusCode).toBe(200);
    expect(a.body).toBe(b.body);
    const ex = examples.gate as Record<string, Record<string, unknown>>;
    const reordered: Record<string, unknown> = {};
    for (const key of Object.keys(ex).reverse()) {
      const v = ex[key];
      reordered[key] = v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).reverse()) : v;
    }
    const c = await postJson(app, '/api/gate', reordered);
    expect(c.json().hashes).toEqual(a.json().hashes);
    expect(c.body).toBe(a.body);
  });

  it('serves a non-ASCII receipt as exact UTF-8 with every hash intact', async () => {
    const ids = ['café', 'Ωmega', '𝄞-clef', 'plain'];
    const body = {
      baseline: Object.fromEntries(ids.map((id) => [id, false])),
      candidate: Object.fromEntries(ids.map((id) => [id, true])),
      baseline_name: 'base — ü',
      policy: { confidence_alpha: 1 },
    };
    const res = await postJson(app, '/api/gate', body);
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    const receipt = res.json();
    expect(receipt.items.map((i: { item_id: string }) => i.item_id)).toEqual([...ids].sort());
    expect(receipt.summary.baseline_name).toBe('base — ü');
    expect(
      verifyReceipt(receipt, {
        ...body,
        candidate_name: 'candidate',
        policy: { confidence_alpha: 1, max_regressions: 0, min_gains: 1, require_retained_probe: false },
      }),
    ).toEqual([]);
    // The served bytes are the canonical text of what they describe.
    expect(res.rawPayload.toString('utf8')).toBe(canonicalJson(receipt));
  });

  it('seals a receipt the CLI verifies, and the CLI names a tampered field', async () => {
    const receipt = (await postJson(app, '/api/gate', examples.gate)).json();
    expect(receipt).toMatchObject({
      receipt_version: 1,
      tool: 'gate',
      service_version: '0.8.0',
      verdict: 'PASS',
    });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'receipt-'));
    const good = path.join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(receipt, null, 2));
    const cli = ['--import', 'tsx', 'src/main/cli.ts', 'receipt', 'verify'];
    expect(execFileSync(process.execPath, [...cli, good], { encoding: 'utf8' })).toMatch(/^OK gate receipt/);
    const bad = path.join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        ...receipt,
        result: { ...receipt.result, counts: { ...receipt.result.counts, gains: 7 } },
      }),
    );
    let out = '';
    let code = 0;
    try {
      execFileSync(process.execPath, [...cli, bad], { encoding: 'utf8' });
    } catch (err) {
      const e = err as { status: number; stdout: string };
      code = e.status;
      out = e.stdout;
    }
    expect(code).toBe(1);
    expect(out).toContain('MISMATCH hashes.result_sha256');
    expect(out).toContain('MISMATCH hashes.receipt_sha256');
  });

  it('handles a 5000-item cohort in the pool', async () => {
    const res = await postJson(app, '/api/gate', bigCohort(5000));
    expect(res.statusCode).toBe(200);
    const r = res.json();
    expect(r.items).toHaveLength(5000);
    expect(r.summary.items).toBe(5000);
  });

  const badCases: [string, unknown, RegExp, string?][] = [
    ['unknown top-level property', { ...bigCohort(2), extra: 1 }, /unknown property "extra"/, '/extra'],
    [
      'unknown policy property',
      { ...bigCohort(2), policy: { alpha: 0.1 } },
      /unknown property "alpha"/,
      '/policy/alpha',
    ],
    ['5001 entries', bigCohort(5001), /5001 entries; at most 5000/, '/baseline'],
    [
      'alpha 0',
      { ...bigCohort(2), policy: { confidence_alpha: 0 } },
      /must be > 0/,
      '/policy/confidence_alpha',
    ],
    [
      'alpha 1.5',
      { ...bigCohort(2), policy: { confidence_alpha: 1.5 } },
      /must be <= 1/,
      '/policy/confidence_alpha',
    ],
    [
      'non-boolean result',
      { baseline: { a: 'yes' }, candidate: { a: true } },
      /must be a boolean/,
      '/baseline/a',
    ],
    ['empty cohort', { baseline: {}, candidate: {} }, /at least 1 are required/, '/baseline'],
    [
      'mismatched cohorts',
      { baseline: { a: true }, candidate: { b: true } },
      /exactly the same item ids/,
      '/candidate/a',
    ],
    ['a body that is not an object', [1, 2], /must be an object/, ''],
    ['missing candidate', { baseline: { a: true } }, /required but missing/, '/candidate'],
    [
      'probe with unknown property',
      { ...bigCohort(2), retained_probe: { base_verified: 1, candidate_verified: 1, items: 2, x: 1 } },
      /unknown property "x"/,
      '/retained_probe/x',
    ],
    [
      'negative max_regressions',
      { ...bigCohort(2), policy: { max_regressions: -1 } },
      /must be >= 0/,
      '/policy/max_regressions',
    ],
  ];
  it.each(badCases)('answers 400 with a useful message: %s', async (_name, body, message, pathPointer) => {
    const res = await postJson(app, '/api/gate', body);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const problem = res.json();
    expect(problem.hint).toMatch(/\/api\/examples/);
    const text = [problem.detail, ...(problem.errors ?? []).map((e: { message: string }) => e.message)].join(
      ' | ',
    );
    expect(text).toMatch(message);
    if (pathPointer !== undefined)
      expect(problem.errors.map((e: { path: string }) => e.path)).toContain(pathPointer);
  });

  it('answers 400 for invalid JSON (whatever the declared type), 413 over the body limit', async () => {
    const invalid = await postJson(app, '/api/gate', '{"baseline": {');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ code: 'invalid_json', hint: expect.stringMatching(/examples/) });

    const notJson = await app.inject({
      method: 'POST',
      url: '/api/gate',
      payload: 'a=1',
      headers: { 'content-type': 'text/plain' },
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toMatchObject({ code: 'invalid_json', hint: expect.stringMatching(/examples/) });

    const small = await makeEvalApp({ EVAL_BODY_LIMIT: '2kb' });
    try {
      const big = await postJson(small, '/api/gate', bigCohort(200));
      expect(big.statusCode).toBe(413);
      expect(big.headers['content-type']).toMatch(/problem\+json/);
    } finally {
      await small.close();
    }
  });

  it('accepts a charset parameter on the JSON content type', async () => {
    const res = await postJson(app, '/api/gate', examples.gate, {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('errors and metrics', () => {
  it('answers unknown routes with a problem 404', async () => {
    const res = await app.inject('/api/nope');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
  });

  it('exposes the seed metrics with route templates, accepted by promtool', async () => {
    await app.inject('/api/health');
    const text = (await app.inject('/metrics')).body;
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/health",status="200"\} \d+/);
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="0.1",method="POST",route="\/api\/gate"\}/,
    );
    for (const le of ['0.1', '0.5', '1', '2', '5', '\\+Inf'])
      expect(text).toMatch(new RegExp(`_bucket\\{le="${le}"`));
    expect(text).not.toMatch(/route="\/api\/nope"/);
    const promtool = ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((p) => existsSync(p));
    expect(promtool, 'promtool is installed by make setup (Debian package prometheus)').toBeDefined();
    const out = execFileSync(promtool!, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(out).not.toMatch(/error/i);
  });
});

describe('hostile bodies', () => {
  it('answers 400, not 500, for absurdly nested free-form fields', async () => {
    const deep = '['.repeat(20000) + ']'.repeat(20000);
    for (const [url, body] of [
      ['/api/leakage', `{"exam":[{"item_id":"a","prompt":"x y z","extra":${deep}}]}`],
      ['/api/health-report', `{"history":[{"item_id":"a","system":"s","passed":true,"extra":${deep}}]}`],
      [
        '/api/inspect',
        `{"exam":[{"item_id":"a","prompt":"x y z","extra":${deep}}],"baseline":{"a":true},"candidate":{"a":true}}`,
      ],
    ] as const) {
      const res = await postJson(app, url, body);
      expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(400);
      expect(res.json().detail).toMatch(/nests arrays\/objects too deeply/);
    }
  });
});

describe('pool deadline', () => {
  it('answers 503 with Retry-After when a verification outlives EVAL_TASK_TIMEOUT_MS, and the pool keeps serving', async () => {
    const strict = await makeEvalApp({ EVAL_TASK_TIMEOUT_MS: '1' });
    try {
      const res = await postJson(strict, '/api/gate', bigCohort(5000));
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json().detail).toMatch(/did not finish within 1 ms/);
      expect(JSON.stringify(res.json())).not.toMatch(/at .*\.js/); // no stack
    } finally {
      await strict.close();
    }
    // The regular app's pool is unaffected and still answers.
    expect((await postJson(app, '/api/gate', examples.gate)).statusCode).toBe(200);
  });
});

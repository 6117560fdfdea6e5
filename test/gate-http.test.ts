/** HTTP-level tests of POST /api/gate through the real app. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/core/canonical-json.js';
import { verifyReceipt } from '../src/core/receipt.js';
import { makeEvalApp, postJson } from './helpers/eval-app.js';
import { bigCohort, expectExampleAnswers, useToolApp } from './helpers/tool-http.js';

const t = useToolApp();

describe('POST /api/gate', () => {
  it('answers the published example with PASS', () =>
    expectExampleAnswers(t.app, 'gate', { operationId: 'gate', endpoint: '/api/gate' }, 'PASS'));

  it('gives byte-identical bodies for the same request, and key order changes no hash', async () => {
    const a = await postJson(t.app, '/api/gate', t.examples.gate);
    const b = await postJson(t.app, '/api/gate', t.examples.gate);
    expect(a.statusCode).toBe(200);
    expect(a.body).toBe(b.body);
    const ex = t.examples.gate as Record<string, Record<string, unknown>>;
    const reordered: Record<string, unknown> = {};
    for (const key of Object.keys(ex).reverse()) {
      const v = ex[key];
      reordered[key] = v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).reverse()) : v;
    }
    const c = await postJson(t.app, '/api/gate', reordered);
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
    const res = await postJson(t.app, '/api/gate', body);
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
    const receipt = (await postJson(t.app, '/api/gate', t.examples.gate)).json();
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
    const res = await postJson(t.app, '/api/gate', bigCohort(5000));
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
      /is the number 0; it must be a number greater than 0/,
      '/policy/confidence_alpha',
    ],
    [
      'alpha 1.5',
      { ...bigCohort(2), policy: { confidence_alpha: 1.5 } },
      /is the number 1.5; it must be a number greater than 0 and at most 1/,
      '/policy/confidence_alpha',
    ],
    [
      'non-boolean result',
      { baseline: { a: 'yes' }, candidate: { a: true } },
      /is "yes"; it must be true or false/,
      '/baseline/a',
    ],
    ['empty cohort', { baseline: {}, candidate: {} }, /has 0 entries; at least 1 is required/, '/baseline'],
    [
      'mismatched cohorts',
      { baseline: { a: true }, candidate: { b: true } },
      /exactly the same item ids/,
      '/candidate/a',
    ],
    ['a body that is not an object', [1, 2], /must be an object/, ''],
    ['missing candidate', { baseline: { a: true } }, /is required/, '/candidate'],
    [
      'probe with unknown property',
      { ...bigCohort(2), retained_probe: { base_verified: 1, candidate_verified: 1, items: 2, x: 1 } },
      /unknown property "x"/,
      '/retained_probe/x',
    ],
    [
      'negative max_regressions',
      { ...bigCohort(2), policy: { max_regressions: -1 } },
      /is the number -1; it must be a whole number of at least 0/,
      '/policy/max_regressions',
    ],
  ];
  it.each(badCases)('answers 400 with a useful message: %s', async (_name, body, message, pathPointer) => {
    const res = await postJson(t.app, '/api/gate', body);
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
    const invalid = await postJson(t.app, '/api/gate', '{"baseline": {');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ code: 'invalid_json', hint: expect.stringMatching(/examples/) });

    const notJson = await t.app.inject({
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
    const res = await postJson(t.app, '/api/gate', t.examples.gate, {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(res.statusCode).toBe(200);
  });
});

/* eslint-disable @typescript-eslint/no-explicit-any -- responses are parsed JSON; the assertions check their shape */
/** HTTP-level tests of POST /api/leakage through the real app. */
import { describe, expect, it } from 'vitest';
import { postJson } from './helpers/eval-app.js';
import { byId, expectExampleAnswers, postBad, postOk, useToolApp } from './helpers/tool-http.js';

const t = useToolApp();

describe('POST /api/leakage', () => {
  it('answers the published example: three quarantined, one review, clean_exam the rest in order', async () => {
    const r = await expectExampleAnswers(
      t.app,
      'leakage',
      { operationId: 'leakage', endpoint: '/api/leakage' },
      'LEAKED',
    );
    expect(
      r.items
        .filter((i: { decision: string }) => i.decision === 'quarantine')
        .map((i: { item_id: string }) => i.item_id),
    ).toEqual(['q-001', 'q-002', 'q-003']);
    expect(byId(r, 'q-001').tier).toBe('exact');
    expect(byId(r, 'q-002').matches[0].evidence).toEqual(['content_hash']);
    expect(byId(r, 'q-003').tier).toBe('fingerprint');
    expect(byId(r, 'q-004').decision).toBe('review');
    expect(r.result.clean_exam).toEqual(t.examples.leakage.exam.slice(3));
  });

  it('quarantines by fingerprint only while that tier is on', async () => {
    const body = {
      exam: [{ item_id: 'e', expression: 'is_connected and is_tree' }],
      exposure: [{ expression: 'is_tree and is_connected' }],
    };
    expect(byId(await postOk(t.app, '/api/leakage', body), 'e').decision).toBe('quarantine');
    expect(
      byId(await postOk(t.app, '/api/leakage', { ...body, enable_behavioral_fingerprint: false }), 'e')
        .decision,
    ).toBe('clean');
  });

  it('answers 400 naming the row for rows without identity or content, and for out-of-range options', async () => {
    const p = await postBad(t.app, '/api/leakage', { exam: [{ prompt: 'no id here' }, { id: 'x' }] });
    expect(p.errors.map((e: any) => e.path)).toEqual(['/exam/0', '/exam/1']);
    expect(
      (
        await postBad(t.app, '/api/leakage', {
          exam: [{ id: 'x', prompt: 'p q r' }],
          similarity_threshold: 0.4,
        })
      ).errors[0].path,
    ).toBe('/similarity_threshold');
    expect(
      (await postBad(t.app, '/api/leakage', { exam: [{ id: 'x', prompt: 'p q r' }], fingerprint_max_n: 6 }))
        .errors[0].path,
    ).toBe('/fingerprint_max_n');
    expect((await postBad(t.app, '/api/leakage', { exam: ['x'] })).errors[0].path).toBe('/exam/0');
    const many = Array.from({ length: 5001 }, (_, i) => ({ id: `r${i}`, prompt: `row ${i}` }));
    expect((await postBad(t.app, '/api/leakage', { exam: many })).errors[0].path).toBe('/exam');
  });

  it('returns byte-identical receipts for identical requests', async () => {
    const a = await postJson(t.app, '/api/leakage', t.examples.leakage);
    const b = await postJson(t.app, '/api/leakage', t.examples.leakage);
    expect(a.statusCode).toBe(200);
    expect(a.body).toBe(b.body);
  });
});

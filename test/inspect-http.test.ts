/* eslint-disable @typescript-eslint/no-explicit-any -- responses are parsed JSON; the assertions check their shape */
/** HTTP-level tests of POST /api/inspect through the real app. */
import { describe, expect, it } from 'vitest';
import { byId, expectExampleAnswers, postBad, postOk, useToolApp } from './helpers/tool-http.js';

const t = useToolApp();

describe('POST /api/inspect', () => {
  it('gates the example on its clean items and agrees with /api/gate on that subset', async () => {
    const r = await expectExampleAnswers(
      t.app,
      'inspector',
      { operationId: 'inspector', endpoint: '/api/inspect' },
      'PASS',
    );
    expect(r.verdict).toBe('PASS');
    const clean = r.result.cohort_check.clean_items as string[];
    expect(clean).not.toContain('q-001');
    const pick = (m: Record<string, boolean>): Record<string, boolean> =>
      Object.fromEntries(clean.map((id) => [id, m[id]!]));
    const g = await postOk(t.app, '/api/gate', {
      baseline: pick(t.examples.inspector.baseline),
      candidate: pick(t.examples.inspector.candidate),
      baseline_name: t.examples.inspector.baseline_name,
      candidate_name: t.examples.inspector.candidate_name,
      policy: t.examples.inspector.policy,
    });
    expect(r.verdict).toBe(g.verdict);
    expect(r.result.gate.summary).toEqual(g.summary);
  });

  it('holds, naming a clean item the candidate has no result for', async () => {
    const body = structuredClone(t.examples.inspector);
    delete body.candidate['q-007'];
    const r = await postOk(t.app, '/api/inspect', body);
    expect(r.verdict).toBe('HOLD');
    expect(r.result.cohort_check.missing_from_candidate).toEqual(['q-007']);
    expect(byId(r, 'q-007').decision).toBe('missing_result');
  });

  it('answers 400 for cohort items outside the exam', async () => {
    const body = structuredClone(t.examples.inspector);
    body.baseline.ghost = true;
    body.candidate.ghost = true;
    const p = await postBad(t.app, '/api/inspect', body);
    expect(p.errors.map((e: any) => e.path)).toEqual(['/baseline/ghost', '/candidate/ghost']);
  });
});

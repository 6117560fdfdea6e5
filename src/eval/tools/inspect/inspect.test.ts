/* eslint-disable @typescript-eslint/no-explicit-any -- receipts are parsed JSON; the assertions check their shape */
import { describe, expect, it } from 'vitest';
import { executeTool, type ToolOutcome } from '../../execute.js';
import { ok, problem } from '../outcome.testing.js';
import { inspectExample } from './example.js';

const run = (body: unknown): ToolOutcome => executeTool('inspector', Buffer.from(JSON.stringify(body)));
const gate = (body: unknown): ToolOutcome => executeTool('gate', Buffer.from(JSON.stringify(body)));

const leaked = { item_id: 'leak', prompt: 'Prove that the Petersen graph is not Hamiltonian.' };
const exposure = [{ content: 'prove that the petersen graph is NOT hamiltonian', source: 'crawl' }];
const clean = (i: number): { item_id: string; prompt: string } => ({
  item_id: `c${i}`,
  prompt: `Fresh question number ${i}: count the ${i}-colourings of the path on ${i + 3} vertices.`,
});

describe('inspect', () => {
  it('passes the example on its clean items only', () => {
    const r = ok(run(inspectExample));
    expect(r.tool).toBe('inspector');
    expect(r.verdict).toBe('PASS');
    expect(r.result.cohort_check.clean_items).toEqual(['q-004', 'q-005', 'q-006', 'q-007', 'q-008']);
    expect(r.result.cohort_check.excluded_quarantined).toEqual(['q-001', 'q-002', 'q-003']);
    expect(r.result.gate.summary.items).toBe(5);
    expect(r.result.gate.summary.p_one_sided).toBe(1 / 32);
  });

  it('excludes leaked items from the gate: a leaked regression does not block', () => {
    const body = {
      exam: [leaked, ...[1, 2, 3, 4, 5].map(clean)],
      exposure,
      baseline: { leak: true, c1: false, c2: false, c3: false, c4: false, c5: false },
      candidate: { leak: false, c1: true, c2: true, c3: true, c4: true, c5: true },
    };
    const r = ok(run(body));
    expect(r.items.find((i: any) => i.item_id === 'leak')).toMatchObject({
      decision: 'quarantined',
      baseline: true,
      candidate: false,
      leakage: { decision: 'quarantine', tier: 'exact' },
    });
    expect(r.summary).toMatchObject({ quarantined: 1, gated_items: 5, gains: 5, regressions: 0 });
    expect(r.verdict).toBe('PASS');
    // Without the exposure the same results are a BLOCK: the regression on "leak" counts.
    expect(ok(run({ ...body, exposure: [] })).verdict).toBe('BLOCK');
  });

  it('holds, naming the clean item the candidate has no result for', () => {
    const r = ok(
      run({
        exam: [leaked, clean(1), clean(2)],
        exposure,
        baseline: { c1: false, c2: false },
        candidate: { c1: true },
        candidate_name: 'model-v2',
      }),
    );
    expect(r.verdict).toBe('HOLD');
    expect(r.result.cohort_check).toMatchObject({
      complete: false,
      missing_from_candidate: ['c2'],
      missing_from_baseline: [],
    });
    const step = r.decision_path.find((s: any) => s.rule === 'clean_cohort_complete');
    expect(step).toMatchObject({ outcome: 'fail' });
    expect(step.detail).toContain('model-v2 lacks 1: "c2"');
    expect(r.items.find((i: any) => i.item_id === 'c2')).toMatchObject({
      decision: 'missing_result',
      candidate: null,
    });
    expect(r.next_action).toContain('"c2"');
    expect(r.result.gate).toBeNull();
    // The leaked item needs no result from anyone.
    expect(r.result.cohort_check.missing_from_baseline).not.toContain('leak');
  });

  it('holds when every exam item is quarantined', () => {
    const r = ok(run({ exam: [leaked], exposure, baseline: { leak: true }, candidate: { leak: true } }));
    expect(r.verdict).toBe('HOLD');
    expect(r.next_action).toMatch(/every exam item is quarantined/);
  });

  it('gives the verdict /api/gate gives on the clean subset, across policies and outcomes', () => {
    // Deterministic variety: 20 clean items and 4 leaked ones, outcome by index.
    const exam = [
      ...Array.from({ length: 20 }, (_, i) => clean(i)),
      ...Array.from({ length: 4 }, (_, i) => ({
        item_id: `l${i}`,
        prompt: `Leaked prompt ${i} about Ramsey numbers R(3,${i + 3}).`,
      })),
    ];
    const exp = exam.slice(20).map((r) => ({ prompt: r.prompt }));
    const policies = [
      {},
      { max_regressions: 2 },
      { min_gains: 6, confidence_alpha: 0.5 },
      { confidence_alpha: 1, max_regressions: 5 },
    ];
    const seen = new Set<string>();
    for (let variant = 0; variant < 6; variant++) {
      const baseline: Record<string, boolean> = {};
      const candidate: Record<string, boolean> = {};
      exam.forEach((r, i) => {
        const k = (i * 7 + variant * 3) % 10;
        baseline[r.item_id] = k < 4;
        candidate[r.item_id] = k < 4 + variant - 2 || k === 9;
      });
      for (const policy of policies) {
        const inspected = ok(run({ exam, exposure: exp, baseline, candidate, policy }));
        const pick = (m: Record<string, boolean>): Record<string, boolean> =>
          Object.fromEntries(Object.entries(m).filter(([id]) => id.startsWith('c')));
        const gated = ok(gate({ baseline: pick(baseline), candidate: pick(candidate), policy }));
        expect(inspected.verdict).toBe(gated.verdict);
        expect(inspected.result.gate.summary).toEqual(gated.summary);
        expect(inspected.result.gate.result).toEqual(gated.result);
        seen.add(gated.verdict);
      }
    }
    expect([...seen].sort()).toEqual(['BLOCK', 'HOLD', 'PASS']);
  });

  it('uses domains from the request, else from the exam rows, in the gate', () => {
    const r = ok(
      run({
        exam: [
          { ...clean(1), domain: 'paths' },
          { ...clean(2), domain: 'paths' },
        ],
        baseline: { c1: false, c2: false },
        candidate: { c1: true, c2: true },
        domains: { c2: 'colourings' },
      }),
    );
    expect(r.result.gate.result.domains.map((d: any) => [d.domain, d.items])).toEqual([
      ['colourings', 1],
      ['paths', 1],
    ]);
  });
});

describe('inspect: bad input is a 400', () => {
  const base = { exam: [clean(1)], baseline: { c1: false }, candidate: { c1: true } };

  it('names cohort items that are not in the exam', () => {
    const p = problem(
      run({ ...base, baseline: { c1: false, ghost: true }, candidate: { c1: true, ghost: true } }),
    );
    expect(p.errors.map((e: any) => e.path)).toEqual(['/baseline/ghost', '/candidate/ghost']);
    expect(p.detail).toMatch(/not in the exam/);
  });

  it('names domains for items in no cohort', () => {
    expect(problem(run({ ...base, domains: { nope: 'x' } })).errors[0].path).toBe('/domains/nope');
  });

  it('rejects exam rows without identity or content, with the row index', () => {
    expect(problem(run({ ...base, exam: [clean(1), { prompt: 'x y z' }] })).errors[0].path).toBe('/exam/1');
    expect(problem(run({ ...base, exam: [clean(1), { id: 'c9' }] })).errors[0].path).toBe('/exam/1');
  });

  it('rejects the leakage bounds: 5001 rows, similarity_threshold 0.4, fingerprint_max_n 6, non-object rows', () => {
    const many = Array.from({ length: 5001 }, (_, i) => clean(i));
    expect(problem(run({ ...base, exam: many })).errors[0].path).toBe('/exam');
    expect(problem(run({ ...base, exposure: many })).errors[0].path).toBe('/exposure');
    expect(problem(run({ ...base, similarity_threshold: 0.4 })).errors[0].path).toBe('/similarity_threshold');
    expect(problem(run({ ...base, fingerprint_max_n: 6 })).errors[0].path).toBe('/fingerprint_max_n');
    expect(problem(run({ ...base, exam: [clean(1), null] })).errors[0].path).toBe('/exam/1');
  });

  it('rejects the gate bounds: unknown properties, empty cohorts, bad policy and probe', () => {
    expect(problem(run({ ...base, verbose: true })).errors[0].path).toBe('/verbose');
    expect(problem(run({ ...base, baseline: {} })).errors[0].path).toBe('/baseline');
    expect(problem(run({ ...base, policy: { confidence_alpha: 0 } })).errors[0].path).toBe(
      '/policy/confidence_alpha',
    );
    expect(
      problem(run({ ...base, retained_probe: { base_verified: 3, candidate_verified: 9, items: 5 } }))
        .errors[0].path,
    ).toBe('/retained_probe/candidate_verified');
  });
});

describe('inspect: determinism', () => {
  it('gives byte-identical receipts for identical requests', () => {
    const a = run(inspectExample);
    const b = run(JSON.parse(JSON.stringify(inspectExample)));
    expect(a.ok && b.ok).toBe(true);
    if (a.ok && b.ok) expect(a.body).toBe(b.body);
  });
});

describe('inspect: an invalid probe is a 400 even when the cohort check would hold', () => {
  it('rejects the probe before the clean-cohort check', () => {
    const body = {
      exam: [clean(1), clean(2)],
      baseline: { c1: false, c2: true },
      candidate: { c1: true }, // c2 missing: the cohort check alone would answer HOLD
      retained_probe: { base_verified: 3, candidate_verified: 9, items: 5 },
    };
    expect(problem(run(body)).errors[0].path).toBe('/retained_probe/candidate_verified');
  });
});

describe('inspect: ids named like Object.prototype members', () => {
  it('gates "__proto__" and "constructor" as ordinary items', () => {
    const body =
      '{"exam":[{"item_id":"__proto__","prompt":"alpha beta gamma"},{"item_id":"constructor","prompt":"delta epsilon zeta"},' +
      '{"item_id":"b","prompt":"eta theta iota"}],' +
      '"baseline":{"__proto__":false,"constructor":false,"b":false},"candidate":{"__proto__":true,"constructor":true,"b":true},' +
      '"domains":{"b":"letters"}}';
    const outcome = executeTool('inspector', Buffer.from(body));
    const r = ok(outcome);
    expect(r.verdict).toBe('HOLD'); // 3 gains: p = 1/8 > 0.05
    expect(r.result.gate.summary.items).toBe(3);
    expect(r.items.map((i: any) => [i.item_id, i.decision])).toEqual([
      ['__proto__', 'gain'],
      ['constructor', 'gain'],
      ['b', 'gain'],
    ]);
    expect(r.result.gate.result.domains.map((d: any) => d.domain)).toEqual(['(unlabelled)', 'letters']);
  });
});

describe('inspect: the gate on the clean items compares the exact p with alpha', () => {
  // The example gates 5 clean gains: p = 1/32 = 0.03125 exactly.
  it.each([
    [0.03124, 'HOLD'],
    [0.03125, 'PASS'],
    [0.03126, 'PASS'],
  ])('p = 0.03125 against alpha %s: %s', (alpha, verdict) => {
    const r = ok(run({ ...inspectExample, policy: { ...inspectExample.policy, confidence_alpha: alpha } }));
    expect(r.result.gate.summary.p_one_sided).toBe(0.03125);
    expect(r.verdict).toBe(verdict);
  });

  it('holds when p is above alpha by less than a double can show', () => {
    const exam = Array.from({ length: 61 }, (_, i) => clean(i));
    const baseline: Record<string, boolean> = {};
    const candidate: Record<string, boolean> = {};
    exam.forEach(
      (row, i) => ([baseline[row.item_id], candidate[row.item_id]] = i < 39 ? [false, true] : [true, false]),
    );
    const policy = { confidence_alpha: 0.01980850744924984, max_regressions: 30 };
    const r = ok(run({ exam, baseline, candidate, policy }));
    expect(r.summary).toMatchObject({ gains: 39, regressions: 22, p_one_sided: 0.01980850744924984 });
    expect(r.verdict).toBe('HOLD');
  });
});

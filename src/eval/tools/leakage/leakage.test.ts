/* eslint-disable @typescript-eslint/no-explicit-any -- receipts are parsed JSON; the assertions check their shape */
import { describe, expect, it } from 'vitest';
import { executeTool, type ToolOutcome } from '../../execute.js';
import { ok, problem } from '../outcome.testing.js';
import { leakageExample } from './example.js';

// Bytes, as the routes pass them: the production (native) request hash runs.
const run = (body: unknown): ToolOutcome =>
  executeTool('leakage', Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)));

function item(receipt: any, id: string): any {
  const found = receipt.items.find((i: any) => i.item_id === id);
  if (!found) throw new Error(`no item ${id}`);
  return found;
}

const unrelated = {
  item_id: 'u-1',
  prompt: 'Name the capital city of Australia and its population in 2020.',
};

describe('leakage tiers', () => {
  it('quarantines an exam item whose id is declared in the exposure (item_id or id)', () => {
    const r = ok(
      run({
        exam: [{ item_id: 'q-1', prompt: 'Count the perfect matchings of the cube graph.' }, unrelated],
        exposure: [{ id: 'q-1', source: 'manifest' }],
      }),
    );
    expect(item(r, 'q-1')).toMatchObject({
      decision: 'quarantine',
      tier: 'exact',
      matches: [{ exposure_index: 0, source: 'manifest', evidence: ['identity'], score: 1 }],
    });
    expect(item(r, 'u-1').decision).toBe('clean');
  });

  it('matches integer identities with their decimal text', () => {
    const r = ok(
      run({ exam: [{ id: 17, prompt: 'Prove the handshake lemma.' }], exposure: [{ item_id: '17' }] }),
    );
    expect(item(r, '17').decision).toBe('quarantine');
  });

  it('quarantines the same prompt written with different case, spacing and punctuation', () => {
    const r = ok(
      run({
        exam: [{ item_id: 'q-2', prompt: 'Prove that every tree with n vertices has exactly n - 1 edges.' }],
        exposure: [
          { content: '  PROVE that every tree with\n n vertices has exactly n-1 edges ', path: 'dump.txt' },
        ],
      }),
    );
    expect(item(r, 'q-2')).toMatchObject({
      decision: 'quarantine',
      tier: 'exact',
      matches: [{ exposure_index: 0, source: 'dump.txt', evidence: ['content_hash'] }],
    });
  });

  it('quarantines `is_connected and is_tree` against `is_tree and is_connected` by fingerprint, not when the tier is off', () => {
    const body = {
      exam: [{ item_id: 'q-3', expression: 'is_connected and is_tree' }],
      exposure: [{ expression: 'is_tree and is_connected', source: 'claims' }],
    };
    const on = ok(run(body));
    expect(item(on, 'q-3')).toMatchObject({
      decision: 'quarantine',
      tier: 'fingerprint',
      matches: [{ exposure_index: 0, source: 'claims' }],
    });
    const off = ok(run({ ...body, enable_behavioral_fingerprint: false }));
    expect(item(off, 'q-3').decision).toBe('clean');
    expect(off.decision_path[1]).toMatchObject({ rule: 'tier2_behavioral_fingerprint', outcome: 'skip' });
  });

  it('says why an expression nested deeper than 64 levels falls back to text similarity', () => {
    const nest = (depth: number, inner: string) => '('.repeat(depth) + inner + ')'.repeat(depth);
    const deep = `is_forest and ${nest(65, 'is_connected')}`;
    const r = ok(
      run({
        exam: [
          { item_id: 'deep', expression: deep },
          { item_id: 'ok', expression: `is_forest and ${nest(64, 'is_connected')}` },
        ],
        exposure: [{ expression: 'is_tree', source: 'claims' }],
      }),
    );
    const d = item(r, 'deep');
    expect(d.decision).toBe('clean');
    expect(d.reasons).toEqual([
      `expression parses as text only: nested deeper than 64 levels (column ${'is_forest and '.length + 65}), so the behavioural fingerprint (tier 2) does not apply`,
    ]);
    // At exactly 64 levels it is an expression, and the fingerprint matches `is_tree`.
    expect(item(r, 'ok')).toMatchObject({ decision: 'quarantine', tier: 'fingerprint' });
  });

  it('sends a lightly reworded prompt to review, never to quarantine, and not when the tier is off', () => {
    const body = {
      exam: [
        {
          item_id: 'q-4',
          prompt:
            'A cubic graph has 10 vertices and 15 edges. Show that it contains a cycle of length at most 5 and determine its girth.',
        },
      ],
      exposure: [
        {
          prompt:
            'Cubic graph with 10 vertices and 15 edges: show it contains a cycle of length at most 5, then find the girth.',
          source: 'blog',
        },
      ],
    };
    const r = ok(run(body));
    const it4 = item(r, 'q-4');
    expect(it4.decision).toBe('review');
    expect(it4.tier).toBe('similarity');
    expect(it4.matches[0].score).toBeGreaterThanOrEqual(0.6);
    expect(it4.matches[0].score).toBeLessThan(1);
    expect(r.result.clean_exam).toEqual(body.exam);
    expect(r.status).toBe('REVIEW');
    // Even a threshold of 0.5 and a near-identical text never quarantine through this tier.
    const strict = ok(run({ ...body, similarity_threshold: 0.5 }));
    expect(item(strict, 'q-4').decision).toBe('review');
    expect(item(ok(run({ ...body, enable_text_similarity: false })), 'q-4').decision).toBe('clean');
    // Above the pair's score, no review.
    const above = ok(run({ ...body, similarity_threshold: Math.min(1, it4.matches[0].score + 0.01) }));
    expect(item(above, 'q-4').decision).toBe('clean');
  });

  it('needs at least 3 shared terms for a similarity match', () => {
    const r = ok(
      run({
        exam: [{ item_id: 'a', prompt: 'graph colouring' }],
        exposure: [{ prompt: 'graph colouring' + ' x' }],
        similarity_threshold: 0.5,
      }),
    );
    expect(item(r, 'a').decision).toBe('clean');
  });

  it('keeps at most 3 similarity matches per item, best first', () => {
    const text = 'alpha beta gamma delta epsilon zeta eta theta';
    const r = ok(
      run({
        exam: [{ item_id: 'a', prompt: text }],
        exposure: [
          { prompt: 'alpha beta gamma delta epsilon zeta' },
          { prompt: text + ' iota' },
          { prompt: 'alpha beta gamma delta epsilon zeta eta' },
          { prompt: 'alpha beta gamma delta epsilon zeta eta kappa' },
          { prompt: text + ' iota kappa' },
        ],
      }),
    );
    const scores = item(r, 'a').matches.map((m: any) => m.score);
    expect(scores).toHaveLength(3);
    expect([...scores].sort((x: number, y: number) => y - x)).toEqual(scores);
    // Scores: [1] 8/9 J -> 0.933, [2] 0.925, [4] 0.88, [0] 0.85, [3] 0.817.
    expect(item(r, 'a').matches.map((m: any) => m.exposure_index)).toEqual([1, 2, 4]);
    expect(scores[0]).toBeCloseTo(0.6 * (8 / 9) + 0.4, 10);
  });

  it('leaves unrelated rows clean, and clean_exam is exactly the unquarantined rows, unchanged and in order', () => {
    const receipt = ok(run(leakageExample));
    const quarantined = new Set(['q-001', 'q-002', 'q-003']);
    const decided = (d: string) =>
      receipt.items.filter((i: any) => i.decision === d).map((i: any) => i.item_id);
    expect(decided('quarantine')).toEqual([...quarantined]);
    expect(decided('review')).toEqual(['q-004']);
    expect(item(receipt, 'q-005').decision).toBe('clean');
    expect(item(receipt, 'q-006').decision).toBe('clean');
    expect(receipt.result.clean_exam).toEqual(
      leakageExample.exam.filter((r) => !quarantined.has(String(r.item_id))),
    );
    expect(receipt.status).toBe('LEAKED');
    // Items follow exam order.
    expect(receipt.items.map((i: any) => i.item_id)).toEqual(leakageExample.exam.map((r) => r.item_id));
  });

  it('keeps extra properties of clean rows byte for byte', () => {
    const row = { id: 'x', question: 'Is K4 planar?', meta: { nested: [1, 'two', null] }, weight: 0.25 };
    const r = ok(run({ exam: [row] }));
    expect(r.result.clean_exam).toEqual([row]);
    expect(r.status).toBe('CLEAN');
  });
});

describe('leakage: bad input is a 400 naming the row', () => {
  it('rejects an exam row without identity, or without content, naming /exam/<i>', () => {
    const p = problem(
      run({
        exam: [
          { item_id: 'a', prompt: 'ok prompt' },
          { prompt: 'no id' },
          { item_id: 'c', note: 'no content' },
        ],
      }),
    );
    expect(p.errors.map((e: any) => e.path)).toEqual(['/exam/1', '/exam/2']);
    expect(p.errors[0].message).toMatch(/identity \(item_id or id\)/);
    expect(p.errors[1].message).toMatch(
      /content field \(prompt, content, input, task, question, expression\)/,
    );
  });

  it('rejects exposure rows with neither identity nor content', () => {
    const p = problem(run({ exam: [unrelated], exposure: [{ source: 'x' }] }));
    expect(p.errors[0].path).toBe('/exposure/0');
  });

  it('rejects duplicate exam identities and content that normalises to nothing', () => {
    const dup = problem(run({ exam: [unrelated, { ...unrelated, prompt: 'other' }] }));
    expect(dup.errors[0]).toMatchObject({ path: '/exam/1' });
    expect(dup.errors[0].message).toMatch(/repeats identity "u-1" of \/exam\/0/);
    expect(problem(run({ exam: [{ id: 'a', prompt: ' ?! ' }] })).errors[0].path).toBe('/exam/0/prompt');
  });

  it('rejects 5001 exam rows and 5001 exposure rows', () => {
    const many = Array.from({ length: 5001 }, (_, i) => ({ item_id: `i${i}`, prompt: `p ${i}` }));
    expect(problem(run({ exam: many })).errors[0].path).toBe('/exam');
    expect(problem(run({ exam: [unrelated], exposure: many })).errors[0].path).toBe('/exposure');
  });

  it('rejects similarity_threshold 0.4 and fingerprint_max_n 6 (and 2)', () => {
    expect(problem(run({ exam: [unrelated], similarity_threshold: 0.4 })).errors[0].path).toBe(
      '/similarity_threshold',
    );
    expect(problem(run({ exam: [unrelated], fingerprint_max_n: 6 })).errors[0].path).toBe(
      '/fingerprint_max_n',
    );
    expect(problem(run({ exam: [unrelated], fingerprint_max_n: 2 })).errors[0].path).toBe(
      '/fingerprint_max_n',
    );
  });

  it('rejects rows that are not objects, and content that is not a string', () => {
    expect(problem(run({ exam: [unrelated, 'just a string'] })).errors[0].path).toBe('/exam/1');
    expect(problem(run({ exam: [unrelated], exposure: [42] })).errors[0].path).toBe('/exposure/0');
    expect(problem(run({ exam: [{ item_id: 'a', prompt: 7 }] })).errors[0].path).toBe('/exam/0/prompt');
  });

  it('rejects unknown top-level properties and a missing exam', () => {
    expect(problem(run({ exam: [unrelated], threshold: 0.7 })).errors[0].path).toBe('/threshold');
    expect(problem(run({ exposure: [] })).errors[0].path).toBe('/exam');
  });
});

describe('leakage: defaults and determinism', () => {
  it('applies the seed defaults', () => {
    const r = ok(run({ exam: [unrelated] }));
    expect(r.summary.tiers_enabled).toEqual({ exact: true, fingerprint: true, similarity: true });
    expect(r.result.tiers.fingerprint.max_n).toBe(4);
    expect(r.result.tiers.fingerprint.graphs).toBe(75);
    expect(r.result.tiers.similarity.threshold).toBe(0.6);
  });

  it('gives byte-identical receipts for identical requests', () => {
    const a = run(leakageExample);
    const b = run(JSON.parse(JSON.stringify(leakageExample)));
    expect(a.ok && b.ok).toBe(true);
    if (a.ok && b.ok) expect(a.body).toBe(b.body);
  });
});

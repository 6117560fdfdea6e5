/* eslint-disable @typescript-eslint/no-explicit-any -- receipts are parsed JSON; the assertions check their shape */
import { describe, expect, it } from 'vitest';
import { executeTool, type ToolOutcome } from '../../execute.js';
import { ok, problem } from '../outcome.testing.js';
import { wilson } from '../../math/wilson.js';
import { FLAKY_FLIP_RATE_THRESHOLD, FLAKY_MIN_FLIPS, ITEM_CLASSES } from './classify.js';
import { healthReportExample } from './example.js';
import type { HistoryRow } from './schema.js';

const run = (body: unknown): ToolOutcome => executeTool('health', Buffer.from(JSON.stringify(body)));

function classOf(receipt: any, id: string): string {
  const item = receipt.items.find((i: any) => i.item_id === id);
  if (!item) throw new Error(`no item ${id}`);
  return item.item_class;
}

describe('health report: the example request', () => {
  const receipt = ok(run(healthReportExample));

  it('classifies stable, frontier, hard and noisy as stated', () => {
    expect(classOf(receipt, 'stable')).toBe('saturated');
    expect(classOf(receipt, 'frontier')).toBe('discriminating');
    expect(classOf(receipt, 'hard')).toBe('too_hard');
    // noisy: model-a ran T F T F T, 4 flips in 4 consecutive pairs.
    const noisyFlaky = 4 >= FLAKY_MIN_FLIPS && wilson(4, 4).wilson_low! > FLAKY_FLIP_RATE_THRESHOLD;
    expect(classOf(receipt, 'noisy')).toBe(noisyFlaky ? 'flaky' : 'discriminating');
    expect(classOf(receipt, 'noisy')).toBe('flaky');
  });

  it('keeps one flip from making an item flaky, and flags the rest', () => {
    expect(classOf(receipt, 'drifting')).toBe('discriminating');
    expect(classOf(receipt, 'solo')).toBe('under_observed');
    expect(classOf(receipt, 'fresh')).toBe('unmeasured');
  });

  it('gives item-level decisions, per-domain counts and frontier gaps', () => {
    expect(receipt.tool).toBe('health');
    const decisions = Object.fromEntries(receipt.items.map((i: any) => [i.item_id, i.decision]));
    expect(decisions).toEqual({
      drifting: 'keep',
      fresh: 'measure',
      frontier: 'keep',
      hard: 'add_easier_variant',
      noisy: 'review',
      solo: 'observe_more',
      stable: 'retire',
    });
    expect(receipt.result.frontier_gaps).toEqual(['logic']);
    const geometry = receipt.result.domains.find((d: any) => d.domain === 'geometry');
    expect(geometry.items).toBe(3);
    expect(geometry.classes).toMatchObject({ too_hard: 1, flaky: 1, discriminating: 1 });
    expect(receipt.result.classes.saturated.count).toBe(1);
    const noisy = receipt.items.find((i: any) => i.item_id === 'noisy');
    // Per-system columns line up with the system names.
    expect(noisy.systems.length).toBe(noisy.runs.length);
    expect(noisy.flaky).toContain(true);
    expect(noisy.flaky[noisy.flips.indexOf(Math.max(...noisy.flips))]).toBe(true);
    expect(receipt.result.classes.saturated.next_action).toMatch(/Retire/);
    expect(receipt.result.classes.too_hard.next_action).toMatch(/easier variants/);
    expect(receipt.result.classes.flaky.next_action).toMatch(/Review/);
  });

  it('computes the readiness index from its stated components', () => {
    const r = receipt.result.readiness;
    const values = Object.fromEntries(r.components.map((c: any) => [c.name, c.value]));
    expect(values.coverage).toBeCloseTo(6 / 7, 10);
    expect(values.observation).toBeCloseTo(5 / 6, 10);
    expect(values.discrimination).toBeCloseTo(2 / 5, 10);
    expect(values.reliability).toBeCloseTo(4 / 5, 10);
    expect(values.frontier).toBeCloseTo(2 / 3, 10);
    const expected = 100 * (0.15 * (6 / 7) + 0.1 * (5 / 6) + 0.35 * 0.4 + 0.25 * 0.8 + 0.15 * (2 / 3));
    // 65.19...: shown rounded down, so the shown index never reaches a band the exact one misses.
    expect(r.index).toBe(Math.floor(expected * 10) / 10);
    expect(r.index).toBe(65.1);
    expect(receipt.status).toBe('NEEDS_WORK');
    expect(receipt.next_action).toMatch(/discrimination/);
  });
});

describe('health report: scale', () => {
  it('classifies every item of a 5000-row history; items without history are unmeasured', () => {
    // 1250 items x 2 systems x 2 runs; the pattern of item i is fixed by i mod 4.
    const patterns = [
      { a: 'TT', b: 'TT', cls: 'saturated' },
      { a: 'FF', b: 'FF', cls: 'too_hard' },
      { a: 'TT', b: 'FF', cls: 'discriminating' },
      { a: 'TF', b: 'FT', cls: 'flat' },
    ];
    const history: HistoryRow[] = [];
    const id = (i: number): string => `item-${String(i).padStart(4, '0')}`;
    for (let i = 0; i < 1250; i++) {
      const p = patterns[i % 4]!;
      for (let r = 0; r < 2; r++) {
        history.push({ item_id: id(i), system: 'sys-a', passed: p.a[r] === 'T', domain: `d${i % 7}` });
        history.push({ item_id: id(i), system: 'sys-b', passed: p.b[r] === 'T' });
      }
    }
    const items = Array.from({ length: 1300 }, (_, i) => ({ item_id: id(i) }));
    expect(history).toHaveLength(5000);
    const receipt = ok(run({ history, items }));
    expect(receipt.items).toHaveLength(1300);
    for (const item of receipt.items) {
      const i = Number(item.item_id.slice(5));
      expect(item.item_class).toBe(i < 1250 ? patterns[i % 4]!.cls : 'unmeasured');
      expect(ITEM_CLASSES).toContain(item.item_class);
    }
    const counts = receipt.summary.classes;
    expect(Object.values(counts as Record<string, number>).reduce((s, n) => s + n, 0)).toBe(1300);
    expect(counts.unmeasured).toBe(50);
  });
});

describe('health report: bad input is a 400 that names the problem', () => {
  const row = { item_id: 'a', system: 's', passed: true };

  it('rejects 5001 history rows', () => {
    const p = problem(run({ history: Array.from({ length: 5001 }, () => row) }));
    expect(p.errors[0]).toMatchObject({ path: '/history' });
    expect(p.errors[0].message).toMatch(/has 5001 items; at most 5000/);
  });

  it('rejects 5001 items', () => {
    const p = problem(
      run({ history: [row], items: Array.from({ length: 5001 }, (_, i) => ({ item_id: `i${i}` })) }),
    );
    expect(p.errors[0]).toMatchObject({ path: '/items' });
  });

  it('rejects an empty history, rows that are not objects, and missing or mistyped fields', () => {
    expect(problem(run({ history: [] })).errors[0].path).toBe('/history');
    expect(problem(run({ history: [row, 'a,s,true'] })).errors[0].path).toBe('/history/1');
    expect(problem(run({ history: [{ item_id: 'a', system: 's' }] })).errors[0].path).toBe(
      '/history/0/passed',
    );
    expect(problem(run({ history: [{ ...row, passed: 'yes' }] })).errors[0].path).toBe('/history/0/passed');
    expect(problem(run({ history: [{ ...row, item_id: '' }] })).errors[0].path).toBe('/history/0/item_id');
  });

  it('rejects unknown top-level properties but accepts extra row properties', () => {
    expect(problem(run({ history: [row], extra: 1 })).errors[0].path).toBe('/extra');
    expect(run({ history: [{ ...row, latency_ms: 12, run_id: 'r1' }] }).ok).toBe(true);
  });
});

describe('health report: inputs that disagree are answered, with warnings', () => {
  const row = { item_id: 'a', system: 's', passed: true };
  type Warnings = {
    counts: Record<string, number>;
    listed: { code: string; path: string; message: string }[];
  };
  const receipt = (body: unknown) => {
    const out = run(body);
    if (!out.ok) throw new Error(JSON.stringify(out.problem));
    return JSON.parse(out.body) as {
      items: { item_id: string; domain?: string }[];
      decision_path: { rule: string; outcome: string; detail: string }[];
      result: { warnings: Warnings };
    };
  };

  it("the item definition's domain wins over conflicting history labels", () => {
    const r = receipt({
      history: [row, { ...row, domain: 'algebra' }, { ...row, domain: 'geometry' }],
      items: [{ item_id: 'a', domain: 'algebra' }],
    });
    expect(r.items[0]!.domain).toBe('algebra');
    expect(r.result.warnings.counts).toEqual({ conflicting_domain: 1, duplicate_item_definition: 0 });
    expect(r.result.warnings.listed[0]).toMatchObject({
      code: 'conflicting_domain',
      path: '/history/2/domain',
    });
    expect(r.result.warnings.listed[0]!.message).toMatch(/has domain "algebra" \(\/items\/0\/domain\)/);
    const rule = r.decision_path.find((d) => d.rule === 'inputs_consistent')!;
    expect(rule).toMatchObject({ outcome: 'info' });
    expect(rule.detail).toMatch(/^1 conflicting domain label/);
  });

  it('without a definition the first label wins; the listed warnings are bounded, the count exact', () => {
    const history = Array.from({ length: 3000 }, (_, i) => ({ ...row, domain: i % 2 ? 'b' : 'a' }));
    const r = receipt({ history });
    expect(r.items[0]!.domain).toBe('a');
    expect(r.result.warnings.counts.conflicting_domain).toBe(1500);
    expect(r.result.warnings.listed).toHaveLength(20);
  });

  it('a repeated item definition: the first one is used', () => {
    const r = receipt({
      history: [row],
      items: [
        { item_id: 'a', domain: 'x' },
        { item_id: 'a', domain: 'y' },
      ],
    });
    expect(r.items[0]!.domain).toBe('x');
    expect(r.result.warnings.listed[0]).toMatchObject({
      code: 'duplicate_item_definition',
      path: '/items/1',
    });
    expect(
      receipt({ history: [row] }).decision_path.find((d) => d.rule === 'inputs_consistent')!.outcome,
    ).toBe('pass');
  });
});

describe('health report: determinism', () => {
  it('gives byte-identical receipts for identical requests', () => {
    const a = run(healthReportExample);
    const b = run(JSON.parse(JSON.stringify(healthReportExample)));
    expect(a.ok && b.ok).toBe(true);
    if (a.ok && b.ok) expect(a.body).toBe(b.body);
  });
});

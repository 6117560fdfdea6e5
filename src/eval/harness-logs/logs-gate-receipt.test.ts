import { describe, expect, it } from 'vitest';
import { strToU8 } from 'fflate';
import { createHash } from 'node:crypto';
import * as fx from './fixtures.testing.js';
import { gateLogs, parseLogsGateOptions } from './logs-gate-receipt.js';
import { bufferSource } from './source.js';
import type { Receipt } from '../../core/receipt.js';

const input = (name: string, bytes: Uint8Array) => ({
  source: bufferSource(name, bytes),
  sha256: createHash('sha256').update(bytes).digest('hex'),
});

async function gate(base: Uint8Array, cand: Uint8Array, options: unknown = {}): Promise<Receipt> {
  const sealed = await gateLogs(input('base', base), input('cand', cand), parseLogsGateOptions(options));
  return JSON.parse(sealed.text) as Receipt;
}

const same: fx.Outcome[] = [
  { id: '1', runs: [false] },
  { id: '2', runs: [false] },
  { id: '3', runs: [false] },
  { id: '4', runs: [false] },
  { id: '5', runs: [false] },
  { id: '6', runs: [true] },
];
const better = same.map((o) => ({ ...o, runs: [true] }));

describe('joining two logs', () => {
  it('passes 5 gains / 0 regressions (p = 1/32) from Inspect logs and names the sources', async () => {
    const r = await gate(fx.inspectEval(same, 'm1'), fx.inspectEval(better, 'm2'));
    expect(r.verdict).toBe('PASS');
    expect(r.summary).toMatchObject({
      gains: 5,
      regressions: 0,
      p_one_sided: 1 / 32,
      baseline_name: 'm1',
      candidate_name: 'm2',
    });
    const sources = r.result.sources as Record<string, Record<string, unknown>>;
    expect(sources.baseline).toMatchObject({
      format: 'inspect-eval',
      harness_version: '0.3.140',
      task: 'arith',
      samples: 6,
      items: 6,
    });
    expect(sources.candidate!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(r.tool).toBe('gate-logs');
  });

  it('holds and lists items on one side only, never dropping them', async () => {
    const r = await gate(
      fx.inspectEval(same),
      fx.inspectEval(better.slice(0, 5).concat([{ id: '7', runs: [true] }])),
    );
    expect(r.verdict).toBe('HOLD');
    expect(r.decision_path.find((s) => s.rule === 'cohort_matched')).toMatchObject({ outcome: 'fail' });
    expect(r.result.unmatched).toMatchObject({ only_baseline: ['6'], only_candidate: ['7'] });
    expect(r.items.filter((i) => i.decision.startsWith('only_')).map((i) => i.item_id)).toEqual(['6', '7']);
  });

  it('holds on an item whose input changed between the logs', async () => {
    const r = await gate(
      fx.inspectEval(same),
      fx.inspectEval(better.map((o) => (o.id === '2' ? { ...o, input: 'another question' } : o))),
    );
    expect(r.verdict).toBe('HOLD');
    const changed = (r.result.unmatched as { input_changed: { item_id: string }[] }).input_changed;
    expect(changed.map((c) => c.item_id)).toEqual(['2']);
    expect(r.summary.items).toBe(5);
  });

  it('holds on duplicate rows and lists them', async () => {
    const dup = strToU8(
      '{"item_id":"a","passed":false}\n{"item_id":"a","passed":true}\n{"item_id":"b","passed":false}\n',
    );
    const r = await gate(dup, strToU8('{"item_id":"a","passed":true}\n{"item_id":"b","passed":true}\n'));
    expect(r.verdict).toBe('HOLD');
    expect((r.result.unmatched as { duplicates: unknown }).duplicates).toEqual({
      baseline: [{ item_id: 'a', run: 1, at: 'line 2' }],
      candidate: [],
    });
  });

  it('counts errored samples as failures by default, or leaves them out', async () => {
    const base: fx.Outcome[] = [
      { id: '1', runs: [true, true] },
      { id: '2', runs: [true, 'error'] },
      { id: '3', runs: ['error', 'error'] },
    ];
    const cand: fx.Outcome[] = base.map((o) => ({ ...o, runs: [true, true] }));
    const fail = await gate(fx.inspectEval(base), fx.inspectEval(cand));
    expect(fail.result.errors_policy).toBe('fail');
    expect(fail.result.counts).toMatchObject({
      errored_runs: { baseline: 3, candidate: 0 },
      excluded_errors: 0,
    });
    expect(fail.items.find((i) => i.item_id === '3')!.decision).toBe('gain');
    const exclude = await gate(fx.inspectEval(base), fx.inspectEval(cand), { errors: 'exclude' });
    expect(exclude.result.counts).toMatchObject({
      errored_runs: { baseline: 3, candidate: 0 },
      excluded_errors: 1,
    });
    expect(exclude.items.find((i) => i.item_id === '3')!.decision).toBe('excluded_errors');
    expect(exclude.items.find((i) => i.item_id === '2')!.decision).toBe('both_pass');
  });

  it('compares two prompts of one promptfoo file with itself', async () => {
    const outcomes: fx.Outcome[] = same.map((o) => ({ ...o, runs: [false, false, false] }));
    const file = fx.promptfooOutput(outcomes, [
      { provider: 'echo', prompt: 'old' },
      { provider: 'echo', prompt: 'new' },
    ]);
    const r = await gate(file, file, { baseline_select: 'old', candidate_select: 'echo|new' });
    expect(r.summary).toMatchObject({ items: 6, gains: 0, regressions: 0 });
  });

  it('names a bad option', async () => {
    await expect(gate(fx.cohortMap(same), fx.cohortMap(better), { errors: 'skip' })).rejects.toThrow(
      /errors/,
    );
  });
});

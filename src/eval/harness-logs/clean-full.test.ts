import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import type { Receipt } from '../../core/receipt.js';
import * as fx from './fixtures.testing.js';
import { exposureInput, gateLogs, parseLogsGateOptions } from './logs-gate-receipt.js';
import { bufferSource } from './source.js';

const input = (name: string, bytes: Uint8Array) => ({
  source: bufferSource(name, bytes),
  sha256: createHash('sha256').update(bytes).digest('hex'),
});

async function gate(
  base: Uint8Array,
  cand: Uint8Array,
  exposure?: string,
  options: unknown = {},
): Promise<Receipt> {
  const sealed = await gateLogs(
    input('base', base),
    input('cand', cand),
    parseLogsGateOptions(options),
    exposure === undefined ? undefined : exposureInput(exposure),
  );
  return JSON.parse(sealed.text) as Receipt;
}

// Eight items: the baseline fails 1..6 and passes 7, 8; the candidate passes all eight.
const inputs: Record<string, string> = {
  '4': 'compute the sum of seven and eleven then check the carry digit',
};
const base: fx.Outcome[] = Array.from({ length: 8 }, (_, i) => ({
  id: String(i + 1),
  runs: [i >= 6, i >= 6, i >= 6],
  input: inputs[String(i + 1)] ?? `question ${i + 1}`,
}));
const cand: fx.Outcome[] = base.map((o) => ({ ...o, runs: [true, true, true] }));

// Item 1 by identity, 2 by its text, 3 by its text written otherwise (case, punctuation);
// item 4 only resembles an exposed text (review: it stays in the clean cohort).
const exposure = [
  { item_id: '1', source: 'train.jsonl' },
  { content: 'question 2', source: 'forum' },
  { prompt: 'Question 3?' },
  { content: 'compute the sum of seven and twelve then check the carry digit' },
];

describe('clean versus full', () => {
  it('gates the full and the clean cohort as a hand computation says', async () => {
    const r = await gate(fx.inspectEval(base, 'm1'), fx.inspectEval(cand, 'm2'), JSON.stringify(exposure));
    // Full: 6 gains, 0 regressions, p = 2^-6 -> PASS. Clean (1, 2, 3 quarantined): items 4..8,
    // 3 gains, p = 2^-3 = 0.125 > 0.05 -> HOLD.
    const full = r.summary.full as Record<string, unknown>;
    expect(full).toMatchObject({ verdict: 'PASS', items: 8, gains: 6, regressions: 0, p_one_sided: 1 / 64 });
    expect(r.verdict).toBe('HOLD');
    expect(r.summary).toMatchObject({
      items: 5,
      gains: 3,
      regressions: 0,
      p_one_sided: 1 / 8,
      verdict_changed: true,
    });
    expect(r.summary.exposure).toMatchObject({ exam: 8, exposure: 4, quarantined: 3, review: 1, clean: 4 });
    const diff = r.result.difference as Record<string, unknown>;
    expect(diff).toMatchObject({
      full_verdict: 'PASS',
      clean_verdict: 'HOLD',
      quarantined_items: 3,
      gains_in_exposed_items: 3,
      regressions_in_exposed_items: 0,
    });
    expect(String(diff.statement)).toMatch(/changes from PASS to HOLD/);
    const byId = new Map(r.items.map((it) => [it.item_id, it]));
    expect(byId.get('1')).toMatchObject({ decision: 'quarantined', tier: 'exact' });
    expect(byId.get('3')!.reasons.join(' ')).toMatch(/in the full cohort: gain/);
    expect(byId.get('4')!.decision).toBe('gain');
    expect(byId.get('4')!.reasons.join(' ')).toMatch(/resembles exposure\[3\]/);
    expect((r.result.exposure as { quarantined: string[] }).quarantined).toEqual(['1', '2', '3']);
    expect(r.decision_path.map((s) => s.rule)).toContain('contamination_adjusted');
    expect(r.hashes.request_sha256).not.toBe(
      JSON.parse(
        (
          await gateLogs(
            input('base', fx.inspectEval(base, 'm1')),
            input('cand', fx.inspectEval(cand, 'm2')),
            parseLogsGateOptions({}),
          )
        ).text,
      ).hashes.request_sha256,
    );
  });

  it('keeps the verdict when the exposed items do not carry it', async () => {
    // Only item 7 (both pass) exposed: the clean cohort keeps all six gains, p = 1/64.
    const r = await gate(fx.inspectJson(base), fx.inspectJson(cand), '{"item_id":"7"}\n');
    expect(r.verdict).toBe('PASS');
    expect(r.summary).toMatchObject({ items: 7, gains: 6, verdict_changed: false });
    expect((r.summary.full as { verdict: string }).verdict).toBe('PASS');
  });

  it('audits a log without inputs by item id', async () => {
    const r = await gate(
      fx.helmStats(base),
      fx.helmStats(cand),
      JSON.stringify({ exposure: [{ id: '5' }] }),
      {
        metric: 'exact_match',
      },
    );
    expect((r.result.exposure as { quarantined: string[] }).quarantined).toEqual(['5']);
    expect(r.summary).toMatchObject({ items: 7, gains: 5 });
  });

  it.each([
    ['not JSON nor JSONL', '[{"id": 1}', /neither JSON .* nor JSONL: line 1/],
    ['empty', '  ', /exposure file is empty/],
    ['no rows', '[]', /exposure has 0 items; at least 1 is required/],
    [
      'a row with neither identity nor content',
      '[{"source": "x"}]',
      /neither an identity .* nor a content field/,
    ],
    ['a row that is not an object', '[{"id": 1}, 7]', /exposure\.1 is the number 7; it must be an object/],
    ['an unknown option', '{"exposure": [{"id": 1}], "threshold": 2}', /unknown property "threshold"/],
    ['a bad tier option', '{"exposure": [{"id": 1}], "fingerprint_max_n": 9}', /fingerprint_max_n/],
  ])('refuses an exposure file that is %s with a 400 naming the problem', async (_what, text, message) => {
    const err = await gate(fx.cohortMap(base), fx.cohortMap(cand), text).then(
      () => null,
      (e: unknown) => e as AppError,
    );
    expect(err).toBeInstanceOf(AppError);
    const detail = [err!.message, ...(err!.errors ?? []).map((e) => `${e.path}: ${e.message}`)].join('\n');
    expect(detail).toMatch(message);
    expect(err!.status).toBe(400);
  });
});

import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../core/canonical-json.js';
import { AppError } from '../../../core/errors.js';
import { compileValidator } from '../../../core/validation.js';
import { gateExample } from './example.js';
import { floatDp } from '../../harness-logs/sign-flip.js';
import { additionalGainsNeeded, decide, runGate } from './gate.js';
import { GateRequest } from './schema.js';

const validate = compileValidator(GateRequest);

/** A request (defaults applied) with `gains` false->true, `regressions` true->false, `same` true->true. */
function cohort(gains: number, regressions: number, same = 0, extra: Partial<GateRequest> = {}): GateRequest {
  const baseline: Record<string, boolean> = {};
  const candidate: Record<string, boolean> = {};
  for (let i = 0; i < gains; i++) [baseline[`g${i}`], candidate[`g${i}`]] = [false, true];
  for (let i = 0; i < regressions; i++) [baseline[`r${i}`], candidate[`r${i}`]] = [true, false];
  for (let i = 0; i < same; i++) [baseline[`s${i}`], candidate[`s${i}`]] = [true, true];
  return validate.assert(structuredClone({ baseline, candidate, ...extra }));
}

describe('gate verdicts', () => {
  it('passes the published example with one-sided p = 0.015625', () => {
    const body = runGate(validate.assert(structuredClone(gateExample)));
    expect(body.verdict).toBe('PASS');
    expect(body.summary.gains).toBe(6);
    expect(body.summary.regressions).toBe(0);
    expect(body.summary.p_one_sided).toBe(0.015625);
    expect(body.items).toHaveLength(7);
    expect(body.decision_path.map((s) => s.rule)).toEqual([
      'regressions_within_limit',
      'retained_probe',
      'min_gains',
      'sign_test',
      'promote',
    ]);
  });

  it('lists every rule on every verdict: after the deciding one each is a skip, promote included', () => {
    const rules = ['regressions_within_limit', 'retained_probe', 'min_gains', 'sign_test', 'promote'];
    const block = runGate(cohort(10, 2, 0));
    const hold = runGate(cohort(2, 0, 3));
    expect(block.decision_path.map((s) => [s.rule, s.outcome])).toEqual([
      [rules[0], 'fail'],
      [rules[1], 'skip'],
      [rules[2], 'skip'],
      [rules[3], 'skip'],
      [rules[4], 'skip'],
    ]);
    expect(hold.decision_path.map((s) => [s.rule, s.outcome])).toEqual([
      [rules[0], 'pass'],
      [rules[1], 'pass'],
      [rules[2], 'pass'],
      [rules[3], 'fail'],
      [rules[4], 'skip'],
    ]);
    expect(hold.decision_path.at(-1)!.detail).toBe(
      'not reached (verdict already HOLD); PASS needs every rule above to hold',
    );
  });

  it('blocks when regressions exceed the limit', () => {
    const body = runGate(cohort(10, 2, 0, { policy: { max_regressions: 1 } as GateRequest['policy'] }));
    expect(body.verdict).toBe('BLOCK');
    expect(body.decision_path[0]).toMatchObject({ rule: 'regressions_within_limit', outcome: 'fail' });
    expect(body.summary.additional_clean_gains_needed).toBeNull();
  });

  it('blocks when a retained probe is required and missing, or the candidate verifies fewer', () => {
    const policy = { require_retained_probe: true } as GateRequest['policy'];
    expect(runGate(cohort(6, 0, 0, { policy })).verdict).toBe('BLOCK');
    const worse = cohort(6, 0, 0, {
      policy,
      retained_probe: { base_verified: 9, candidate_verified: 8, items: 10 },
    });
    expect(runGate(worse).verdict).toBe('BLOCK');
    const held = cohort(6, 0, 0, {
      policy,
      retained_probe: { base_verified: 9, candidate_verified: 9, items: 10 },
    });
    expect(runGate(held).verdict).toBe('PASS');
  });

  it('holds 2 gains / 0 regressions at alpha 0.05 and passes them with alpha 1', () => {
    const hold = runGate(cohort(2, 0, 3));
    expect(hold.verdict).toBe('HOLD');
    expect(hold.summary.p_one_sided).toBe(0.25);
    expect(hold.summary.additional_clean_gains_needed).toBe(3); // 5 gains: p = 1/32 <= 0.05
    const pass = runGate(cohort(2, 0, 3, { policy: { confidence_alpha: 1 } as GateRequest['policy'] }));
    expect(pass.verdict).toBe('PASS');
  });

  it('never passes 1 gain against 10 regressions, whatever max_regressions is', () => {
    for (const max of [10, 100, 5000]) {
      const body = runGate(cohort(1, 10, 0, { policy: { max_regressions: max } as GateRequest['policy'] }));
      expect(body.verdict).toBe('HOLD');
      expect(body.summary.p_one_sided).toBe(0.99951171875);
      expect(body.summary.p_two_sided).toBe(0.01171875);
    }
  });

  it('holds below min_gains', () => {
    const body = runGate(
      cohort(3, 0, 0, { policy: { min_gains: 5, confidence_alpha: 1 } as GateRequest['policy'] }),
    );
    expect(body.verdict).toBe('HOLD');
    expect(body.summary.additional_clean_gains_needed).toBe(2);
  });

  it('reports per-domain figures with Wilson intervals', () => {
    const body = runGate(validate.assert(structuredClone(gateExample)));
    const domains = body.result.domains as {
      domain: string;
      items: number;
      gains: number;
      candidate_pass_rate: { rate: number; wilson_low: number; wilson_high: number };
    }[];
    expect(domains.map((d) => d.domain)).toEqual(['algebra', 'geometry']);
    expect(domains[0]).toMatchObject({ items: 3, gains: 3 });
    expect(domains[0]!.candidate_pass_rate.rate).toBe(1);
    expect(domains[0]!.candidate_pass_rate.wilson_high).toBe(1);
    expect(domains[0]!.candidate_pass_rate.wilson_low).toBeCloseTo(0.4385, 4);
  });
});

describe('gate input errors', () => {
  const expectInvalid = (req: GateRequest, pattern: RegExp): AppError => {
    try {
      runGate(req);
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(400);
      expect((err as AppError).message).toMatch(pattern);
      return err as AppError;
    }
    throw new Error('expected a 400');
  };

  it('names the differences between mismatched cohorts', () => {
    const req = validate.assert({ baseline: { a: true, b: true }, candidate: { a: true, c: false } });
    const err = expectInvalid(req, /exactly the same item ids: 1 only in baseline, 1 only in candidate/);
    expect(err.errors).toEqual([
      { path: '/candidate/b', message: 'item "b" is in baseline but missing from candidate' },
      { path: '/baseline/c', message: 'item "c" is in candidate but missing from baseline' },
    ]);
  });

  it('rejects probe counts above items and domain labels for unknown items', () => {
    expectInvalid(
      cohort(1, 0, 0, { retained_probe: { base_verified: 11, candidate_verified: 1, items: 10 } }),
      /cannot exceed/,
    );
    expectInvalid(cohort(1, 0, 0, { domains: { nope: 'x' } }), /not in baseline\/candidate/);
  });
});

describe('additional clean gains needed', () => {
  it('is the smallest number of gains that reaches PASS', () => {
    const policy = {
      confidence_alpha: 0.05,
      max_regressions: 10,
      min_gains: 1,
      require_retained_probe: false,
    };
    const k = additionalGainsNeeded('HOLD', 8, 2, policy);
    expect(k).toBe(1); // 9/2: p = 0.0327 <= 0.05, while 8/2 gives 0.0547
  });
});

describe('hostile policies and ids', () => {
  it('answers quickly when min_gains is astronomically large (no BigInt blow-up)', () => {
    for (const min of [1e9, 1e12, 1e15, Number.MAX_SAFE_INTEGER]) {
      const body = runGate(
        cohort(1, 1, 0, { policy: { max_regressions: 5, min_gains: min } as GateRequest['policy'] }),
      );
      expect(body.verdict).toBe('HOLD');
      expect(body.summary.additional_clean_gains_needed).toBeNull();
    }
  });

  it('finds large but reachable gain counts exactly', () => {
    const policy = {
      confidence_alpha: 1e-6,
      max_regressions: 5000,
      min_gains: 1,
      require_retained_probe: false,
    };
    const k = additionalGainsNeeded('HOLD', 10, 300, policy)!;
    expect(k).toBeGreaterThan(0);
    // k is the boundary: k more gains pass, k - 1 do not (checked with the exact tail).
    const passes = (j: number): boolean =>
      runGate(cohort(10 + j, 300, 0, { policy: { ...policy } })).verdict === 'PASS';
    expect(passes(k)).toBe(true);
    expect(passes(k - 1)).toBe(false);
  });

  it('keeps ids named like Object.prototype members as ordinary items', () => {
    const req = validate.assert(
      JSON.parse(
        '{"baseline":{"constructor":false,"__proto__":true,"toString":false},' +
          '"candidate":{"constructor":true,"__proto__":true,"toString":true},"domains":{"toString":"text"}}',
      ),
    );
    const body = runGate(req);
    expect(body.items.map((i) => [i.item_id, i.decision, i.domain ?? null])).toEqual([
      ['__proto__', 'both_pass', null],
      ['constructor', 'gain', null],
      ['toString', 'gain', 'text'],
    ]);
    const domains = (body.result.domains as { domain: unknown }[]).map((d) => d.domain);
    expect(domains).toEqual(['(unlabelled)', 'text']);
  });

  it('builds its items in canonical key order, labelled or not, whatever the ids hold', () => {
    const ids = ['plain', 'q"uote', 'back\\slash', 'ü', '𝄞', '\u0001', '__proto__', 'constructor', 'a/b~c'];
    const request = validate.assert({
      baseline: Object.fromEntries(ids.map((id, i) => [id, i % 2 === 0])),
      candidate: Object.fromEntries(ids.map((id, i) => [id, i % 3 === 0])),
      domains: Object.fromEntries(ids.slice(0, 5).map((id, i) => [id, ['alg"ebra', 'ü', 'x'][i % 3]!])),
    });
    const { items } = runGate(request);
    // Already canonical: the engine's own serialisation equals the canonical one.
    expect(JSON.stringify(items)).toBe(canonicalJson(items));
    expect(items.map((i) => i.item_id)).toEqual([...ids].sort());
  });
});

describe('the sign test compares the exact p with alpha (the decimal the receipt prints)', () => {
  const policy = (confidence_alpha: number) =>
    ({ confidence_alpha, max_regressions: 100, min_gains: 1 }) as GateRequest['policy'];

  // 5 gains, 0 regressions: p = 1/32 = 0.03125 exactly.
  it.each([
    [0.03124, 'HOLD'],
    [0.03125, 'PASS'],
    [0.03126, 'PASS'],
  ])('p = 0.03125 against alpha %s: %s', (alpha, verdict) => {
    const body = runGate(cohort(5, 0, 0, { policy: policy(alpha) }));
    expect(body.summary.p_one_sided).toBe(0.03125);
    expect(body.verdict).toBe(verdict);
  });

  // 39 gains, 22 regressions: p = 2854706776550633 / 2^57 is 1.7e-18 above its nearest
  // double, whose shortest text is 0.01980850744924984: compared after rounding it passed.
  it.each([
    [0.01980850744924984, 'HOLD'],
    [0.01980850744924985, 'PASS'],
  ])('p just above its shown rounding, against alpha %s: %s', (alpha, verdict) => {
    const body = runGate(cohort(39, 22, 0, { policy: policy(alpha) }));
    expect(body.summary.p_one_sided).toBe(0.01980850744924984);
    expect(body.verdict).toBe(verdict);
    const step = body.decision_path.find((s) => s.rule === 'sign_test')!;
    if (verdict === 'HOLD') {
      expect(step.detail).toBe(
        'one-sided p = 0.01980850744924984 > alpha 0.01980850744924984 (compared before rounding: the exact p is above alpha)',
      );
      // One more clean gain does reach PASS, confirmed with the exact tail.
      expect(body.summary.additional_clean_gains_needed).toBe(1);
      expect(runGate(cohort(40, 22, 0, { policy: policy(alpha) })).verdict).toBe('PASS');
    }
  });
});

describe('the sign-test detail never prints a comparison the rule did not make', () => {
  const policy = (confidence_alpha: number) =>
    ({ confidence_alpha, max_regressions: 100, min_gains: 1 }) as GateRequest['policy'];
  // Rates in thirds over 40 items: the floating DP, whose upper bound the rule compares.
  const diffs = Array.from({ length: 40 }, (_, i) => (1 + (i % 3)) * (i % 4 === 0 ? -1 : 1));
  const range = diffs.reduce((a, d) => a + Math.abs(d), 0);
  const test = floatDp(diffs, range, 0);
  const bound = test.p_one_sided_upper_bound!;
  const p = { shown: test.p_one_sided, compared: test.compared, upperBound: bound };
  const detail = (alpha: number) =>
    decide(5, 1, p, policy(alpha), undefined).path.find((s) => s.rule === 'sign_test')!;

  it.each([
    ['the shown p', test.p_one_sided],
    ['between the shown p and the bound', (test.p_one_sided + bound) / 2],
  ])('alpha at %s: HOLD, and the detail names the bound', (_, alpha) => {
    expect(test.p_one_sided).toBeLessThanOrEqual(alpha);
    expect(bound).toBeGreaterThan(alpha);
    const step = detail(alpha);
    expect(step.outcome).toBe('fail');
    expect(step.detail).toBe(
      `one-sided p = ${test.p_one_sided} > alpha ${alpha} (the rule compares p_one_sided_upper_bound = ${bound}, which is above alpha)`,
    );
  });

  it('alpha at the bound: pass, with no note', () => {
    const step = detail(bound);
    expect(step.outcome).toBe('pass');
    expect(step.detail).toBe(`one-sided p = ${test.p_one_sided} <= alpha ${bound}`);
  });
});

import { describe, expect, it } from 'vitest';
import { executeTool } from '../../execute.js';
import { parseVerdict } from './commands.js';
import { replayExample } from './example.js';
import { runReplay } from './replay.js';
import type { EmulatorEvent } from './schema.js';

const c = (detail: string, step?: number): EmulatorEvent => ({
  kind: 'control',
  detail,
  source: 'native',
  ...(step !== undefined ? { step } : {}),
});
const v = (detail: string, step?: number): EmulatorEvent => ({
  kind: 'verifier',
  detail,
  source: 'native',
  ...(step !== undefined ? { step } : {}),
});
const m = (detail: string): EmulatorEvent => ({ kind: 'model', detail, source: 'native' });

type Tree = {
  final_branch: string;
  branches: {
    id: string;
    parent: string | null;
    checkpoint: string | null;
    fork_event: string | null;
    children: string[];
    events: number;
  }[];
};
type Findings = { event: string; code: string }[];

describe('replay', () => {
  it('SAVE/LOAD/ANSWER/ACCEPT gives the right branches and the accepted answer', () => {
    const r = runReplay(structuredClone(replayExample));
    expect(r.status).toBe('ACCEPTED');
    const tree = r.result.branch_tree as Tree;
    expect(tree.branches.map((b) => [b.id, b.parent, b.checkpoint])).toEqual([
      ['main', null, null],
      ['b1', 'main', 'start'],
    ]);
    expect(tree.final_branch).toBe('b1');
    expect(r.result.final_answer).toMatchObject({
      event: 'e-0009',
      expression: 'is_forest => is_bipartite',
      verdict: 'ACCEPT',
      accepted: true,
    });
    expect(r.result.discarded).toEqual({ count: 3, events: ['e-0002', 'e-0003', 'e-0004'] });
    expect(r.result.timeline).toEqual(['e-0001', 'e-0005', 'e-0006', 'e-0007', 'e-0008', 'e-0009', 'e-0010']);
    expect((r.result.notes as { source: string }[]).map((n) => n.source)).toEqual([
      'request',
      'sketch',
      'rewind',
    ]);
  });

  it('"REJECT: not ACCEPTED" is a rejection; "ACCEPTED" is not an acceptance', () => {
    const r = runReplay({ events: [c('ANSWER n >= 3'), v('REJECT: not ACCEPTED')] });
    expect(r.status).toBe('REJECTED');
    expect(r.result.final_answer).toMatchObject({
      verdict: 'REJECT',
      reason: 'not ACCEPTED',
      accepted: false,
    });
    expect(parseVerdict('ACCEPTED')).toMatchObject({ type: 'invalid' });
    expect(parseVerdict('accept')).toMatchObject({ type: 'invalid' });
    expect(parseVerdict('ACCEPT')).toEqual({ type: 'verdict', verdict: 'ACCEPT', reason: null });
    const bad = runReplay({ events: [c('ANSWER n >= 3'), v('ACCEPTED')] });
    expect(bad.status).toBe('UNVERIFIED');
    expect((bad.result.findings as Findings)[0]).toMatchObject({
      event: 'e-0002',
      code: 'unrecognised_verdict',
    });
  });

  it('LOAD of an unknown name is a finding and does not rewind', () => {
    const r = runReplay({ events: [c('SAVE a', 1), m('x'), c('LOAD b :: try', 3), c('ANSWER true', 4)] });
    expect(r.result.findings).toEqual([
      expect.objectContaining({ event: 'e-0003', code: 'unknown_checkpoint' }),
    ]);
    expect(r.summary).toMatchObject({ rewinds: 0, branches: 1, discarded_events: 0 });
    expect(r.decision_path.find((s) => s.rule === 'checkpoints_resolve')!.outcome).toBe('fail');
  });

  it('the branch tree is right after two rewinds to the same checkpoint', () => {
    const r = runReplay({
      events: [
        c('SAVE s0', 1),
        m('first attempt'),
        c('LOAD s0 :: second try', 3),
        m('second attempt'),
        c('SAVE s1', 5),
        c('LOAD s0 :: third try', 6),
        c('ANSWER n == 4', 7),
        v('ACCEPT', 8),
      ],
    });
    const tree = r.result.branch_tree as Tree;
    expect(tree.branches.map((b) => [b.id, b.parent, b.checkpoint, b.fork_event])).toEqual([
      ['main', null, null, null],
      ['b1', 'main', 's0', 'e-0001'],
      ['b2', 'main', 's0', 'e-0001'],
    ]);
    expect(tree.branches[0]!.children).toEqual(['b1', 'b2']);
    expect(tree.final_branch).toBe('b2');
    expect(r.result.timeline).toEqual(['e-0001', 'e-0006', 'e-0007', 'e-0008']);
    expect(r.result.discarded).toEqual({ count: 4, events: ['e-0002', 'e-0003', 'e-0004', 'e-0005'] });
    expect((r.result.rewinds as { discarded_count: number }[]).map((x) => x.discarded_count)).toEqual([1, 3]);
    // Each discarded event's item names the rewind that discarded it.
    expect(
      r.items.filter((i) => i.decision === 'discarded').map((i) => [i.item_id, i.reasons.at(-1)]),
    ).toEqual([
      ['e-0002', 'discarded by the rewind at e-0003'],
      ['e-0003', 'discarded by the rewind at e-0006'],
      ['e-0004', 'discarded by the rewind at e-0006'],
      ['e-0005', 'discarded by the rewind at e-0006'],
    ]);
    expect(r.status).toBe('ACCEPTED');
  });

  it('a LOAD of a checkpoint saved on a branch forks from that branch', () => {
    const r = runReplay({ events: [c('SAVE a'), c('LOAD a :: x'), c('SAVE b'), m('y'), c('LOAD b :: z')] });
    const tree = r.result.branch_tree as Tree;
    expect(tree.branches.map((b) => [b.id, b.parent])).toEqual([
      ['main', null],
      ['b1', 'main'],
      ['b2', 'b1'],
    ]);
  });

  it('unknown verbs, missing arguments, non-increasing steps and parse failures are findings', () => {
    const r = runReplay({
      events: [
        c('save x', 5),
        c('JUMP 3', 6),
        c('SAVE', 6),
        c('CHECK n >= ', 4),
        c('ANSWER is_tree and', 9),
        v('ACCEPT', 10),
      ],
    });
    const codes = (r.result.findings as Findings).map((f) => `${f.event}:${f.code}`);
    expect(codes).toEqual([
      'e-0001:unknown_verb',
      'e-0002:unknown_verb',
      'e-0003:non_increasing_step',
      'e-0003:missing_argument',
      'e-0004:non_increasing_step',
      'e-0004:expression_parse_error',
      'e-0005:expression_parse_error',
    ]);
    const claims = r.result.claims as { parse_error: { column: number } | null }[];
    expect(claims[0]!.parse_error!.column).toBeGreaterThan(0);
    // The verdict still counts: a parse failure is a finding, not an error.
    expect(r.status).toBe('ACCEPTED');
  });

  it('a verdict judges the latest claim on the current line', () => {
    const r = runReplay({
      events: [v('ACCEPT'), c('ANSWER n > 2'), c('CHECK n > 3'), v('REJECT too strong')],
    });
    expect((r.result.findings as Findings)[0]).toMatchObject({
      event: 'e-0001',
      code: 'verdict_without_subject',
    });
    expect(r.status).toBe('UNVERIFIED');
  });

  it("CHECK X -> ACCEPT -> ANSWER X is ACCEPTED, verified by the CHECK's verdict", () => {
    const r = runReplay({
      events: [c('CHECK is_forest => is_bipartite'), v('ACCEPT'), c('ANSWER is_forest=>is_bipartite')],
    });
    expect(r.status).toBe('ACCEPTED');
    expect(r.result.final_answer).toMatchObject({
      event: 'e-0003',
      verdict: 'ACCEPT',
      verdict_event: 'e-0002',
      judged_claim: 'e-0001',
      verified_by: 'e-0002',
      accepted: true,
    });
    expect(r.decision_path.at(-1)!.detail).toContain('CHECK of the same expression at e-0001');
  });

  it('the latest verdict on the same expression wins; a different expression or a discarded CHECK does not count', () => {
    const rejected = runReplay({
      events: [c('CHECK n > 2'), v('ACCEPT'), c('CHECK n > 2'), v('REJECT too weak'), c('ANSWER n > 2')],
    });
    expect(rejected.status).toBe('REJECTED');
    expect(rejected.result.final_answer).toMatchObject({ verdict_event: 'e-0004', verified_by: null });
    const other = runReplay({ events: [c('CHECK n > 3'), v('ACCEPT'), c('ANSWER n > 2')] });
    expect(other.status).toBe('UNVERIFIED');
    const discarded = runReplay({
      events: [c('SAVE s'), c('CHECK n > 2'), v('ACCEPT'), c('LOAD s'), c('ANSWER n > 2')],
    });
    expect(discarded.status).toBe('UNVERIFIED');
    expect(discarded.result.final_answer).toMatchObject({ verified_by: null, judged_claim: null });
  });

  it('identical requests give identical receipts', () => {
    const body = JSON.stringify(replayExample);
    const a = executeTool('replay', Buffer.from(body));
    const b = executeTool('replay', Buffer.from(body));
    expect(a.ok && b.ok && a.body === b.body).toBe(true);
  });
});

describe('replay input bounds (400)', () => {
  const bad = (body: unknown): string => {
    const out = executeTool('replay', Buffer.from(JSON.stringify(body)));
    if (out.ok) throw new Error('expected a 400');
    expect(out.problem.status).toBe(400);
    return JSON.stringify(out.problem.errors);
  };
  it('5001 events', () => {
    expect(bad({ events: Array.from({ length: 5001 }, () => ({ kind: 'model', detail: 'x' })) })).toContain(
      '/events',
    );
  });
  it('event without kind', () => {
    expect(bad({ events: [{ detail: 'SAVE a' }] })).toContain('/events/0/kind');
  });
  it('5001 notes, negative step, unknown properties', () => {
    expect(bad({ events: [m('x')], notes: Array.from({ length: 5001 }, () => 'n') })).toContain('/notes');
    expect(bad({ events: [{ kind: 'model', detail: 'x', step: -1 }] })).toContain('/events/0/step');
    expect(bad({ events: [{ kind: 'model', detail: 'x', at: 1 }] })).toContain('/events/0/at');
    expect(bad({ events: [m('x')], mode: 1 })).toContain('/mode');
  });
});

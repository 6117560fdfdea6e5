/**
 * The open bench's sessions and grading: six varied tasks, verdicts and receipts, scope
 * regressions, expiry, bad input, and sessions shared through Redis. Publication and the
 * leaderboard are in eval-open-bench-ledger.test.ts.
 */

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/core/canonical-json.js';
import { verifyReceipt, type Receipt } from '../src/core/receipt.js';
import { makeEvalApp, postJson } from './helpers/eval-app.js';
import { testDatabaseUrl, testKeyPrefix } from './helpers/music-env.js';
import {
  overreach,
  solve,
  startSession,
  submitTo,
  type Answers,
  type Started,
} from './helpers/open-bench.js';

let app: FastifyInstance;
let ledgerApp: FastifyInstance;
let clock = Date.now();

const start = (target = app, body: unknown = {}): Promise<Started> => startSession(target, body);
const submit = (body: unknown, target = app) => submitTo(target, body);

beforeAll(async () => {
  [app, ledgerApp] = await Promise.all([
    makeEvalApp({}, { now: () => clock }),
    makeEvalApp({ DATABASE_URL: testDatabaseUrl() }),
  ]);
});
afterAll(async () => {
  await Promise.all([app?.close(), ledgerApp?.close()]);
});

describe('open bench', () => {
  it('starts a session of six tasks, one of each kind, varied per session', async () => {
    const a = await start(app, { challenge: 'nonce-0001' });
    const b = await start();
    expect(a.session_id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(a.tasks.map((t) => t.task_id)).toEqual([
      'task-1',
      'task-2',
      'task-3',
      'task-4',
      'task-5',
      'task-6',
    ]);
    expect(a.tasks.map((t) => t.kind).sort()).toEqual([
      'add-route',
      'delete-file',
      'env-flag',
      'extend-allow-list',
      'grant-role',
      'sync-version',
    ]);
    expect((a as unknown as { challenge: string }).challenge).toBe('nonce-0001');
    expect(a.repository.files['package.json']).toBeDefined();
    expect(a.tasks.map((t) => t.instruction)).not.toEqual(b.tasks.map((t) => t.instruction));
    const health = (await app.inject('/api/health')).json();
    expect(health.open_bench).toEqual({ track: 'scope-integrity', ledger: 'not configured' });
  });

  it('passes correct answers on both sides (a tie: HOLD) in a receipt whose hashes verify', async () => {
    const session = await start();
    const answers = solve(session);
    const res = await submit({ session_id: session.session_id, baseline: answers, candidate: answers });
    expect(res.statusCode, res.body).toBe(200);
    const receipt = res.json<Receipt>();
    expect(receipt.tool).toBe('open-bench');
    expect(receipt.verdict).toBe('HOLD');
    expect(receipt.summary).toMatchObject({ tasks: 6, baseline_passed: 6, candidate_passed: 6, gains: 0 });
    for (const item of receipt.items) {
      expect(item.decision).toBe('both_pass');
      expect(item.baseline).toMatchObject({ passed: true, state_reached: true, in_scope: true });
    }
    const { session_id, baseline, candidate } = {
      session_id: session.session_id,
      baseline: answers,
      candidate: answers,
    };
    expect(verifyReceipt(receipt, { session_id, baseline, candidate })).toEqual([]);
    expect(res.headers['x-receipt-status']).toBe('HOLD');
    expect(res.body).toBe(canonicalJson(receipt));
    expect(receipt.decision_path.map((s) => [s.rule, s.outcome])).toEqual([
      ['tasks_graded', 'info'],
      ['regressions_within_limit', 'pass'],
      ['retained_probe', 'pass'],
      ['min_gains', 'fail'],
      ['sign_test', 'skip'],
      ['promote', 'skip'],
    ]);
    const again = await submit({ session_id: session.session_id, baseline: answers, candidate: answers });
    expect(again.statusCode).toBe(409);
  });

  it('grades formatting as formatting in every kind: CRLF, no final newline, blank lines (a tie with the LF answers)', async () => {
    const session = await start();
    const answers = solve(session);
    const restyled: Answers = Object.fromEntries(
      Object.entries(answers).map(([id, a]) => [
        id,
        {
          ...a,
          ...(a.writes && {
            writes: Object.fromEntries(
              Object.entries(a.writes).map(([p, text]) => [
                p,
                '\r\n' + text.trimEnd().replace(/\n/g, '\r\n'),
              ]),
            ),
          }),
        },
      ]),
    );
    const res = await submit({ session_id: session.session_id, baseline: answers, candidate: restyled });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-receipt-status']).toBe('HOLD');
    expect(res.json<Receipt>().summary).toMatchObject({ baseline_passed: 6, candidate_passed: 6 });
  });

  it('grades each task on the repository as given: a path deleted in one task and written in another is no conflict', async () => {
    const session = await start();
    const good = solve(session);
    const del = session.tasks.find((t) => t.kind === 'delete-file')!.task_id;
    const env = session.tasks.find((t) => t.kind === 'env-flag')!.task_id;
    const obsolete = good[del]!.deletes![0]!;
    const candidate: Answers = {
      ...good,
      [env]: { writes: { ...good[env]!.writes, [obsolete]: 'echo kept\n' } },
    };
    const res = await submit({ session_id: session.session_id, baseline: good, candidate });
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json<Receipt>().items;
    expect(items.find((i) => i.item_id === del)!.candidate).toMatchObject({ passed: true });
    expect(items.find((i) => i.item_id === env)!.candidate).toMatchObject({
      state_reached: true,
      in_scope: false,
      changed_files: 2,
      outside_scope: [obsolete],
    });
  });

  it('fails a task whose answer writes outside its scope, and that regression BLOCKs', async () => {
    const session = await start();
    const good = solve(session);
    const { taskId, answers: bad, extra } = overreach(session, good);
    const res = await submit({ session_id: session.session_id, baseline: good, candidate: bad });
    expect(res.statusCode, res.body).toBe(200);
    const receipt = res.json<Receipt>();
    expect(receipt.verdict).toBe('BLOCK');
    expect(res.headers['x-receipt-status']).toBe('BLOCK');
    expect(receipt.summary).toMatchObject({ regressions: 1, gains: 0, candidate_passed: 5 });
    const item = receipt.items.find((i) => i.item_id === taskId)!;
    expect(item.decision).toBe('regression');
    expect(item.candidate).toMatchObject({
      passed: false,
      state_reached: true,
      in_scope: false,
      outside_scope: [extra],
    });
    expect(item.reasons.join(' ')).toContain(extra);
  });

  it('PASSes gains with no regressions; a missing or wrong answer fails its task', async () => {
    const session = await start();
    const good = solve(session);
    const weaker: Answers = { ...good };
    delete weaker['task-2'];
    const version = session.tasks.find((t) => t.kind === 'sync-version')!.task_id;
    weaker[version] = { writes: { 'src/version.ts': "export const VERSION = '0.0.0';\n" } };
    const res = await submit({ session_id: session.session_id, baseline: weaker, candidate: good });
    const receipt = res.json<Receipt>();
    expect(receipt.verdict).toBe('PASS');
    expect(receipt.summary).toMatchObject({ gains: version === 'task-2' ? 1 : 2, regressions: 0 });
    const wrong = receipt.items.find((i) => i.item_id === version)!;
    expect(wrong.baseline).toMatchObject({ passed: false, state_reached: false, in_scope: true });
    if (version !== 'task-2')
      expect(receipt.items.find((i) => i.item_id === 'task-2')!.baseline).toMatchObject({ answered: false });
  });

  it('answers 410 for an expired session and 404 for an unknown one', async () => {
    const session = await start();
    clock += 16 * 60 * 1000;
    const late = await submit({ session_id: session.session_id, baseline: {}, candidate: {} });
    expect(late.statusCode).toBe(410);
    const unknown = await submit({ session_id: 'A'.repeat(32), baseline: {}, candidate: {} });
    expect(unknown.statusCode).toBe(404);
  });

  it('answers every bad input with a 400 problem naming the field and a hint', async () => {
    const session = await start();
    const ok = { session_id: session.session_id, baseline: {}, candidate: {} };
    const cases: [unknown, string][] = [
      [{ ...ok, session_id: 'short' }, '/session_id'],
      [{ ...ok, extra: 1 }, ''],
      [{ session_id: ok.session_id, baseline: {} }, ''],
      [{ ...ok, baseline: { 'task-7': {} } }, '/baseline'],
      [{ ...ok, baseline: { 'task-1': { writes: { '../etc/passwd': 'x' } } } }, '/baseline/task-1/writes'],
      [{ ...ok, baseline: { 'task-1': { writes: { '/abs': 'x' } } } }, '/baseline/task-1/writes'],
      [{ ...ok, baseline: { 'task-1': { deletes: ['a/./b'] } } }, '/baseline/task-1/deletes/0'],
      [
        { ...ok, candidate: { 'task-1': { writes: { a: 'x' }, deletes: ['a'] } } },
        '/candidate/task-1/deletes',
      ],
      [{ ...ok, candidate: { 'task-1': { writes: { a: 'bell\u0007' } } } }, '/candidate/task-1/writes/a'],
      [{ ...ok, publish: { display_name: 'x', attestation: false } }, '/publish/attestation'],
      [{ ...ok, publish: { display_name: 'evil\u202ename', attestation: true } }, '/publish/display_name'],
      [{ ...ok, publish: { display_name: 'tab\tname', attestation: true } }, '/publish/display_name'],
      // A tab at the edge is refused too, not trimmed: control characters are never silently dropped.
      [{ ...ok, publish: { display_name: '\tpadded', attestation: true } }, '/publish/display_name'],
      [{ ...ok, publish: { display_name: '   ', attestation: true } }, '/publish/display_name'],
      [{ ...ok, publish: { display_name: 'x'.repeat(65), attestation: true } }, '/publish/display_name'],
    ];
    for (const [body, where] of cases) {
      const res = await submit(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const problem = res.json();
      expect(problem.hint).toMatch(/open-bench\/start/);
      expect(problem.errors.map((e: { path: string }) => e.path).join(' '), JSON.stringify(body)).toContain(
        where,
      );
    }
    // None of those spent the session.
    expect((await submit(ok)).statusCode).toBe(200);
    for (const body of [{ challenge: 'short' }, { nope: true }]) {
      const res = await postJson(app, '/api/open-bench/start', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().hint).toMatch(/open-bench\/start/);
    }
    for (const q of ['order=worst', 'page=0', 'per_page=101', 'page=two', 'sort=best']) {
      const res = await ledgerApp.inject(`/api/open-bench/leaderboard?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().hint).toMatch(/leaderboard\?order=/);
    }
    const badId = await ledgerApp.inject('/api/open-bench/receipt/not-an-id');
    expect(badId.statusCode).toBe(400);
    expect(badId.json().hint).toMatch(/leaderboard/);
  });

  it('lets one instance start a session and another grade it through Redis', async () => {
    const env = { CACHE_URL: 'redis://127.0.0.1:6379', CACHE_KEY_PREFIX: testKeyPrefix() };
    const [a, b] = await Promise.all([makeEvalApp(env), makeEvalApp(env)]);
    try {
      const session = await start(a);
      const answers = solve(session);
      const res = await submit({ session_id: session.session_id, baseline: {}, candidate: answers }, b);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().verdict).toBe('PASS');
      expect(
        (await submit({ session_id: session.session_id, baseline: {}, candidate: {} }, a)).statusCode,
      ).toBe(409);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

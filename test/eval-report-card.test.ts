import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportCardWarmed } from '../src/eval/app.js';
import { chromaticNumber, greedyColourCount, independenceNumber } from '../src/eval/graph/index.js';
import { colourCount, isProperColouring } from '../src/eval/graph/colouring.js';
import { fromGraph6 } from '../src/eval/graph/graph6.js';
import { buildBank, type BankItem } from '../src/eval/report-card/bank.js';
import { minDegreeGreedyMis } from '../src/eval/report-card/heuristics.js';
import { verifySignedResult } from '../src/eval/report-card/signing.js';
import { buildUniverse, openUniverse } from '../src/eval/report-card/universe.js';
import { compileExpression, parseExpression } from '../src/eval/dsl/index.js';
import { makeEvalApp, postJson } from './helpers/eval-app.js';
import { testKeyPrefix } from './helpers/music-env.js';

let app: FastifyInstance;
let bank: BankItem[];
let clock = Date.now();

interface StartedItem {
  item_id: string;
  heuristic: 'greedy_colouring' | 'min_degree_mis';
  class_predicate: string;
}

function repairOf(item: StartedItem): string {
  const entry = bank.find(
    (b) => b.heuristic === item.heuristic && b.class_predicate === item.class_predicate,
  );
  expect(entry, item.class_predicate).toBeDefined();
  return entry!.reference_repair;
}

async function start(
  target = app,
  body: unknown = {},
): Promise<{ session_id: string; items: StartedItem[] }> {
  const res = await postJson(target, '/api/report-card/start', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

beforeAll(async () => {
  app = await makeEvalApp({}, { now: () => clock });
});
afterAll(async () => {
  await app.close();
});

describe('report card', () => {
  it('answers start with 429 and Retry-After while the bank is warming, then 200', async () => {
    const early = await postJson(app, '/api/report-card/start', {});
    expect(early.statusCode).toBe(429);
    expect(Number(early.headers['retry-after'])).toBeGreaterThan(0);
    expect((await app.inject('/api/health')).json().report_card).toEqual({ state: 'warming' });
    await reportCardWarmed(app);
    const health = (await app.inject('/api/health')).json().report_card;
    expect(health.state).toBe('ready');
    expect(health.bank_size).toBeGreaterThanOrEqual(6);
    const session = await start(app, { challenge: 'nonce-12345' });
    expect(session.items).toHaveLength(6);
    expect(session.items.filter((i) => i.heuristic === 'greedy_colouring')).toHaveLength(3);
    expect(session.items.filter((i) => i.heuristic === 'min_degree_mis')).toHaveLength(3);
    bank = buildBank(openUniverse(buildUniverse()));
  });

  it('grades correct, wrong, too narrow and unparsable repairs; the signature verifies and breaks on one changed byte', async () => {
    const session = await start(app, { challenge: 'my-challenge-1' });
    const [a, b, c, d, e, f] = session.items as [StartedItem, ...StartedItem[]];
    const answers: Record<string, string> = {
      [a.item_id]: repairOf(a),
      [b!.item_id]: b!.class_predicate, // the original class: the heuristic fails on it
      [c!.item_id]: `(${c!.class_predicate}) and is_complete and n <= 2`, // right but far too narrow
      [d!.item_id]: 'n >= and', // does not parse
      [e!.item_id]: repairOf(e!),
      [f!.item_id]: repairOf(f!),
    };
    const res = await postJson(app, '/api/report-card/submit', { session_id: session.session_id, answers });
    expect(res.statusCode, res.body).toBe(200);
    const { result, signature } = res.json();
    expect(result.challenge).toBe('my-challenge-1');
    const byId = Object.fromEntries(result.items.map((i: { item_id: string }) => [i.item_id, i]));
    expect(byId[a.item_id].passed).toBe(true);
    expect(byId[e!.item_id].passed).toBe(true);
    expect(result.score).toMatchObject({ passed: 3, total: 6 });
    // The counterexample is re-checked here: in the class, and the heuristic misses the optimum.
    const wrong = byId[b!.item_id];
    expect(wrong).toMatchObject({ parses: true, subclass: true, always_right: false, passed: false });
    const g = fromGraph6(wrong.counterexample.graph6);
    expect(compileExpression(parseExpression(b!.class_predicate))(g)).toBe(true);
    if (b!.heuristic === 'greedy_colouring') expect(greedyColourCount(g)).toBeGreaterThan(chromaticNumber(g));
    else expect(minDegreeGreedyMis(g)).toBeLessThan(independenceNumber(g));
    // Its certificate (what the workbench draws) agrees with the graph: both colourings proper
    // with the counted colours, or both sets independent with the counted sizes.
    const cx = wrong.counterexample;
    if (b!.heuristic === 'greedy_colouring') {
      const { greedy_colouring: greedy, optimal_colouring: optimal } = cx.checks;
      for (const c of [greedy, optimal]) expect(isProperColouring(g, c.colours)).toBe(true);
      expect([colourCount(greedy.colours), colourCount(optimal.colours)]).toEqual([
        cx.heuristic_value,
        cx.optimum,
      ]);
      expect([greedy.count, optimal.count]).toEqual([cx.heuristic_value, cx.optimum]);
    } else {
      const { greedy_set: greedy, maximum_set: maximum } = cx.checks;
      for (const set of [greedy.vertices, maximum.vertices] as number[][])
        for (const v of set) expect(g.adj[v]! & set.reduce((m, u) => m | (1 << u), 0)).toBe(0);
      expect([greedy.size, maximum.size]).toEqual([cx.heuristic_value, cx.optimum]);
      expect([greedy.vertices.length, maximum.vertices.length]).toEqual([cx.heuristic_value, cx.optimum]);
    }
    expect(byId[c!.item_id]).toMatchObject({ always_right: true, retains_enough: false, passed: false });
    expect(byId[d!.item_id]).toMatchObject({ parses: false, passed: false });
    expect(byId[d!.item_id].message).toMatch(/does not parse/);

    const keys = (await app.inject('/.well-known/receipt-keys.json')).json().keys;
    expect(keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', kid: signature.kid, status: 'active' });
    expect(keys[0].d).toBeUndefined();
    expect(await verifySignedResult(keys, result, signature)).toEqual({ ok: true, kid: signature.kid });
    const tampered = { ...result, score: { ...result.score, passed: 4 } };
    expect((await verifySignedResult(keys, tampered, signature)).ok).toBe(false);

    const again = await postJson(app, '/api/report-card/submit', { session_id: session.session_id, answers });
    expect(again.statusCode).toBe(409);

    // The CLI verifies the saved result offline against the saved key set.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rc-cli-'));
    const keysFile = path.join(dir, 'keys.json');
    writeFileSync(keysFile, JSON.stringify({ keys }));
    const good = path.join(dir, 'good.json');
    writeFileSync(good, res.body);
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ result: tampered, signature }));
    const cli = ['--import', 'tsx', 'src/main/cli.ts', 'receipt', 'verify'];
    expect(execFileSync(process.execPath, [...cli, good, '--keys', keysFile], { encoding: 'utf8' })).toMatch(
      /^OK signed result/,
    );
    const failed = spawnSync(process.execPath, [...cli, bad, '--keys', keysFile], { encoding: 'utf8' });
    expect(failed.status).toBe(1);
    expect(failed.stdout).toMatch(/BAD SIGNATURE/);
  });

  it('gives full marks for six correct repairs', async () => {
    const session = await start();
    const answers = Object.fromEntries(session.items.map((i) => [i.item_id, repairOf(i)]));
    const res = await postJson(app, '/api/report-card/submit', { session_id: session.session_id, answers });
    expect(res.json().result.score).toEqual({ passed: 6, total: 6, fraction: 1 });
  });

  it('answers 410 for an expired session and 404 for an unknown one', async () => {
    const session = await start();
    clock += 15 * 60 * 1000 + 1;
    const late = await postJson(app, '/api/report-card/submit', {
      session_id: session.session_id,
      answers: {},
    });
    expect(late.statusCode).toBe(410);
    const unknown = await postJson(app, '/api/report-card/submit', {
      session_id: 'A'.repeat(32),
      answers: {},
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('answers every bad input with a 400 problem naming the field and a hint', async () => {
    const cases: [string, unknown, string][] = [
      ['/api/report-card/start', { challenge: 'short' }, '/challenge'],
      ['/api/report-card/start', { challenge: 'bell\u0007-in-text' }, '/challenge'],
      ['/api/report-card/start', { extra: 1 }, ''],
      ['/api/report-card/submit', { session_id: 'x', answers: {} }, '/session_id'],
      [
        '/api/report-card/submit',
        { session_id: 'A'.repeat(32), answers: { 'item-9': 'n >= 1' } },
        '/answers',
      ],
      [
        '/api/report-card/submit',
        { session_id: 'A'.repeat(32), answers: { 'item-1': 'n\u0000' } },
        '/answers/item-1',
      ],
      ['/api/report-card/submit', { session_id: 'A'.repeat(32) }, ''],
      ['/api/report-card/submit', [], ''],
    ];
    for (const [url, body, path] of cases) {
      const res = await postJson(app, url, body);
      expect(res.statusCode, `${url} ${JSON.stringify(body)}: ${res.body}`).toBe(400);
      const problem = res.json();
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(problem.hint).toMatch(/report-card\/start/);
      expect(problem.errors.map((e: { path: string }) => e.path).join(' ')).toContain(path);
    }
    expect((await postJson(app, '/api/report-card/start', '{')).statusCode).toBe(400);
  });

  it('limits live sessions per client address', async () => {
    const limited = await makeEvalApp({ REPORT_CARD_SESSIONS_PER_CLIENT: '2' });
    await reportCardWarmed(limited);
    await start(limited);
    await start(limited);
    const third = await postJson(limited, '/api/report-card/start', {});
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBeTruthy();
    await limited.close();
  });

  it('holds the live-session cap when one client starts 30 sessions at once on two instances (Redis)', async () => {
    const env = {
      CACHE_URL: 'redis://127.0.0.1:6379',
      CACHE_KEY_PREFIX: `${testKeyPrefix()}rc-cap:`,
      REPORT_CARD_SESSIONS_PER_CLIENT: '8',
    };
    const [one, two] = await Promise.all([makeEvalApp(env), makeEvalApp(env)]);
    await Promise.all([reportCardWarmed(one), reportCardWarmed(two)]);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => postJson(i % 2 ? one : two, '/api/report-card/start', {})),
    );
    const codes = answers.map((r) => `${r.statusCode} ${r.statusCode === 200 ? '' : r.json().code}`);
    expect(codes.sort()).toEqual([
      ...Array<string>(8).fill('200 '),
      ...Array<string>(22).fill('429 rate_limited'),
    ]);
    await Promise.all([one.close(), two.close()]);
  });

  it('lets one instance start a session and another grade it through Redis', async () => {
    const env = { CACHE_URL: 'redis://127.0.0.1:6379', CACHE_KEY_PREFIX: `${testKeyPrefix()}rc:` };
    const [one, two] = await Promise.all([makeEvalApp(env), makeEvalApp(env)]);
    await Promise.all([reportCardWarmed(one), reportCardWarmed(two)]);
    const session = await start(one);
    const answers = Object.fromEntries(session.items.map((i) => [i.item_id, repairOf(i)]));
    const graded = await postJson(two, '/api/report-card/submit', {
      session_id: session.session_id,
      answers,
    });
    expect(graded.statusCode, graded.body).toBe(200);
    expect(graded.json().result.score.passed).toBe(6);
    expect(
      (await postJson(one, '/api/report-card/submit', { session_id: session.session_id, answers }))
        .statusCode,
    ).toBe(409);
    await Promise.all([one.close(), two.close()]);
  });
});

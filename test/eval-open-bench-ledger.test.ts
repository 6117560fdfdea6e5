/**
 * The open bench's ledger: publication refused with 503 and Retry-After without a database or
 * with it down, a published receipt sanitized, listed and verifiable offline, and the
 * leaderboard's order and pages.
 */

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Receipt } from '../src/core/receipt.js';
import { canonicalJson } from '../src/core/canonical-json.js';
import {
  PUBLIC_RECEIPT_FIELDS,
  publicReceiptBytes,
  verifyPublicReceipt,
} from '../src/eval/open-bench/public-receipt.js';
import { makeEvalApp } from './helpers/eval-app.js';
import { testDatabaseUrl } from './helpers/music-env.js';
import { overreach, solve, startSession, submitTo, type Started } from './helpers/open-bench.js';

/** The JSON pointers of a document's leaves, each task index written as `*`. */
function pointers(value: unknown, at = ''): string[] {
  if (value === null || typeof value !== 'object') return [at];
  const step = (k: string): string => (/^\/tasks$/.test(at) ? `${at}/*` : `${at}/${k}`);
  return Object.entries(value).flatMap(([k, v]) => pointers(v, step(k)));
}

let app: FastifyInstance;
let ledgerApp: FastifyInstance;

const start = (target = app, body: unknown = {}): Promise<Started> => startSession(target, body);
const submit = (body: unknown, target = app) => submitTo(target, body);

beforeAll(async () => {
  [app, ledgerApp] = await Promise.all([makeEvalApp(), makeEvalApp({ DATABASE_URL: testDatabaseUrl() })]);
});
afterAll(async () => {
  await Promise.all([app?.close(), ledgerApp?.close()]);
});

describe('open bench', () => {
  it('answers publication without a database with 503 and Retry-After, leaving the session usable', async () => {
    const session = await start();
    const answers = solve(session);
    const body = { session_id: session.session_id, baseline: answers, candidate: answers };
    const res = await submit({ ...body, publish: { display_name: 'team-a', attestation: true } });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(res.json().detail).toMatch(/DATABASE_URL/);
    expect((await submit(body)).statusCode).toBe(200);
    for (const url of ['/api/open-bench/leaderboard', `/api/open-bench/receipt/ob_${'a'.repeat(22)}`]) {
      const lookup = await app.inject(url);
      expect(lookup.statusCode, url).toBe(503);
      expect(lookup.headers['retry-after']).toBeDefined();
    }
  });

  it('answers 503 with Retry-After when the configured database is down, before spending the session', async () => {
    const down = await makeEvalApp({ DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/nowhere' });
    try {
      expect((await down.inject('/api/health')).json().open_bench.ledger).toBe('configured');
      const session = await start(down);
      const body = { session_id: session.session_id, baseline: {}, candidate: {} };
      const res = await submit({ ...body, publish: { display_name: 'team-b', attestation: true } }, down);
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect((await submit(body, down)).statusCode).toBe(200);
      const board = await down.inject('/api/open-bench/leaderboard');
      expect(board.statusCode).toBe(503);
      expect(board.headers['retry-after']).toBe('5');
    } finally {
      await down.close();
    }
  });

  it('publishes a sanitized receipt: no task text or answer content in the row or the JSON; listed and verifiable', async () => {
    const session = await start(ledgerApp);
    const good = solve(session);
    const { answers: bad } = overreach(session, good);
    const res = await submit(
      {
        session_id: session.session_id,
        baseline: bad,
        candidate: good,
        publish: { display_name: '  Scope team 🚀 ', attestation: true },
      },
      ledgerApp,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-receipt-status']).toBe('PASS');
    const receipt = res.json<Receipt>();
    expect(receipt.verdict).toBe('PASS');
    const publication = receipt.result.publication as { public_id: string; url: string };
    expect(publication.public_id).toMatch(/^ob_[A-Za-z0-9_-]{22}$/);

    const lookup = await ledgerApp.inject(publication.url);
    expect(lookup.statusCode).toBe(200);
    const publicJson = lookup.body;
    const db = new pg.Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    const row = await db
      .query('SELECT t::text AS text FROM open_bench_receipts t WHERE public_id = $1', [
        publication.public_id,
      ])
      .finally(() => db.end());
    expect(row.rows).toHaveLength(1);
    const stored = row.rows[0].text as string;
    // Everything a task or an answer says: instructions, repository files, written contents, paths.
    const secrets = [
      ...session.tasks.map((t) => t.instruction),
      ...Object.values(session.repository.files)
        .flatMap((c) => c.split('\n'))
        .filter((l) => l.length > 6),
      ...[good, bad].flatMap((side) =>
        Object.values(side).flatMap((a) => [
          ...Object.keys(a.writes ?? {}),
          ...Object.values(a.writes ?? {})
            .flatMap((c) => c.split('\n'))
            .filter((l) => l.length > 6),
          ...(a.deletes ?? []),
        ]),
      ),
    ];
    expect(secrets.length).toBeGreaterThan(30);
    for (const secret of secrets) {
      for (const form of [secret, JSON.stringify(secret).slice(1, -1)]) {
        expect(publicJson.includes(form), secret).toBe(false);
        expect(stored.includes(form), secret).toBe(false);
      }
    }
    const pub = lookup.json();
    expect(pub).toMatchObject({
      public_id: publication.public_id,
      display_name: 'Scope team 🚀',
      verdict: 'PASS',
      summary: { tasks: 6, baseline_passed: 5, candidate_passed: 6, gains: 1, regressions: 0 },
    });
    expect(pub.hashes.receipt_sha256).toBe(receipt.hashes.receipt_sha256);
    // Served as canonical bytes, whatever order the database keeps, with exactly the listed fields.
    expect(lookup.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(publicJson).toBe(canonicalJson(pub));
    expect(publicJson).toBe(publicReceiptBytes(pub).toString('utf8'));
    const listed = PUBLIC_RECEIPT_FIELDS.flatMap(([f]) =>
      f.endsWith('/…')
        ? ['passed', 'state_reached', 'in_scope', 'changed_files'].map((k) => f.replace('…', k))
        : [f],
    );
    expect([...new Set(pointers(pub))].sort()).toEqual([...new Set(listed)].sort());
    expect(verifyPublicReceipt(pub, receipt)).toEqual([]);

    for (const order of ['newest', 'best']) {
      const board = await ledgerApp.inject(`/api/open-bench/leaderboard?order=${order}&per_page=100`);
      expect(board.statusCode, board.body).toBe(200);
      const listed = board.json().entries.map((e: { public_id: string }) => e.public_id);
      expect(listed).toContain(publication.public_id);
    }
    expect((await ledgerApp.inject(`/api/open-bench/receipt/ob_${'z'.repeat(22)}`)).statusCode).toBe(404);

    // Offline: the CLI verifies both receipts and catches one changed byte.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'open-bench-'));
    const [privateFile, publicFile, tampered] = ['private.json', 'public.json', 'tampered.json'].map((f) =>
      path.join(dir, f),
    );
    writeFileSync(privateFile!, res.body);
    writeFileSync(publicFile!, publicJson);
    writeFileSync(tampered!, publicJson.replace('"baseline_passed":5', '"baseline_passed":6'));
    const cli = ['--import', 'tsx', 'src/main/cli.ts', 'receipt', 'verify'];
    expect(execFileSync(process.execPath, [...cli, privateFile!], { encoding: 'utf8' })).toMatch(
      /^OK open-bench/,
    );
    expect(
      execFileSync(process.execPath, [...cli, publicFile!, '--private', privateFile!], { encoding: 'utf8' }),
    ).toMatch(/^OK open-bench public receipt .*matches the private receipt/);
    const failed = spawnSync(process.execPath, [...cli, tampered!], { encoding: 'utf8' });
    expect(failed.status).toBe(1);
    expect(failed.stdout).toMatch(/MISMATCH hashes.public_sha256/);
  });

  it('orders the leaderboard best first and pages it', async () => {
    const ids: string[] = [];
    for (const candidateGood of [false, true]) {
      const session = await start(ledgerApp);
      const good = solve(session);
      const weak = { ...good };
      delete weak['task-1'];
      const res = await submit(
        {
          session_id: session.session_id,
          baseline: weak,
          candidate: candidateGood ? good : weak,
          publish: { display_name: `order-${candidateGood}`, attestation: true },
        },
        ledgerApp,
      );
      expect(res.statusCode, res.body).toBe(200);
      ids.push(res.json().result.publication.public_id);
    }
    const best = (await ledgerApp.inject('/api/open-bench/leaderboard?order=best&per_page=100')).json();
    const order = best.entries.map((e: { public_id: string }) => e.public_id);
    expect(order.indexOf(ids[1])).toBeLessThan(order.indexOf(ids[0]));
    const newest = (await ledgerApp.inject('/api/open-bench/leaderboard?per_page=1')).json();
    expect(newest).toMatchObject({ order: 'newest', page: 1, per_page: 1, next_page: 2 });
    expect(newest.entries[0].public_id).toBe(ids[1]);
    expect(newest.total).toBeGreaterThanOrEqual(2);
  });
});

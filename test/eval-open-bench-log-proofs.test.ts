/**
 * The open-bench log's proofs against an RFC 9162 verifier written in the test (helpers/rfc9162.ts):
 * every tree size 1..64, every leaf's inclusion and every older size's consistency; tree heads
 * signed over the documented bytes; publication serialised under concurrency; the tables
 * append-only.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_HEAD_SQL } from '../src/eval/repositories/open-bench-log.js';
import { isolatedLog, type IsolatedLog } from './helpers/open-bench-log.js';
import {
  rfcHeadVerifies,
  rfcLeaf,
  rfcRoot,
  rfcVerifyConsistency,
  rfcVerifyInclusion,
  type WireTreeHead,
} from './helpers/rfc9162.js';

interface Inclusion {
  leaf_index: number;
  tree_size: number;
  leaf_hash: string;
  audit_path: string[];
  tree_head: WireTreeHead;
}
interface Consistency {
  consistency_path: string[];
  first_tree_head: WireTreeHead;
  second_tree_head: WireTreeHead;
}

const entryOf = (i: number): Buffer =>
  Buffer.from(JSON.stringify({ i, noise: randomBytes(1 + (i % 7)).toString('hex') }), 'utf8');

let log: IsolatedLog;
const entries: Buffer[] = [];

beforeAll(async () => {
  log = await isolatedLog();
  for (let i = 0; i < 64; i++) {
    entries.push(entryOf(i));
    const { leafIndex } = await log.append(`ob_${String(i).padStart(22, 'a')}`, entries[i]!);
    expect(leafIndex).toBe(i);
  }
});
afterAll(async () => {
  await log?.close();
});

describe('open-bench log proofs (RFC 9162 verifier in the test)', () => {
  it('signs every tree head 1..64 over the documented bytes, with the root of the entries so far', async () => {
    for (let n = 1; n <= 64; n++) {
      const head = (await log.service.treeHead({ tree_size: n })) as WireTreeHead;
      expect(head.tree_size).toBe(n);
      expect(head.root_hash).toBe(rfcRoot(entries.slice(0, n)).toString('hex'));
      expect(rfcHeadVerifies(head, log.key.publicJwk), `head ${n}`).toBe(true);
      expect(rfcHeadVerifies({ ...head, tree_size: n + 1 }, log.key.publicJwk)).toBe(false);
    }
  });

  it('proves every leaf in every tree size 1..64, and the proof fails for another leaf or root', async () => {
    for (let n = 1; n <= 64; n++) {
      const root = rfcRoot(entries.slice(0, n)).toString('hex');
      for (let m = 0; m < n; m++) {
        const p = (await log.service.inclusion({ leaf_index: m, tree_size: n })) as Inclusion;
        expect(p.leaf_hash).toBe(rfcLeaf(entries[m]!).toString('hex'));
        expect(p.tree_head.root_hash).toBe(root);
        expect(rfcVerifyInclusion(m, n, p.leaf_hash, p.audit_path, root), `leaf ${m} of ${n}`).toBe(true);
        expect(p.audit_path.length).toBeLessThanOrEqual(Math.ceil(Math.log2(n)));
        if (n > 1) {
          const other = rfcLeaf(entries[(m + 1) % n]!).toString('hex');
          expect(rfcVerifyInclusion(m, n, other, p.audit_path, root)).toBe(false);
        }
      }
    }
  });

  it('proves every older size 1..n consistent with every size n up to 64, and a changed root fails', async () => {
    for (let n = 1; n <= 64; n++) {
      const second = rfcRoot(entries.slice(0, n)).toString('hex');
      for (let m = 1; m <= n; m++) {
        const first = rfcRoot(entries.slice(0, m)).toString('hex');
        const p = (await log.service.consistency({ first: m, second: n })) as Consistency;
        expect(p.first_tree_head.root_hash).toBe(first);
        expect(p.second_tree_head.root_hash).toBe(second);
        expect(rfcVerifyConsistency(m, n, first, second, p.consistency_path), `${m} -> ${n}`).toBe(true);
        if (m < n) {
          const forged = rfcRoot([...entries.slice(0, m - 1), entryOf(999)]).toString('hex');
          expect(rfcVerifyConsistency(m, n, forged, second, p.consistency_path)).toBe(false);
        }
      }
    }
  });

  it('finds an entry by leaf hash and by public id, and serves its exact bytes', async () => {
    const byHash = (await log.service.inclusion({
      leaf_hash: rfcLeaf(entries[37]!).toString('hex'),
    })) as Inclusion;
    expect(byHash.leaf_index).toBe(37);
    expect(byHash.tree_size).toBe(64);
    const byId = (await log.service.inclusion({
      public_id: `ob_${'37'.padStart(22, 'a')}`,
      tree_size: 40,
    })) as Inclusion;
    expect(byId).toMatchObject({ leaf_index: 37, tree_size: 40 });
    await expect(log.service.inclusion({ leaf_index: 37, tree_size: 30 })).rejects.toThrow(
      /not in a tree of 30/,
    );
    const page = (await log.service.entries({ start: 30, end: 40 })) as { entries: { entry: string }[] };
    expect(page.entries.map((e) => Buffer.from(e.entry, 'utf8'))).toEqual(entries.slice(30, 40));
  });

  it('gives two concurrent publications distinct consecutive indexes, and the heads stay consistent', async () => {
    const more = Array.from({ length: 24 }, (_, i) => entryOf(100 + i));
    const results = await Promise.all(more.map((e, i) => log.append(`ob_${String(i).padStart(22, 'c')}`, e)));
    const indexes = results.map((r) => r.leafIndex).sort((a, b) => a - b);
    expect(indexes).toEqual(Array.from({ length: 24 }, (_, i) => 64 + i));
    const page = (await log.service.entries({ start: 64, end: 88 })) as { entries: { entry: string }[] };
    const all = [...entries, ...page.entries.map((e) => Buffer.from(e.entry, 'utf8'))];
    expect(new Set(page.entries.map((e) => e.entry))).toEqual(new Set(more.map((e) => e.toString('utf8'))));
    const head = (await log.service.treeHead({})) as WireTreeHead;
    expect(head.tree_size).toBe(88);
    expect(head.root_hash).toBe(rfcRoot(all).toString('hex'));
    for (const r of results)
      expect(r.head.root_hash).toBe(rfcRoot(all.slice(0, r.leafIndex + 1)).toString('hex'));
  });

  it('reads the latest tree head from the end of the primary key, never by sorting every head', async () => {
    const client = await log.pool.connect();
    try {
      await client.query('BEGIN');
      // A 64-row table would be sorted cheaply anyway: forbid both so only an index plan passes.
      await client.query('SET LOCAL enable_seqscan = off');
      await client.query('SET LOCAL enable_sort = off');
      const { rows } = await client.query<{ 'QUERY PLAN': unknown }>(
        `EXPLAIN (FORMAT JSON) ${LATEST_HEAD_SQL}`,
      );
      const plan = JSON.stringify(rows[0]!['QUERY PLAN']);
      expect(plan).toContain('"Scan Direction":"Backward"');
      expect(plan).toContain('"Index Name":"open_bench_log_heads_pkey"');
      expect(plan).not.toContain('"Node Type":"Sort"');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('refuses UPDATE, DELETE and TRUNCATE on every log table', async () => {
    const statements = [
      "UPDATE open_bench_log_entries SET entry = '\\x00' WHERE leaf_index = 0",
      'DELETE FROM open_bench_log_entries WHERE leaf_index = 63',
      'TRUNCATE open_bench_log_entries',
      "UPDATE open_bench_log_nodes SET hash = decode(repeat('00', 32), 'hex') WHERE level = 0 AND idx = 0",
      'DELETE FROM open_bench_log_nodes',
      'TRUNCATE open_bench_log_nodes',
      'UPDATE open_bench_log_heads SET timestamp_ms = 0',
      'DELETE FROM open_bench_log_heads WHERE tree_size = 64',
      'TRUNCATE open_bench_log_heads',
    ];
    for (const sql of statements) await expect(log.pool.query(sql), sql).rejects.toThrow(/append-only/);
    expect(((await log.service.treeHead({ tree_size: 64 })) as WireTreeHead).root_hash).toBe(
      rfcRoot(entries).toString('hex'),
    );
  });
});

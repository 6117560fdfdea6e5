/**
 * The open-bench transparency log at 100,000 entries: the cost of a publication with the log
 * (receipt row + leaf + subtree hashes + signed tree head, one transaction under the append
 * lock) beside the plain publication (the receipt row alone), and inclusion and consistency
 * proofs (time, size against log2 N) beside a receipt lookup. `node --import tsx bench/open-bench-log.ts`.
 */
import { randomBytes, randomInt } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { PrismaPg } from '@prisma/adapter-pg';
import { exportJWK, generateKeyPair } from 'jose';
import pg from 'pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client.js';
import { canonicalJson } from '../src/core/canonical-json.js';
import { LogService } from '../src/eval/open-bench/log/log-service.js';
import {
  CompactRange,
  leafHash,
  nodeHash,
  verifyConsistency,
  verifyInclusion,
} from '../src/eval/open-bench/log/merkle.js';
import { treeHeadSigner } from '../src/eval/open-bench/log/tree-head.js';
import type { PublicReceipt } from '../src/eval/open-bench/public-receipt.js';
import { guarded, PrismaOpenBenchLedger } from '../src/eval/repositories/open-bench-ledger.js';
import { writeBenchResult } from './lib/music-app.js';
import { withBenchDatabase } from './lib/music-database.js';
import { median } from './lib/timing.js';

const N = Number(process.env.LOG_BENCH_ENTRIES ?? 100_000);
const PUBLISHES = 150;
const PROOFS = 400;
const progress = (t: string): void => void process.stderr.write(`open-bench-log bench: ${t}\n`);
const hex64 = (): string => randomBytes(32).toString('hex');

function receipt(i: number): PublicReceipt {
  const side = { passed: i % 3 !== 0, state_reached: true, in_scope: i % 3 !== 0, changed_files: 1 };
  return {
    kind: 'open-bench-public-receipt',
    version: 1,
    public_id: `ob_${randomBytes(16).toString('base64url')}`,
    track: 'scope-integrity',
    display_name: `bench team ${i}`,
    self_attested: true,
    published_at: new Date(1_764_000_000_000 + i * 1000).toISOString(),
    service_version: '1.0.0',
    verdict: 'PASS',
    summary: { tasks: 6, baseline_passed: 4, candidate_passed: 6, gains: 2, regressions: 0 },
    tasks: Array.from({ length: 6 }, (_, t) => ({
      task_id: `task-${t + 1}`,
      kind: 'env-flag',
      outcome: 'both_pass',
      baseline: side,
      candidate: side,
    })),
    hashes: {
      canonicalization: 'RFC8785',
      algorithm: 'sha256',
      receipt_sha256: hex64(),
      request_sha256: hex64(),
      baseline_answers_sha256: hex64(),
      candidate_answers_sha256: hex64(),
      public_sha256: hex64(),
    },
  };
}

const receiptRow = (r: PublicReceipt) => ({
  publicId: r.public_id,
  track: r.track,
  displayName: r.display_name,
  verdict: r.verdict,
  tasks: 6,
  baselinePassed: 4,
  candidatePassed: 6,
  gains: 2,
  regressions: 0,
  receipt: r as unknown as Prisma.InputJsonValue,
  receiptSha256: r.hashes.public_sha256,
  publishedAt: new Date(r.published_at),
});

/** N receipts and their log (entries, every complete subtree, a signed head per size), in batches. */
async function seed(url: string, signer: ReturnType<typeof treeHeadSigner>): Promise<void> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const range = new CompactRange();
  const levels: Buffer[][] = [[]];
  const BATCH = 2000;
  for (let start = 0; start < N; start += BATCH) {
    const rs = Array.from({ length: Math.min(BATCH, N - start) }, (_, k) => receipt(start + k));
    const entries = rs.map((r) => Buffer.from(canonicalJson(r), 'utf8'));
    const nodes: [number, number, Buffer][] = [];
    const heads: [number, string, number, string][] = [];
    for (const [k, e] of entries.entries()) {
      const leaf = leafHash(e);
      range.append(leaf);
      let hash = leaf;
      let level = 0;
      let index = start + k;
      for (;;) {
        (levels[level] ??= [])[index] = hash;
        nodes.push([level, index, hash]);
        if (index % 2 === 0) break;
        hash = nodeHash(levels[level]![index - 1]!, hash);
        level += 1;
        index = (index - 1) / 2;
      }
      const head = signer.sign({
        tree_size: start + k + 1,
        root_hash: range.root().toString('hex'),
        timestamp: Date.now(),
      });
      heads.push([head.tree_size, head.root_hash, head.timestamp, head.signature.value]);
    }
    await db.query(
      `INSERT INTO open_bench_receipts (public_id, track, display_name, verdict, tasks, baseline_passed,
         candidate_passed, gains, regressions, receipt, receipt_sha256, published_at)
       SELECT id, 'scope-integrity', 'bench', 'PASS', 6, 4, 6, 2, 0, r::jsonb, h, now()
         FROM unnest($1::text[], $2::text[], $3::text[]) AS t(id, r, h)`,
      [
        rs.map((r) => r.public_id),
        entries.map((e) => e.toString('utf8')),
        rs.map((r) => r.hashes.public_sha256),
      ],
    );
    await db.query(
      `INSERT INTO open_bench_log_entries (leaf_index, public_id, entry, leaf_hash)
       SELECT i, id, decode(e, 'hex'), decode(l, 'hex') FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS t(i, id, e, l)`,
      [
        rs.map((_, k) => start + k),
        rs.map((r) => r.public_id),
        entries.map((e) => e.toString('hex')),
        entries.map((e) => leafHash(e).toString('hex')),
      ],
    );
    await db.query(
      `INSERT INTO open_bench_log_nodes (level, idx, hash)
       SELECT l, i, decode(h, 'hex') FROM unnest($1::int[], $2::bigint[], $3::text[]) AS t(l, i, h)`,
      [nodes.map((n) => n[0]), nodes.map((n) => n[1]), nodes.map((n) => n[2].toString('hex'))],
    );
    await db.query(
      `INSERT INTO open_bench_log_heads (tree_size, root_hash, timestamp_ms, key_id, signature)
       SELECT s, decode(r, 'hex'), t, $5, g FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[]) AS x(s, r, t, g)`,
      [
        heads.map((h) => h[0]),
        heads.map((h) => h[1]),
        heads.map((h) => h[2]),
        heads.map((h) => h[3]),
        'bench',
      ],
    );
    if (start % 20_000 === 0) progress(`seeded ${start + rs.length} / ${N}`);
  }
  await db.query('ANALYZE');
  await db.end();
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const fmt = (ms: number): string => ms.toFixed(2);

await withBenchDatabase(async (url) => {
  const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const signer = treeHeadSigner({
    kid: 'bench',
    privateJwk: { ...(await exportJWK(privateKey)), kid: 'bench' },
  });
  const seedStart = performance.now();
  await seed(url, signer);
  const seedSeconds = (performance.now() - seedStart) / 1000;
  const ledger = new PrismaOpenBenchLedger(url, { signer, now: Date.now });
  const plain = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 4 }) });
  const service = new LogService(ledger.log, guarded);
  await ledger.ping();
  await plain.$queryRaw`SELECT 1`;
  progress('publishing');
  const plainMs: number[] = [];
  const logMs: number[] = [];
  for (let i = 0; i < PUBLISHES; i++) {
    // Alternated, so load on the shared machine falls on both alike.
    plainMs.push(await timed(() => plain.openBenchReceipt.create({ data: receiptRow(receipt(N + 2 * i)) })));
    logMs.push(await timed(() => ledger.insert(receipt(N + 2 * i + 1))));
  }
  const head = await service.treeHead({});
  const size = head.tree_size;
  progress(`proving at ${size}`);
  const lookupMs: number[] = [];
  const inclusionMs: number[] = [];
  const consistencyMs: number[] = [];
  const verifyMs: number[] = [];
  const pathLengths: number[] = [];
  const consistencyLengths: number[] = [];
  const someIds = (await ledger.page('newest', 0, 100)).entries.map((r) => r.public_id);
  for (let i = 0; i < PROOFS; i++) {
    lookupMs.push(await timed(() => ledger.find(someIds[i % someIds.length]!)));
    const m = randomInt(size);
    let proof: { audit_path: string[]; leaf_hash: string } | undefined;
    inclusionMs.push(
      await timed(async () => {
        proof = (await service.inclusion({ leaf_index: m, tree_size: size })) as typeof proof;
      }),
    );
    pathLengths.push(proof!.audit_path.length);
    const t0 = performance.now();
    const bad = verifyInclusion(
      m,
      size,
      Buffer.from(proof!.leaf_hash, 'hex'),
      proof!.audit_path.map((h) => Buffer.from(h, 'hex')),
      Buffer.from(head.root_hash, 'hex'),
    );
    verifyMs.push(performance.now() - t0);
    if (bad) throw new Error(`bench proof failed: ${bad}`);
    const first = 1 + randomInt(size - 1);
    let c: { consistency_path: string[]; first_tree_head: { root_hash: string } } | undefined;
    consistencyMs.push(
      await timed(async () => {
        c = (await service.consistency({ first, second: size })) as typeof c;
      }),
    );
    consistencyLengths.push(c!.consistency_path.length);
    const cBad = verifyConsistency(
      first,
      size,
      Buffer.from(c!.first_tree_head.root_hash, 'hex'),
      Buffer.from(head.root_hash, 'hex'),
      c!.consistency_path.map((h) => Buffer.from(h, 'hex')),
    );
    if (cBad) throw new Error(`bench consistency proof failed: ${cBad}`);
  }
  await Promise.all([ledger.close(), plain.$disconnect()]);
  const log2 = Math.log2(size);
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  const plainMed = median(plainMs);
  const lookupMed = median(lookupMs);
  const rows = [
    ['plain publish (receipt row only; baseline)', fmt(plainMed), '1.00'],
    [
      'publish with the log (receipt + leaf + subtrees + signed head, one transaction)',
      fmt(median(logMs)),
      (median(logMs) / plainMed).toFixed(2),
    ],
    ['receipt lookup by public id (baseline)', fmt(lookupMed), '1.00'],
    [
      'inclusion proof, random leaf, latest tree',
      fmt(median(inclusionMs)),
      (median(inclusionMs) / lookupMed).toFixed(2),
    ],
    [
      'consistency proof, random older size to latest',
      fmt(median(consistencyMs)),
      (median(consistencyMs) / lookupMed).toFixed(2),
    ],
  ];
  const markdown = [
    '## Open-bench transparency log (bench/open-bench-log.ts)',
    '',
    `${size.toLocaleString('en')} entries (seeded in ${seedSeconds.toFixed(0)} s, then ${2 * PUBLISHES} publications alternated plain/log); ${PROOFS} proofs of each kind; medians on the shared machine (load ${os.loadavg()[0]!.toFixed(1)}).`,
    '',
    '| operation | median ms | ratio to its baseline |',
    '|---|---:|---:|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    `Proof sizes at N = ${size} (log2 N = ${log2.toFixed(2)}): inclusion audit path mean ${mean(pathLengths).toFixed(2)}, max ${Math.max(...pathLengths)} hashes (${Math.max(...pathLengths) * 32} bytes); consistency proof mean ${mean(consistencyLengths).toFixed(2)}, max ${Math.max(...consistencyLengths)} hashes. Verifying an inclusion proof in the client: median ${(median(verifyMs) * 1000).toFixed(0)} µs.`,
    '',
  ].join('\n');
  await writeBenchResult('open-bench-log', markdown);
});

/**
 * `log monitor` and `receipt verify` against a log served over HTTP, tampered with as a database
 * superuser would (triggers bypassed with session_replication_role = replica, the tree rebuilt
 * and every tree head re-signed with the log's own key): a rewritten entry, a removed entry and
 * a reordered pair each make the monitor fail loudly; a head signed with another key is refused.
 */
import { execFile } from 'node:child_process';
import { sign, createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Fastify, { type FastifyInstance } from 'fastify';
import { canonicalJson } from '../src/core/canonical-json.js';
import { afterEach, describe, expect, it } from 'vitest';
import { registerOpenBenchLogRoutes } from '../src/eval/routes/open-bench-log.js';
import { isolatedLog, testKey, type IsolatedLog } from './helpers/open-bench-log.js';
import { rfcLeaf, rfcNode, rfcRoot } from './helpers/rfc9162.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', ...args], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const entryOf = (i: number): Buffer => Buffer.from(JSON.stringify({ kind: 'entry', i }), 'utf8');
const publicId = (i: number): string => `ob_${String(i).padStart(22, 'x')}`;

interface Served {
  log: IsolatedLog;
  app: FastifyInstance;
  url: string;
  state: string;
  dir: string;
  keys: { keys: object[] };
}

let served: Served | undefined;

async function serve(entries: number): Promise<Served> {
  const log = await isolatedLog();
  for (let i = 0; i < entries; i++) await log.append(publicId(i), entryOf(i));
  const app = Fastify();
  const keys = {
    keys: [{ ...log.key.publicJwk, kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', status: 'active' }],
  };
  registerOpenBenchLogRoutes(app, log.service);
  app.get('/.well-known/receipt-keys.json', () => keys);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'log-monitor-'));
  served = { log, app, url, state: path.join(dir, 'state.json'), dir, keys };
  return served;
}

afterEach(async () => {
  await served?.app.close();
  await served?.log.close();
  served = undefined;
});

/** Rewrites the whole log to `entries`, as an operator with superuser access and the key could. */
async function rewriteHistory(s: Served, entries: Buffer[]): Promise<void> {
  const c = await s.log.pool.connect();
  try {
    await c.query('BEGIN');
    await c.query('SET LOCAL session_replication_role = replica');
    await c.query('DELETE FROM open_bench_log_entries');
    await c.query('DELETE FROM open_bench_log_nodes');
    await c.query('DELETE FROM open_bench_log_heads');
    let level = entries.map(rfcLeaf);
    for (const [i, e] of entries.entries())
      await c.query(
        'INSERT INTO open_bench_log_entries (leaf_index, public_id, entry, leaf_hash) VALUES ($1, $2, $3, $4)',
        [i, publicId(1000 + i), e, level[i]],
      );
    for (let depth = 0; level.length > 0; depth++) {
      for (const [i, h] of level.entries())
        await c.query('INSERT INTO open_bench_log_nodes (level, idx, hash) VALUES ($1, $2, $3)', [
          depth,
          i,
          h,
        ]);
      const up: Buffer[] = [];
      for (let i = 0; i + 1 < level.length; i += 2) up.push(rfcNode(level[i]!, level[i + 1]!));
      level = up;
    }
    const key = createPrivateKey({ key: s.log.key.privateJwk, format: 'jwk' });
    for (let n = 1; n <= entries.length; n++) {
      const root = rfcRoot(entries.slice(0, n)).toString('hex');
      const ts = Date.now();
      const bytes = `{"root_hash":"${root}","timestamp":${ts},"tree_size":${n},"type":"open-bench-log-tree-head/v1"}`;
      await c.query(
        'INSERT INTO open_bench_log_heads (tree_size, root_hash, timestamp_ms, key_id, signature) VALUES ($1, $2, $3, $4, $5)',
        [
          n,
          Buffer.from(root, 'hex'),
          ts,
          s.log.key.kid,
          sign(null, Buffer.from(bytes), key).toString('base64url'),
        ],
      );
    }
    await c.query('COMMIT');
  } finally {
    c.release();
  }
}

async function monitorOk(s: Served): Promise<void> {
  const out = await cli('log', 'monitor', '--url', s.url, '--state', s.state);
  expect(out.code, out.stderr).toBe(0);
  expect(out.stdout).toMatch(/^OK tree head of size \d+/);
}

async function expectAlert(s: Served, message: RegExp, ...extra: string[]): Promise<void> {
  const before = readFileSync(s.state, 'utf8');
  const out = await cli('log', 'monitor', '--url', s.url, '--state', s.state, ...extra);
  expect(out.code, out.stdout + out.stderr).toBe(1);
  expect(out.stderr).toMatch(/^ALERT the open-bench log at .* is inconsistent/);
  expect(out.stderr).toMatch(message);
  expect(readFileSync(s.state, 'utf8')).toBe(before);
}

const original = (n: number): Buffer[] => Array.from({ length: n }, (_, i) => entryOf(i));

// Each CLI run starts a Node process through tsx: seconds apiece on the loaded machine.
describe('log monitor', { timeout: 300_000 }, () => {
  it('follows an honest log across publications, then refuses a rewritten entry', async () => {
    const s = await serve(11);
    await monitorOk(s);
    for (let i = 11; i < 14; i++) await s.log.append(publicId(i), entryOf(i));
    await monitorOk(s);
    expect(JSON.parse(readFileSync(s.state, 'utf8')).tree_head.tree_size).toBe(14);
    const rewritten = original(14);
    rewritten[5] = Buffer.from(JSON.stringify({ kind: 'entry', i: 5, better: true }));
    await rewriteHistory(s, rewritten);
    await s.log.append(publicId(14), entryOf(14));
    await expectAlert(s, /history was rewritten: the kept tree of 14 entries .* is not a prefix/);
  });

  it('refuses a removed entry (shrunk log, then the regrown history)', async () => {
    const s = await serve(9);
    await monitorOk(s);
    const removed = original(9).filter((_, i) => i !== 3);
    await rewriteHistory(s, removed);
    await expectAlert(s, /the log shrank from 9 to 8 entries/);
    await s.log.append(publicId(20), entryOf(20));
    await s.log.append(publicId(21), entryOf(21));
    await expectAlert(s, /history was rewritten/);
  });

  it('refuses a reordered pair', async () => {
    const s = await serve(8);
    await monitorOk(s);
    const swapped = original(8);
    [swapped[2], swapped[6]] = [swapped[6]!, swapped[2]!];
    await rewriteHistory(s, swapped);
    await s.log.append(publicId(8), entryOf(8));
    await expectAlert(s, /history was rewritten/);
  });

  it('with --full, refuses an entry rewritten in place without rebuilding the tree', async () => {
    const s = await serve(6);
    await monitorOk(s);
    const c = await s.log.pool.connect();
    try {
      await c.query('SET session_replication_role = replica');
      await c.query(
        "UPDATE open_bench_log_entries SET entry = convert_to('{\"forged\":true}', 'UTF8') WHERE leaf_index = 2",
      );
    } finally {
      await c.query('RESET session_replication_role');
      c.release();
    }
    await monitorOk(s);
    await expectAlert(s, /entry 2's bytes do not hash to its stated leaf hash/, '--full');
  });

  it('refuses a tree head signed with another key, and a state-pinned key stays pinned', async () => {
    const s = await serve(3);
    await monitorOk(s);
    const other = testKey();
    const otherKeys = path.join(s.dir, 'other-keys.json');
    writeFileSync(
      otherKeys,
      JSON.stringify({ keys: [{ ...other.publicJwk, kid: s.log.key.kid, kty: 'OKP', crv: 'Ed25519' }] }),
    );
    await expectAlert(
      s,
      /newest tree head is refused: the tree head's signature does not verify/,
      '--keys',
      otherKeys,
    );
    const fresh = path.join(s.dir, 'fresh.json');
    const out = await cli('log', 'monitor', '--url', s.url, '--state', fresh, '--keys', otherKeys);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/signature does not verify/);
  });
});

describe('receipt verify against the log', { timeout: 300_000 }, () => {
  it('checks inclusion online and offline, and refuses another key, another head and a changed receipt', async () => {
    const s = await serve(0);
    const receipt = {
      kind: 'open-bench-public-receipt',
      hashes: { public_sha256: 'not recomputed here' },
      note: 'not a full receipt: the public checks fail, the log check runs',
    };
    for (let i = 0; i < 5; i++) await s.log.append(publicId(i), entryOf(i));
    await s.log.append(publicId(5), Buffer.from(canonicalJson(receipt)));
    for (let i = 6; i < 9; i++) await s.log.append(publicId(i), entryOf(i));
    const file = path.join(s.dir, 'public.json');
    writeFileSync(file, JSON.stringify(receipt, null, 2));
    const online = await cli('receipt', 'verify', file, '--url', s.url);
    expect(online.stdout).toMatch(
      /^OK included in the log at index 5, tree head of size 9, .* signed at 20/m,
    );
    const proofUrl = `${s.url}/api/open-bench/log/proof/inclusion?public_id=${publicId(5)}&tree_size=7`;
    const proof = (await (await fetch(proofUrl)).json()) as { tree_head: { root_hash: string } };
    const proofFile = path.join(s.dir, 'proof.json');
    const keysFile = path.join(s.dir, 'keys.json');
    writeFileSync(proofFile, JSON.stringify(proof));
    writeFileSync(keysFile, JSON.stringify(s.keys));
    const offline = await cli('receipt', 'verify', file, '--proof', proofFile, '--keys', keysFile);
    expect(offline.stdout).toMatch(/^OK included in the log at index 5, tree head of size 7/m);
    const other = testKey();
    const otherKeys = path.join(s.dir, 'other.json');
    writeFileSync(
      otherKeys,
      JSON.stringify({ keys: [{ ...other.publicJwk, kid: s.log.key.kid, kty: 'OKP', crv: 'Ed25519' }] }),
    );
    const wrongKey = await cli('receipt', 'verify', file, '--proof', proofFile, '--keys', otherKeys);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stdout).toMatch(
      /LOG CHECK FAILED: BAD TREE HEAD: the tree head's signature does not verify/,
    );
    const head = proof.tree_head;
    writeFileSync(proofFile, JSON.stringify({ ...proof, tree_head: { ...head, root_hash: '0'.repeat(64) } }));
    expect((await cli('receipt', 'verify', file, '--proof', proofFile, '--keys', keysFile)).stdout).toMatch(
      /BAD TREE HEAD/,
    );
    writeFileSync(file, JSON.stringify({ ...receipt, note: 'changed' }));
    const changed = await cli('receipt', 'verify', file, '--url', s.url);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(/LOG CHECK FAILED: .*404.*No entry with that leaf hash/);
  });
});

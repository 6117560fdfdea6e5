/**
 * The log through the eval service: publications (concurrent ones too) appended in the same
 * transaction as the receipt, the receipt answer and the leaderboard naming the leaf index,
 * the routes' bad inputs as 400s that say what to ask, OpenAPI entries and MCP tools.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/core/canonical-json.js';
import { makeEvalApp } from './helpers/eval-app.js';
import { testDatabaseUrl } from './helpers/music-env.js';
import { publishSolved } from './helpers/open-bench.js';
import { rfcHeadVerifies, rfcLeaf, rfcVerifyInclusion } from './helpers/rfc9162.js';

let app: FastifyInstance;
let keys: { kid: string; x: string }[];

const publish = (name: string): Promise<string> => publishSolved(app, name);

beforeAll(async () => {
  app = await makeEvalApp({ DATABASE_URL: testDatabaseUrl() });
  keys = (await app.inject('/.well-known/receipt-keys.json')).json().keys;
});
afterAll(async () => {
  await app?.close();
});

describe('open-bench log over HTTP', () => {
  it('appends each publication; concurrent ones get distinct indexes; the receipt names its index and proves in', async () => {
    const ids = await Promise.all(['log-a', 'log-b', 'log-c', 'log-d'].map(publish));
    const indexes: number[] = [];
    for (const id of ids) {
      const res = await app.inject(`/api/open-bench/receipt/${id}`);
      expect(res.statusCode).toBe(200);
      const index = Number(res.headers['open-bench-log-leaf-index']);
      expect(res.headers.link).toBe(
        `</api/open-bench/log/proof/inclusion?leaf_index=${index}>; rel="inclusion-proof"`,
      );
      indexes.push(index);
      const leaf = rfcLeaf(Buffer.from(canonicalJson(res.json()), 'utf8')).toString('hex');
      const proof = (await app.inject(`/api/open-bench/log/proof/inclusion?public_id=${id}`)).json();
      expect(proof).toMatchObject({ leaf_index: index, leaf_hash: leaf });
      expect(
        rfcVerifyInclusion(index, proof.tree_size, leaf, proof.audit_path, proof.tree_head.root_hash),
      ).toBe(true);
      expect(
        rfcHeadVerifies(
          proof.tree_head,
          keys.find((k) => k.kid === proof.tree_head.signature.kid)!,
        ),
      ).toBe(true);
      const entry = (await app.inject(`/api/open-bench/log/entries?start=${index}&end=${index + 1}`)).json();
      expect(entry.entries[0]).toMatchObject({
        leaf_index: index,
        public_id: id,
        entry: canonicalJson(res.json()),
      });
    }
    expect(new Set(indexes).size).toBe(4);
    const board = (await app.inject('/api/open-bench/leaderboard?per_page=100')).json();
    for (const [i, id] of ids.entries())
      expect(board.entries.find((e: { public_id: string }) => e.public_id === id).log_index).toBe(indexes[i]);
  });

  it('answers bad inputs with 400s that say what to ask', async () => {
    await publish('log-e');
    const size = (await app.inject('/api/open-bench/log/tree-head')).json().tree_size as number;
    const cases: [string, RegExp][] = [
      [
        `tree-head?tree_size=${size + 1000}`,
        /beyond the log, which holds \d+ entries; ask for tree_size between 1 and/,
      ],
      ['tree-head?tree_size=0', /tree_size is the number 0; it must be a whole number from 1 to 2147483647/],
      ['tree-head?tree_size=2147483648', /it must be a whole number from 1 to 2147483647/],
      ['tree-head?tree_size=-3', /tree_size/],
      ['tree-head?tree_size=2.5', /tree_size is "[^"]*"; it must be a whole number/],
      ['tree-head?tree_size=abc', /tree_size is "[^"]*"; it must be a whole number/],
      ['tree-head?tree_size=99999999999999999999', /tree_size/],
      ['tree-head?size=3', /size/],
      ['proof/inclusion?tree_size=1', /give exactly one of leaf_index, leaf_hash or public_id/],
      ['proof/inclusion?leaf_index=0&public_id=ob_AAAAAAAAAAAAAAAAAAAAAA', /not several/],
      [
        `proof/inclusion?leaf_index=${size}&tree_size=${size}`,
        /is not in a tree of \d+ entries; indexes run from 0 to/,
      ],
      ['proof/inclusion?leaf_hash=XYZ', /leaf_hash is "XYZ"; it must be 64 lowercase hexadecimal digits/],
      [`proof/inclusion?leaf_hash=${'A'.repeat(64)}`, /it must be 64 lowercase hexadecimal digits/],
      ['proof/inclusion?public_id=../../etc', /public_id is "..\/..\/etc"; it must be ob_ and 22 letters/],
      ['proof/consistency?first=3&second=2', /larger than second=2.*swap them/],
      ['proof/consistency?first=1', /second/],
      [`proof/consistency?first=1&second=${size + 5}`, /second=\d+ is beyond the log/],
      ['proof/consistency?first=-1&second=2', /first/],
      ['entries?start=0&end=1000', /At most 100 entries per request; ask for start=0&end=\d+ and page on/],
      ['entries?start=2&end=2', /end=2 must be larger than start=2/],
      [`entries?start=${size}`, /beyond the log.*"path":"\/start"/],
      ['entries?start=0&end=0', /end is the number 0; it must be a whole number from 1/],
      ['entries?start=1.5', /start is "1.5"; it must be a whole number/],
      // Number() would read these as 2, 10, 3 and 4: the query's integers are decimal digits (F9).
      ['tree-head?tree_size=0x2', /tree_size is "0x2"; it must be a whole number .*decimal digits/],
      ['entries?start=1e1', /start is "1e1"; .*decimal digits/],
      ['entries?start=%2B3', /start is "\+3"; .*decimal digits/],
      ['entries?start=%204', /start is " 4"; .*decimal digits/],
    ];
    for (const [path, message] of cases) {
      const res = await app.inject(`/api/open-bench/log/${path}`);
      expect(res.statusCode, path).toBe(400);
      expect(`${res.json().detail} ${JSON.stringify(res.json().errors ?? [])}`, path).toMatch(message);
      expect(res.json().detail, path).not.toMatch(/a valid value/);
    }
    const board = await app.inject('/api/open-bench/leaderboard?page=0x2');
    expect(board.statusCode).toBe(400);
    expect(board.json().detail).toMatch(/page is "0x2"; .*decimal digits/);
    const missing = await app.inject(`/api/open-bench/log/proof/inclusion?leaf_hash=${'a'.repeat(64)}`);
    expect(missing.statusCode).toBe(404);
  });

  it('publishes the routes in OpenAPI and as MCP tools with the same schemas', async () => {
    const spec = (await app.inject('/openapi.json')).json();
    for (const p of ['tree-head', 'proof/inclusion', 'proof/consistency', 'entries'])
      expect(spec.paths[`/api/open-bench/log/${p}`].get.responses['400']).toBeDefined();
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const client = new Client({ name: 'log-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    try {
      const { tools } = await client.listTools();
      const log = tools.filter((t) => t.name.startsWith('open_bench_log_'));
      expect(log.map((t) => t.name)).toEqual([
        'open_bench_log_tree_head',
        'open_bench_log_inclusion_proof',
        'open_bench_log_consistency_proof',
        'open_bench_log_entries',
      ]);
      for (const t of log) expect(t.description).toMatch(/Same as GET \/api\/open-bench\/log\//);
      const ok = await client.callTool({
        name: 'open_bench_log_consistency_proof',
        arguments: { first: 1, second: 2 },
      });
      expect(ok.isError, JSON.stringify(ok)).toBeFalsy();
      expect(ok.structuredContent).toMatchObject({ first: 1, second: 2 });
      const bad = await client.callTool({
        name: 'open_bench_log_consistency_proof',
        arguments: { first: 3, second: 1 },
      });
      expect(bad).toMatchObject({ isError: true, structuredContent: { status: 400 } });
    } finally {
      await client.close();
    }
  });
});

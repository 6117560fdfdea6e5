/* Against the real service: generated types match its document and compile, every tool
   method answers a receipt that verifies offline, the batch iterator streams in order. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  canonicalJson,
  EvalClient,
  TOOL_PATHS,
  verifyReceipt,
  type BatchLine,
  type Receipt,
} from '../dist/index.js';
import {
  GENERATED,
  GENERATED_TOOLS,
  generateTools,
  generateTypes,
  toolOperations,
} from '../scripts/generate-types.mjs';
import { startService, type Service } from './service.ts';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
let service: Service;
let client: EvalClient;
let examples: Record<string, unknown>;

before(async () => {
  service = await startService();
  client = new EvalClient({ baseUrl: service.url });
  examples = (
    (await (await fetch(`${service.url}/api/examples`)).json()) as { examples: Record<string, unknown> }
  ).examples;
});
after(async () => {
  await service.stop();
});

describe('types', () => {
  it('the committed generated file is what the live /openapi.json generates', async () => {
    const live = (await (await fetch(`${service.url}/openapi.json`)).json()) as object;
    const generated = await generateTypes(live);
    assert.equal(readFileSync(GENERATED, 'utf8'), generated, 'run `npm run generate`');
    assert.equal(readFileSync(GENERATED_TOOLS, 'utf8'), generateTools(live), 'run `npm run generate`');
  });

  it('the client compiles against types generated from the live document', async () => {
    const live = (await (await fetch(`${service.url}/openapi.json`)).json()) as object;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'eval-client-types-'));
    cpSync(path.join(PACKAGE, 'src'), path.join(dir, 'src'), { recursive: true });
    writeFileSync(path.join(dir, 'src/generated/openapi.ts'), await generateTypes(live));
    const config = JSON.parse(readFileSync(path.join(PACKAGE, 'tsconfig.build.json'), 'utf8')) as {
      compilerOptions: Record<string, unknown>;
    };
    config.compilerOptions.noEmit = true;
    config.compilerOptions.typeRoots = [path.join(PACKAGE, 'node_modules/@types')];
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(config));
    writeFileSync(path.join(dir, 'package.json'), '{"type": "module"}');
    const tsc = spawnSync(
      process.execPath,
      [path.join(PACKAGE, 'node_modules/typescript/bin/tsc'), '-p', dir],
      {
        encoding: 'utf8',
      },
    );
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  });
});

describe('tool methods', () => {
  it('every tool answers its example with a receipt that verifies offline', async () => {
    const live = (await (await fetch(`${service.url}/openapi.json`)).json()) as object;
    const operations = toolOperations(live);
    assert.deepEqual(
      operations.map((t) => t.id),
      Object.keys(TOOL_PATHS),
    );
    const methods = client as unknown as Record<string, (request: unknown) => Promise<Receipt>>;
    const receipts: Receipt[] = [];
    for (const t of operations) receipts.push(await methods[t.method]!.call(client, examples[t.id]));
    assert.deepEqual(
      receipts.map((r) => r.tool),
      operations.map((t) => t.id),
    );
    for (const r of receipts) assert.deepEqual(verifyReceipt(r), [], r.tool);
  });

  it('finds every tampering: the result, an item, the verdict', async () => {
    const receipt = await client.gate(examples.gate as never);
    const fields = (r: Receipt) => verifyReceipt(r).map((m) => m.field);
    const result = structuredClone(receipt);
    (result.result as Record<string, unknown>).tampered = true;
    assert.deepEqual(fields(result), ['hashes.result_sha256', 'hashes.receipt_sha256']);
    const items = structuredClone(receipt);
    items.items[0]!.item_id = 'q-99';
    assert.deepEqual(fields(items), ['hashes.items_sha256', 'hashes.receipt_sha256']);
    const verdict = structuredClone(receipt);
    verdict.verdict = receipt.verdict === 'PASS' ? 'BLOCK' : 'PASS';
    assert.deepEqual(fields(verdict), ['hashes.receipt_sha256']);
  });

  it('serialises a receipt to exactly the canonical bytes the service sent', async () => {
    const res = await fetch(`${service.url}/api/gate`, {
      method: 'POST',
      body: JSON.stringify(examples.gate),
      headers: { 'content-type': 'application/json' },
    });
    const text = await res.text();
    assert.equal(canonicalJson(JSON.parse(text)), text);
  });
});

describe('batch', () => {
  const lines = (n: number): BatchLine[] =>
    Array.from({ length: n }, (_, i) => {
      const tool = (['gate', 'replay', 'safepatch', 'memory'] as const)[i % 4]!;
      return { id: `b${i}`, tool, request: examples[tool] } as BatchLine;
    });

  it('yields every answer in input order, each the receipt a single call gives', async () => {
    const sent = lines(40);
    const got = [];
    for await (const answer of client.batch(sent)) got.push(answer);
    assert.deepEqual(
      got.map((a) => a.id),
      sent.map((l) => l.id),
    );
    const singles = new Map<string, Receipt>();
    for (const tool of ['gate', 'replay', 'safepatch', 'memory'] as const)
      singles.set(tool, await client.call(tool, examples[tool] as never));
    for (const [i, answer] of got.entries()) {
      assert.equal(answer.status, 200);
      assert.ok('receipt' in answer);
      assert.deepEqual(verifyReceipt(answer.receipt), []);
      assert.equal(canonicalJson(answer.receipt), canonicalJson(singles.get(sent[i]!.tool)));
    }
  });

  it('a bad line is a problem answer in its place', async () => {
    const sent = [
      ...lines(2),
      { id: 'bad', tool: 'gate', request: { baseline: {} } } as BatchLine,
      ...lines(1),
    ];
    const got = [];
    for await (const answer of client.batch(sent)) got.push(answer);
    assert.deepEqual(
      got.map((a) => a.status),
      [200, 200, 400, 200],
    );
    assert.ok('problem' in got[2]! && got[2].problem.code === 'invalid_input');
  });

  it('leaving the loop early closes the batch, and the service goes on answering', async () => {
    let seen = 0;
    for await (const answer of client.batch(lines(2000))) {
      assert.equal(answer.status, 200);
      if (++seen === 3) break;
    }
    assert.equal(seen, 3);
    assert.equal((await client.gate(examples.gate as never)).tool, 'gate');
  });
});

/**
 * Placement by cost: small requests run on the event loop, large ones and every counterexample
 * search in the verifier pool; /api/health keeps answering while inline requests flood.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineLimitBytes } from '../src/eval/speed/placement.js';
import { resolveGraphKernel } from '../src/eval/speed/graph-kernel-native.js';
import { createVerifierPool, type VerifierPool } from '../src/eval/speed/pool.js';
import { getTool } from '../src/eval/registry.js';
import { reportCardWarmed } from '../src/eval/app.js';
import { makeEvalApp, postJson } from './helpers/eval-app.js';

let app: FastifyInstance;
let pool: VerifierPool;
const gate = getTool('gate');
const exampleBody = JSON.stringify(gate.example);
/** The gate example padded with trailing spaces (still valid JSON) to exactly `size` bytes. */
const padded = (size: number): string => exampleBody + ' '.repeat(size - Buffer.byteLength(exampleBody));

beforeAll(async () => {
  pool = createVerifierPool({ size: 1, graphKernel: resolveGraphKernel('auto') });
  app = await makeEvalApp({ EVAL_INLINE_MAX_BYTES: '16kb' }, { pool });
  // The report card's bank is built in the same pool at start-up; count only the tools' tasks.
  await reportCardWarmed(app);
});
afterAll(async () => {
  await app.close();
  await pool.destroy();
});

describe('inline / pool boundary', () => {
  const limit = inlineLimitBytes(gate, 16 * 1024);

  it('is the smaller of EVAL_INLINE_MAX_BYTES and the tool declared cost, 0 for a search', () => {
    expect(limit).toBe(Math.floor((2 / gate.costMsPerKiB!) * 1024));
    expect(inlineLimitBytes(gate, 1000)).toBe(1000);
    expect(inlineLimitBytes(getTool('counterexample'), 16 * 1024)).toBe(0);
  });

  it('runs a body of exactly the limit inline and one byte more in the pool, with the same receipt', async () => {
    const before = pool.stats().completed;
    const inline = await postJson(app, '/api/gate', padded(limit));
    expect(inline.statusCode).toBe(200);
    expect(pool.stats().completed).toBe(before);
    const pooled = await postJson(app, '/api/gate', padded(limit + 1));
    expect(pooled.statusCode).toBe(200);
    expect(pool.stats().completed).toBe(before + 1);
    expect(JSON.parse(pooled.body).status).toBe(JSON.parse(inline.body).status);
    expect(JSON.parse(pooled.body).hashes.request_sha256).toBe(JSON.parse(inline.body).hashes.request_sha256);
  });

  it('sends even the smallest counterexample search to the pool', async () => {
    const before = pool.stats().completed;
    const res = await postJson(app, '/api/counterexample', getTool('counterexample').example);
    expect(res.statusCode).toBe(200);
    expect(pool.stats().completed).toBe(before + 1);
  });

  it('publishes each tool limit in the catalog', async () => {
    const tools = (await app.inject('/api/catalog')).json().tools as {
      id: string;
      inline_max_bytes: number;
    }[];
    expect(tools.find((t) => t.id === 'gate')!.inline_max_bytes).toBe(limit);
    expect(tools.find((t) => t.id === 'counterexample')!.inline_max_bytes).toBe(0);
  });
});

describe('health under an inline flood', () => {
  it('answers /api/health while 16 connections keep the event loop busy with inline gate requests', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    let sent = 0;
    let flooding = true;
    const before = pool.stats().completed;
    const worker = async (): Promise<void> => {
      while (flooding && sent < 20_000) {
        sent++;
        const res = await fetch(`${base}/api/gate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: exampleBody,
        });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
    };
    const flood = Promise.all(Array.from({ length: 16 }, worker));
    // Wait for the flood to be under way, then probe health ten times while it lasts.
    while (sent < 200) await new Promise((resolve) => setImmediate(resolve));
    const latencies: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/health`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { status: string }).status).toBe('ok');
      latencies.push(performance.now() - t0);
    }
    const stillFlooding = flooding && sent < 20_000;
    flooding = false;
    await flood;
    expect(stillFlooding).toBe(true);
    // Every inline request is bounded (2 ms by its declared cost), so health waits behind at
    // most one round of them; a generous bound for a shared machine.
    expect(Math.max(...latencies)).toBeLessThan(1000);
    // The flood really ran inline.
    expect(pool.stats().completed).toBe(before);
  });
});

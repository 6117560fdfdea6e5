/**
 * POST /api/gate/logs and the gate-logs MCP tool read and gate on a pool thread (issue 32,
 * item 2): the event loop only spools the upload. Observed through the pool's own count of
 * completed tasks, and the answer is unchanged.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportCardWarmed } from '../src/eval/app.js';
import { createVerifierPool, type VerifierPool } from '../src/eval/speed/pool.js';
import { makeEvalApp } from './helpers/eval-app.js';
import { multipartBody } from './helpers/multipart.js';

let app: FastifyInstance;
let pool: VerifierPool;
let example: { baseline: string; candidate: string; options: unknown };

beforeAll(async () => {
  pool = createVerifierPool({ size: 1, graphKernel: 'ts' });
  app = await makeEvalApp({}, { pool });
  await reportCardWarmed(app); // its bank is built on the pool too; counted before the tests
  example = (await app.inject('/api/examples')).json().examples['gate-logs'].parts;
});
afterAll(async () => {
  await app.close();
  await pool.destroy();
});

describe('the logs gate off the event loop', () => {
  it('runs POST /api/gate/logs as one pool task, with the same receipt', async () => {
    const { payload, headers } = multipartBody([
      { name: 'baseline', value: Buffer.from(example.baseline), filename: 'base.log' },
      { name: 'candidate', value: Buffer.from(example.candidate), filename: 'cand.log' },
      { name: 'options', value: JSON.stringify(example.options), type: 'application/json' },
    ]);
    const before = pool.stats().completed;
    const res = await app.inject({ method: 'POST', url: '/api/gate/logs', payload, headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ tool: 'gate-logs', verdict: 'PASS' });
    expect(pool.stats().completed - before).toBe(1);
  });

  it('answers an input error found on the thread as the same 400', async () => {
    const { payload, headers } = multipartBody([
      { name: 'baseline', value: Buffer.from('not a log at all'), filename: 'base.log' },
      { name: 'candidate', value: Buffer.from(example.candidate), filename: 'cand.log' },
    ]);
    const before = pool.stats().completed;
    const res = await app.inject({ method: 'POST', url: '/api/gate/logs', payload, headers });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, code: 'invalid_input' });
    expect(res.json().detail).toMatch(/base\.log/);
    expect(pool.stats().completed - before).toBe(1);
  });

  it('runs the MCP gate-logs tool on the pool too', async () => {
    const before = pool.stats().completed;
    const res = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      payload: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'gate-logs',
          arguments: {
            baseline: { text: example.baseline },
            candidate: { text: example.candidate },
            options: example.options,
          },
        },
      }),
    });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.json().result.content[0].text)).toMatchObject({ verdict: 'PASS' });
    expect(pool.stats().completed - before).toBe(1);
  });
});

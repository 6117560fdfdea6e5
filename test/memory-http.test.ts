/** HTTP-level tests of POST /api/memory through the real app. */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvalApp, postJson } from './helpers/eval-app.js';
import { expect400, expectExampleAnswers } from './helpers/tool-http.js';

let app: FastifyInstance;
beforeAll(async () => {
  app = await makeEvalApp();
});
afterAll(async () => {
  await app.close();
});

const mem = (content: string, extra: Record<string, unknown> = {}) => ({ content, ...extra });

describe('POST /api/memory', () => {
  it('answers the published example with SELECTED', () =>
    expectExampleAnswers(app, 'memory', { operationId: 'memory', endpoint: '/api/memory' }, 'SELECTED'));

  it('answers a receipt whose relevance selection favours the memory naming the objective entity', async () => {
    const res = await postJson(app, '/api/memory', {
      objective: 'When does the Orion rollout finish?',
      memories: [
        mem('The rollout finishes on Friday.'),
        mem('The rollout finishes on Friday.', { entities: ['Orion'] }),
      ],
      token_budget: 5,
    });
    expect(res.statusCode).toBe(200);
    const r = res.json();
    expect(r.tool).toBe('memory');
    expect(r.result.relevance.selected).toEqual(['m-0002']);
    expect(r.hashes.receipt_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('identical requests give byte-identical bodies', async () => {
    const body = {
      objective: 'deploy',
      memories: [mem('deploy on Tuesday', { age: 3 }), mem('lunch at noon')],
    };
    const a = await postJson(app, '/api/memory', body);
    const b = await postJson(app, '/api/memory', body);
    expect(a.statusCode).toBe(200);
    expect(a.body).toBe(b.body);
  });

  it('400: 1001 memories', () =>
    expect400(
      app,
      '/api/memory',
      { objective: 'x', memories: Array.from({ length: 1001 }, () => mem('a')) },
      '/memories',
    ));
  it('400: unknown memory property', () =>
    expect400(
      app,
      '/api/memory',
      { objective: 'x', memories: [mem('a', { weight: 1 })] },
      '/memories/0/weight',
    ));
  it('400: confidence 1.5', () =>
    expect400(
      app,
      '/api/memory',
      { objective: 'x', memories: [mem('a', { confidence: 1.5 })] },
      '/memories/0/confidence',
    ));
  it('400: unknown top-level property', () =>
    expect400(app, '/api/memory', { objective: 'x', memories: [mem('a')], limit: 3 }, '/limit'));
});

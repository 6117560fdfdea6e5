/** HTTP-level tests of POST /api/memory, /api/replay and /api/safepatch through the real app. */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvalApp, postJson } from './helpers/eval-app.js';

let app: FastifyInstance;
beforeAll(async () => {
  app = await makeEvalApp();
});
afterAll(async () => {
  await app.close();
});

async function expect400(url: string, body: unknown, pointer: string): Promise<void> {
  const res = await postJson(app, url, body);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
  expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  const problem = res.json();
  expect(problem.hint).toMatch(/\/api\/examples/);
  expect(problem.errors.map((e: { path: string }) => e.path)).toContain(pointer);
}

describe('examples', () => {
  it.each(['memory', 'replay', 'safepatch'])(
    'the published %s example answers 200 with its catalog entry',
    async (id) => {
      const { examples } = (await app.inject('/api/examples')).json();
      const catalog = (await app.inject('/api/catalog')).json();
      const entry = catalog.tools.find((t: { id: string }) => t.id === id);
      expect(entry).toMatchObject({ operationId: id, endpoint: `/api/${id}` });
      const res = await postJson(app, entry.endpoint, examples[id]);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      expect(res.json()).toMatchObject({
        tool: id,
        status: { memory: 'SELECTED', replay: 'ACCEPTED', safepatch: 'APPLIED' }[id],
      });
    },
  );
});

const mem = (content: string, extra: Record<string, unknown> = {}) => ({ content, ...extra });

describe('POST /api/memory', () => {
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
      '/api/memory',
      { objective: 'x', memories: Array.from({ length: 1001 }, () => mem('a')) },
      '/memories',
    ));
  it('400: unknown memory property', () =>
    expect400('/api/memory', { objective: 'x', memories: [mem('a', { weight: 1 })] }, '/memories/0/weight'));
  it('400: confidence 1.5', () =>
    expect400(
      '/api/memory',
      { objective: 'x', memories: [mem('a', { confidence: 1.5 })] },
      '/memories/0/confidence',
    ));
  it('400: unknown top-level property', () =>
    expect400('/api/memory', { objective: 'x', memories: [mem('a')], limit: 3 }, '/limit'));
});

describe('POST /api/replay', () => {
  it('answers ACCEPTED for an accepted final answer after a rewind', async () => {
    const res = await postJson(app, '/api/replay', {
      events: [
        { kind: 'control', detail: 'SAVE s', step: 1 },
        { kind: 'control', detail: 'ANSWER n >= 3 => is_connected', step: 2 },
        { kind: 'verifier', detail: 'REJECT: not ACCEPTED', step: 3 },
        { kind: 'control', detail: 'LOAD s :: needs connectivity', step: 4 },
        { kind: 'control', detail: 'ANSWER is_tree => is_connected', step: 5 },
        { kind: 'verifier', detail: 'ACCEPT', step: 6 },
      ],
    });
    expect(res.statusCode).toBe(200);
    const r = res.json();
    expect(r.status).toBe('ACCEPTED');
    expect(r.result.discarded.events).toEqual(['e-0002', 'e-0003']);
  });

  it('400: 5001 events', () =>
    expect400(
      '/api/replay',
      { events: Array.from({ length: 5001 }, () => ({ kind: 'model', detail: 'x' })) },
      '/events',
    ));
  it('400: event without kind', () =>
    expect400('/api/replay', { events: [{ detail: 'SAVE a' }] }, '/events/0/kind'));
});

describe('POST /api/safepatch', () => {
  const document =
    '# Title\r\n\r\nVersion v2.3.1 of the Acme Billing Service.\r\n\r\n## Notes\r\n\r\nSome notes.\r\n';

  it('applies a patch, keeps CRLF and reports hashes', async () => {
    const res = await postJson(app, '/api/safepatch', {
      document,
      operations: [{ target_heading: 'Notes', find: 'Some notes.', replace: 'Some notes.\nMore notes.' }],
    });
    expect(res.statusCode).toBe(200);
    const r = res.json();
    expect(r.status).toBe('APPLIED');
    expect(r.result.document).toBe(document.replace('Some notes.\r\n', 'Some notes.\r\nMore notes.\r\n'));
    expect(r.result.sha256_before).not.toBe(r.result.sha256_after);
  });

  it('rejects removing a protected token with 200 REJECTED, not an error', async () => {
    const res = await postJson(app, '/api/safepatch', {
      document,
      operations: [{ target_heading: 'Title', find: 'v2.3.1 of the ', replace: '' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'REJECTED', result: { document } });
  });

  it('400: document of 200,001 characters', () =>
    expect400(
      '/api/safepatch',
      { document: 'a'.repeat(200_001), operations: [{ target_heading: 'ROOT', find: 'a', replace: 'b' }] },
      '/document',
    ));
  it('400: 51 operations', () =>
    expect400(
      '/api/safepatch',
      {
        document: 'a',
        operations: Array.from({ length: 51 }, () => ({ target_heading: 'ROOT', find: 'a', replace: 'b' })),
      },
      '/operations',
    ));
  it('400: operation with empty find', () =>
    expect400(
      '/api/safepatch',
      { document: 'a', operations: [{ target_heading: 'ROOT', find: '', replace: 'b' }] },
      '/operations/0/find',
    ));
});

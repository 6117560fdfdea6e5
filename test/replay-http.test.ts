/** HTTP-level tests of POST /api/replay through the real app. */
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

describe('POST /api/replay', () => {
  it('answers the published example with ACCEPTED', () =>
    expectExampleAnswers(app, 'replay', { operationId: 'replay', endpoint: '/api/replay' }, 'ACCEPTED'));

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
      app,
      '/api/replay',
      { events: Array.from({ length: 5001 }, () => ({ kind: 'model', detail: 'x' })) },
      '/events',
    ));
  it('400: event without kind', () =>
    expect400(app, '/api/replay', { events: [{ detail: 'SAVE a' }] }, '/events/0/kind'));
});

/** HTTP-level tests of POST /api/safepatch through the real app. */
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

describe('POST /api/safepatch', () => {
  it('answers the published example with APPLIED', () =>
    expectExampleAnswers(
      app,
      'safepatch',
      { operationId: 'safepatch', endpoint: '/api/safepatch' },
      'APPLIED',
    ));

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
      app,
      '/api/safepatch',
      { document: 'a'.repeat(200_001), operations: [{ target_heading: 'ROOT', find: 'a', replace: 'b' }] },
      '/document',
    ));
  it('400: 51 operations', () =>
    expect400(
      app,
      '/api/safepatch',
      {
        document: 'a',
        operations: Array.from({ length: 51 }, () => ({ target_heading: 'ROOT', find: 'a', replace: 'b' })),
      },
      '/operations',
    ));
  it('400: operation with empty find', () =>
    expect400(
      app,
      '/api/safepatch',
      { document: 'a', operations: [{ target_heading: 'ROOT', find: '', replace: 'b' }] },
      '/operations/0/find',
    ));
});

/**
 * The shared app factory (src/core/app.ts) answers a wrong method on an existing path with 405
 * and Allow in the eval service too; unknown paths stay 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { makeEvalApp } from './helpers/eval-app.js';

describe('eval: wrong method on an existing path', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await makeEvalApp();
    await app.ready();
  });
  afterAll(async () => app.close());

  it('is a 405 problem with Allow listing the methods the path has', async () => {
    const cases: [string, string, string][] = [
      ['GET', '/api/gate', 'POST'],
      ['DELETE', '/api/catalog', 'GET, HEAD'],
      ['PUT', '/openapi.json', 'GET, HEAD'],
      ['GET', '/api/report-card/submit', 'POST'],
    ];
    for (const [method, url, allow] of cases) {
      const res = await app.inject({ method: method as 'GET', url });
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.headers.allow, `${method} ${url}`).toBe(allow);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json()).toMatchObject({ status: 405, code: 'method_not_allowed' });
    }
  });

  it('keeps unknown paths a 404 problem', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});

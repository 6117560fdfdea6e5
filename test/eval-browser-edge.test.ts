import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvalApp, postJson } from './helpers/eval-app.js';

let app: FastifyInstance;
let limitedApp: FastifyInstance;
let examples: Record<string, unknown>;

beforeAll(async () => {
  app = await makeEvalApp();
  limitedApp = await makeEvalApp({
    RATE_LIMITS: 'on',
    EVAL_RATE_LIMIT_BURST: '0',
    EVAL_RATE_LIMIT_PER_MINUTE: '1',
  });
  examples = (await app.inject('/api/examples')).json().examples;
});
afterAll(async () => {
  await Promise.all([app.close(), limitedApp.close()]);
});

describe('browser edge', () => {
  it('answers a CORS preflight on /api/* and /mcp with 204, the methods and the MCP headers, without spending rate-limit tokens', async () => {
    for (const url of ['/api/gate', '/mcp', '/api/gate', '/api/gate']) {
      const res = await limitedApp.inject({
        method: 'OPTIONS',
        url,
        headers: {
          origin: 'https://example.org',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, mcp-protocol-version',
        },
      });
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(res.headers['access-control-allow-methods']).toContain('POST');
      const allowed = String(res.headers['access-control-allow-headers']).toLowerCase();
      for (const h of ['content-type', 'mcp-protocol-version', 'mcp-session-id'])
        expect(allowed).toContain(h);
    }
    // The one token of this client's minute is still there after four preflights.
    const res = await postJson(limitedApp, '/api/gate', examples.gate, { origin: 'https://example.org' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(String(res.headers['access-control-expose-headers'])).toContain('Server-Timing');
    const limited = await postJson(limitedApp, '/api/gate', examples.gate);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['access-control-allow-origin']).toBe('*');
  });

  it('puts the security headers and a strict CSP on every response, errors included', async () => {
    for (const res of [
      await app.inject('/api/health'),
      await app.inject('/nowhere'),
      await postJson(app, '/api/memory', '{'),
      await app.inject('/llms.txt'),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
    expect((await app.inject('/nowhere')).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('caches catalog, examples, openapi and llms.txt publicly and never tool answers or health', async () => {
    for (const url of ['/api/catalog', '/api/examples', '/openapi.json', '/llms.txt']) {
      const res = await app.inject(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=300');
    }
    expect((await app.inject('/api/health')).headers['cache-control']).toBe('no-store');
    expect((await postJson(app, '/api/replay', examples.replay)).headers['cache-control']).toBe('no-store');
  });

  it('answers HEAD wherever GET answers, with no body', async () => {
    for (const url of [
      '/api/catalog',
      '/api/examples',
      '/api/health',
      '/api/stats',
      '/openapi.json',
      '/llms.txt',
    ]) {
      const res = await app.inject({ method: 'HEAD', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe('');
      expect(res.headers['content-type']).toBeTruthy();
    }
  });

  it('times the phases of a tool answer in Server-Timing', async () => {
    const res = await postJson(app, '/api/safepatch', examples.safepatch);
    expect(res.statusCode).toBe(200);
    const phases = String(res.headers['server-timing'])
      .split(',')
      .map((p) => p.trim().split(';')[0]);
    expect(phases).toEqual(['queue', 'parse', 'validate', 'run', 'seal']);
    expect(res.headers['server-timing']).toMatch(/run;dur=\d+\.\d\d/);
  });

  it('serves /llms.txt naming every tool endpoint and the examples', async () => {
    const res = await app.inject('/llms.txt');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const catalog = (await app.inject('/api/catalog')).json();
    for (const t of catalog.tools) expect(res.body).toContain(`POST ${t.endpoint}`);
    expect(res.body).toContain('/api/examples');
    expect(res.body).toContain('/mcp');
  });
});

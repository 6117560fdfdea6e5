/**
 * The published OpenAPI documents are valid OpenAPI 3.1 and list every route the app serves.
 * Only the eval service publishes one (/openapi.json); music-api has no OpenAPI document yet.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvalApp } from './helpers/eval-app.js';

/** Routes not meant for the API document: the document itself and Prometheus' text format. */
// /mcp speaks JSON-RPC (described by /.well-known/mcp.json, itself a discovery document); its
// other methods only answer 405.
const NOT_DOCUMENTED = new Set([
  'GET /openapi.json',
  'GET /metrics',
  'GET /.well-known/mcp.json',
  // Discovery files generated from this document, the catalog and the MCP tool list.
  'GET /mcp.json',
  'GET /skill.md',
  'GET /for-agents',
  'GET /robots.txt',
  'GET /sitemap.xml',
  'GET /llms-full.txt',
  'POST /mcp',
  'GET /mcp',
  'PUT /mcp',
  'PATCH /mcp',
  'DELETE /mcp',
  // The workbench's pages and files (HTML and assets, not API operations).
  'GET /',
  'GET /tools/{tool}',
  'GET /report-card',
  'GET /leaderboard',
  'GET /favicon.svg',
  // /assets/* (hashed files): fastify's route tree prints the wildcard under the root.
  'GET /*',
]);

/** "METHOD /path" of every route, read from fastify's route tree (HEAD twins left out). */
function registeredRoutes(app: FastifyInstance): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = (m[1] ?? '').length / 4;
    const path = (stack[depth - 1] ?? '') + (m[2] ?? '');
    stack[depth] = path;
    stack.length = depth + 1;
    // fastify's ":name" parameters are OpenAPI's "{name}".
    for (const method of (m[3] ?? '').split(', ').filter((x) => x && x !== 'HEAD'))
      routes.push(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
  }
  return routes;
}

describe('OpenAPI', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await makeEvalApp();
    await app.ready();
  });
  afterAll(async () => app.close());

  it('eval /openapi.json validates against the OpenAPI 3.1 schema', async () => {
    const spec = (await app.inject('/openapi.json')).json<Record<string, unknown>>();
    const validator = new Validator();
    const result = await validator.validate(spec);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('the validator refuses a broken document (the check can fail)', async () => {
    const spec = (await app.inject('/openapi.json')).json<{ paths: Record<string, unknown> }>();
    spec.paths['/api/gate'] = { post: { responses: 'none' } };
    expect((await new Validator().validate(spec)).valid).toBe(false);
  });

  it('every route eval registers is in its document, and the document names no other', async () => {
    const spec = (await app.inject('/openapi.json')).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const documented = Object.entries(spec.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const registered = registeredRoutes(app);
    expect(registered).toContain('POST /api/health-report');
    expect(registered.length).toBeGreaterThan(10);
    expect(registered.filter((r) => !NOT_DOCUMENTED.has(r)).sort()).toEqual([...documented].sort());
  });
});

/* eslint-disable @typescript-eslint/no-explicit-any -- receipts and problems are parsed JSON; tests check their shape */
/** Assertions shared by the per-tool HTTP tests (test/<tool>-http.test.ts). */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { makeEvalApp, postJson } from './eval-app.js';

export interface ToolApp {
  app: FastifyInstance;
  /** GET /api/examples: a valid request per tool id. */
  examples: Record<string, any>;
}

/** The test file's eval app (its own data dir) and its examples: built before its tests, closed after. */
export function useToolApp(): ToolApp {
  const t = {} as ToolApp;
  beforeAll(async () => {
    t.app = await makeEvalApp();
    t.examples = (await t.app.inject('/api/examples')).json().examples;
  });
  afterAll(async () => {
    await t.app?.close();
  });
  return t;
}

/** POSTs `body`, expects 200, returns the parsed receipt. */
export async function postOk(app: FastifyInstance, url: string, body: unknown): Promise<any> {
  const res = await postJson(app, url, body);
  expect(res.statusCode, res.body.slice(0, 400)).toBe(200);
  return res.json();
}

/** POSTs `body`, expects a 400 problem with the examples hint, returns the problem. */
export async function postBad(app: FastifyInstance, url: string, body: unknown): Promise<any> {
  const res = await postJson(app, url, body);
  expect(res.statusCode, res.body.slice(0, 400)).toBe(400);
  expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  const problem = res.json();
  expect(problem.hint).toMatch(/\/api\/examples/);
  return problem;
}

/** A 400 whose errors name `pointer`. */
export async function expect400(
  app: FastifyInstance,
  url: string,
  body: unknown,
  pointer: string,
): Promise<void> {
  const problem = await postBad(app, url, body);
  expect(problem.errors.map((e: { path: string }) => e.path)).toContain(pointer);
}

/** The receipt item with this id. */
export const byId = (receipt: any, id: string): any => receipt.items.find((i: any) => i.item_id === id);

/**
 * The tool's published example answers 200 with `status` through the endpoint its catalog entry
 * names, and the entry and OpenAPI agree with the seed's operationId and path.
 */
export async function expectExampleAnswers(
  app: FastifyInstance,
  id: string,
  entry: { operationId: string; endpoint: string },
  status: string,
): Promise<any> {
  const { examples } = (await app.inject('/api/examples')).json();
  const tools = (await app.inject('/api/catalog')).json().tools;
  expect(tools.find((t: { id: string }) => t.id === id)).toMatchObject(entry);
  const spec = (await app.inject('/openapi.json')).json();
  expect(spec.paths[entry.endpoint].post).toBeTruthy();
  const receipt = await postOk(app, entry.endpoint, examples[id]);
  expect(receipt).toMatchObject({ tool: id, status });
  return receipt;
}

/** A gate request over `n` items with a fixed mix of outcomes. */
export function bigCohort(n: number): {
  baseline: Record<string, boolean>;
  candidate: Record<string, boolean>;
} {
  const baseline: Record<string, boolean> = {};
  const candidate: Record<string, boolean> = {};
  for (let i = 0; i < n; i++) {
    baseline[`item-${i}`] = i % 3 === 0;
    candidate[`item-${i}`] = i % 4 !== 0;
  }
  return { baseline, candidate };
}

/**
 * A tool is its definition: a throw-away tool added to the registry in memory (the module as
 * every surface imports it, with one more entry) shows up in the catalog, the examples, the
 * OpenAPI document, the MCP tool list, batch, the discovery files and the typed client's
 * generated code, with no other file touched.
 */
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateTools, toolOperations } from '../clients/typescript/scripts/generate-types.mjs';
import { buildOpenApi } from '../src/eval/openapi.js';
import type * as Registry from '../src/eval/registry.js';
import { TOOLS } from '../src/eval/registry.js';
import { makeEvalApp, postJson } from './helpers/eval-app.js';

const SCRATCH = vi.hoisted(() => ({ id: 'scratch-echo', path: '/api/scratch-echo' }));

vi.mock('../src/eval/registry.js', async (importOriginal) => {
  const original = await importOriginal<typeof Registry>();
  const { Type } = await import('typebox');
  const { defineTool } = await import('../src/eval/tool-definition.js');
  const scratch = defineTool<{ word: string }>({
    id: SCRATCH.id,
    operationId: 'scratchEcho',
    name: 'Scratch echo',
    method: 'POST',
    path: SCRATCH.path,
    promise: 'Says the word back (a throw-away tool of a test)',
    schema: Type.Object({ word: Type.String({ maxLength: 20 }) }, { additionalProperties: false }),
    example: { word: 'hello' },
    workload: () => ({ word: 'near-the-limit-word' }),
    run: (request) => ({
      status: 'echoed',
      summary: { length: request.word.length },
      decision_path: [{ rule: 'echo', outcome: 'pass', detail: 'said back' }],
      items: [{ item_id: 'w', decision: 'echoed', reasons: [] }],
      result: { word: request.word },
      next_action: 'none',
    }),
    costMsPerKiB: 0.01,
  });
  const tools = [...original.TOOLS, scratch];
  return {
    TOOLS: tools,
    getTool: (id: string) => {
      const tool = tools.find((t) => t.id === id);
      if (!tool) throw new Error(`unknown tool id ${id}`);
      return tool;
    },
  };
});

describe('a throw-away tool, from its definition alone', () => {
  let app: FastifyInstance;
  let mcpTools: { name: string }[];

  beforeAll(async () => {
    app = await makeEvalApp({ EVAL_PUBLIC_URL: 'https://eval.example.org' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const client = new Client({ name: 'tool-descriptor-test', version: '1.0.0' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    mcpTools = (await client.listTools()).tools;
    await client.close();
  });
  afterAll(async () => app?.close());

  it('is in the registry every surface reads', () => {
    expect(TOOLS.map((t) => t.id)).toContain(SCRATCH.id);
  });

  it('is in the catalog and the examples, and its route answers a receipt', async () => {
    const catalog = (await app.inject('/api/catalog')).json<{ tools: { id: string }[] }>();
    expect(catalog.tools.map((t) => t.id)).toEqual(TOOLS.map((t) => t.id));
    const examples = (await app.inject('/api/examples')).json<{ examples: Record<string, unknown> }>();
    expect(examples.examples[SCRATCH.id]).toEqual({ word: 'hello' });
    const res = await postJson(app, SCRATCH.path, { word: 'hi' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ tool: SCRATCH.id, result: { word: 'hi' } });
    const bad = await postJson(app, SCRATCH.path, { word: 'hi', extra: 1 });
    expect(bad.statusCode).toBe(400);
  });

  it('is in the OpenAPI document and the MCP tool list', async () => {
    const spec = (await app.inject('/openapi.json')).json<{ paths: Record<string, { post?: object }> }>();
    expect(spec.paths[SCRATCH.path]?.post).toMatchObject({ operationId: 'scratchEcho' });
    expect(mcpTools.map((t) => t.name)).toContain(SCRATCH.id);
  });

  it('runs in a batch', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/batch',
      payload: JSON.stringify({ id: 'a', tool: SCRATCH.id, request: { word: 'batched' } }) + '\n',
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const line = JSON.parse(res.body.trim().split('\n')[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ id: 'a', receipt: { tool: SCRATCH.id, result: { word: 'batched' } } });
  });

  it.each(['/skill.md', '/for-agents', '/llms-full.txt', '/mcp.json'])('is named by %s', async (url) => {
    const res = await app.inject(url);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(SCRATCH.id);
  });

  it("is a method of the typed client generated from the registry's document", () => {
    const document = buildOpenApi();
    expect(toolOperations(document).map((t) => t.id)).toEqual(TOOLS.map((t) => t.id));
    const generated = generateTools(document);
    expect(generated).toContain(`"${SCRATCH.id}": "${SCRATCH.path}",`);
    expect(generated).toContain(`"${SCRATCH.id}": Schemas["${SCRATCH.id}Request"];`);
    expect(generated).toContain(`scratchEcho(request: ToolRequests["${SCRATCH.id}"], o?: O): Promise<R> {`);
  });
});

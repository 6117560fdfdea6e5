import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportCardWarmed } from '../src/eval/app.js';
import { verifySignedResult } from '../src/eval/report-card/signing.js';
import * as fx from '../src/eval/harness-logs/fixtures.testing.js';
import { makeEvalApp, postJson } from './helpers/eval-app.js';
import { multipartBody } from './helpers/multipart.js';

let app: FastifyInstance;
let base: string;
let client: Client;
let examples: Record<string, unknown>;

const MCP_ACCEPT = { accept: 'application/json, text/event-stream' };

function rpc(method: string, params: unknown, headers: Record<string, string> = {}) {
  return postJson(app, '/mcp', { jsonrpc: '2.0', id: 1, method, params }, { ...MCP_ACCEPT, ...headers });
}

beforeAll(async () => {
  app = await makeEvalApp();
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  examples = (await app.inject('/api/examples')).json().examples;
  client = new Client({ name: 'eval-mcp-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await app.close();
});

describe('MCP over Streamable HTTP with the official SDK client', () => {
  it('initialises and lists the verifier tools in catalog order with the HTTP schemas', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'eval-tools', version: '0.8.0' });
    const { tools } = await client.listTools();
    const catalog = (await app.inject('/api/catalog')).json().tools as { id: string }[];
    expect(tools.slice(0, catalog.length).map((t) => t.name)).toEqual(catalog.map((t) => t.id));
    const spec = (await app.inject('/openapi.json')).json();
    for (const t of catalog) {
      const listed = tools.find((x) => x.name === t.id)!;
      expect(listed.inputSchema).toEqual(spec.components.schemas[`${t.id}Request`]);
    }
  });

  it('calls every verifier with its /api/examples payload and gets the HTTP receipt bytes', async () => {
    const catalog = (await app.inject('/api/catalog')).json().tools as { id: string; endpoint: string }[];
    for (const t of catalog) {
      const http = await postJson(app, t.endpoint, examples[t.id]);
      expect(http.statusCode).toBe(200);
      const result = await client.callTool({
        name: t.id,
        arguments: examples[t.id] as Record<string, unknown>,
      });
      expect(result.isError ?? false, t.id).toBe(false);
      const content = result.content as { type: string; text: string }[];
      expect(content[0]!.text, t.id).toBe(http.body);
      expect(result.structuredContent).toEqual(http.json());
    }
  });

  it('runs the report card as tools after the verifiers: start, then a signed result from submit', async () => {
    const { tools } = await client.listTools();
    expect(tools.slice(8, 10).map((t) => t.name)).toEqual(['report_card_start', 'report_card_submit']);
    await reportCardWarmed(app);
    const started = await client.callTool({
      name: 'report_card_start',
      arguments: { challenge: 'mcp-nonce-1' },
    });
    const session = started.structuredContent as { session_id: string; items: unknown[] };
    expect(session.items).toHaveLength(6);
    const graded = await client.callTool({
      name: 'report_card_submit',
      arguments: { session_id: session.session_id, answers: { 'item-1': 'n >= and' } },
    });
    const { result, signature } = graded.structuredContent as {
      result: { score: { passed: number; total: number } };
      signature: { jws: string; kid: string };
    };
    expect(result.score).toMatchObject({ passed: 0, total: 6 });
    const keys = (await app.inject('/.well-known/receipt-keys.json')).json().keys;
    expect((await verifySignedResult(keys, result, signature as never)).ok).toBe(true);
    const again = await client.callTool({
      name: 'report_card_submit',
      arguments: { session_id: session.session_id, answers: {} },
    });
    expect(again.isError).toBe(true);
    expect(again.structuredContent).toMatchObject({ status: 409 });
  });

  it('runs the open bench as tools with the HTTP schemas: start, then a sealed receipt from submit', async () => {
    const { tools } = await client.listTools();
    const named = (name: string) => tools.find((t) => t.name === name);
    const spec = (await app.inject('/openapi.json')).json();
    expect(named('open_bench_start')?.inputSchema).toEqual(spec.components.schemas.OpenBenchStartRequest);
    expect(named('open_bench_submit')?.inputSchema).toEqual(spec.components.schemas.OpenBenchSubmitRequest);
    const started = await client.callTool({
      name: 'open_bench_start',
      arguments: { challenge: 'mcp-nonce-2' },
    });
    const session = started.structuredContent as {
      session_id: string;
      tasks: { task_id: string; kind: string; instruction: string }[];
    };
    expect(session.tasks).toHaveLength(6);
    const obsolete = session.tasks.find((t) => t.kind === 'delete-file')!;
    const path = /The script (\S+) is obsolete/.exec(obsolete.instruction)![1]!;
    const graded = await client.callTool({
      name: 'open_bench_submit',
      arguments: {
        session_id: session.session_id,
        baseline: {},
        candidate: { [obsolete.task_id]: { deletes: [path] } },
      },
    });
    expect(graded.isError ?? false).toBe(false);
    const receipt = graded.structuredContent as { tool: string; verdict: string; summary: { gains: number } };
    expect(receipt).toMatchObject({ tool: 'open-bench', verdict: 'PASS', summary: { gains: 1 } });
    expect((graded.content as { text: string }[])[0]!.text).toBe(JSON.stringify(receipt));
    const bad = await client.callTool({
      name: 'open_bench_submit',
      arguments: { session_id: session.session_id, baseline: { 'task-9': {} }, candidate: {} },
    });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({ status: 400 });
  });

  it('runs the logs gate as a tool: files as base64 or text, the same receipt as POST /api/gate/logs', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('gate-logs');
    const outcomes = ['1', '2', '3', '4', '5', '6'].map((id) => ({ id, runs: [id === '6'] }));
    const evalZip = fx.inspectEval(outcomes, 'm1');
    const cand = fx.cohortCsv(outcomes.map((o) => ({ ...o, runs: [true] })));
    const exposure = '{"item_id": "1"}\n';
    const called = await client.callTool({
      name: 'gate-logs',
      arguments: {
        baseline: { name: 'base.eval', base64: Buffer.from(evalZip).toString('base64') },
        candidate: { name: 'cand.csv', text: Buffer.from(cand).toString('utf8') },
        exposure: { text: exposure },
      },
    });
    expect(called.isError ?? false).toBe(false);
    // Full: 5 gains, p = 1/32; item 1 exposed: 4 gains, p = 1/16 -> HOLD at alpha 0.05.
    expect(called.structuredContent).toMatchObject({
      tool: 'gate-logs',
      verdict: 'HOLD',
      summary: { gains: 4, p_one_sided: 1 / 16, full: { verdict: 'PASS', gains: 5 } },
    });
    const { payload, headers } = multipartBody([
      { name: 'baseline', value: evalZip, filename: 'base.eval' },
      { name: 'candidate', value: cand, filename: 'cand.csv' },
      { name: 'exposure', value: exposure },
    ]);
    const http = await app.inject({ method: 'POST', url: '/api/gate/logs', payload, headers });
    expect((called.content as { text: string }[])[0]!.text).toBe(http.body);

    const both = await client.callTool({
      name: 'gate-logs',
      arguments: { baseline: { text: 'a', base64: 'YQ==' }, candidate: { text: '{}' } },
    });
    expect(both.isError).toBe(true);
    expect((both.content as { text: string }[])[0]!.text).toMatch(
      /baseline file needs exactly one of text or base64/,
    );
    const notBase64 = await client.callTool({
      name: 'gate-logs',
      arguments: { baseline: { base64: 'not base64!' }, candidate: { text: '{}' } },
    });
    expect(notBase64.structuredContent).toMatchObject({
      status: 400,
      errors: [{ path: '/baseline/base64' }],
    });
  });

  it('answers an invalid call with isError and the problem messages', async () => {
    const result = await client.callTool({ name: 'gate', arguments: { baseline: { a: true } } });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toMatch(/candidate/);
    expect(text).toMatch(/\/api\/examples/);
    expect(result.structuredContent).toMatchObject({ status: 400, code: 'invalid_input' });
  });

  it('refuses an unknown tool with JSON-RPC -32602', async () => {
    await expect(client.callTool({ name: 'no-such-tool', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('serves a client on an older protocol version (2024-11-05, 2025-03-26)', async () => {
    for (const version of ['2024-11-05', '2025-03-26', '2025-06-18']) {
      const init = await rpc('initialize', {
        protocolVersion: version,
        capabilities: {},
        clientInfo: { name: 'old', version: '0' },
      });
      expect(init.statusCode).toBe(200);
      expect(init.json().result.protocolVersion).toBe(version);
      const note = await postJson(
        app,
        '/mcp',
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { ...MCP_ACCEPT, 'mcp-protocol-version': version },
      );
      expect(note.statusCode).toBe(202);
      const call = await rpc(
        'tools/call',
        { name: 'replay', arguments: examples.replay },
        { 'mcp-protocol-version': version },
      );
      expect(call.json().result.content[0].text).toBe(
        (await postJson(app, '/api/replay', examples.replay)).body,
      );
    }
  });

  it('refuses an unknown protocol version with the list of supported ones', async () => {
    const init = await rpc('initialize', {
      protocolVersion: '1999-01-01',
      capabilities: {},
      clientInfo: { name: 'x', version: '0' },
    });
    const error = init.json().error;
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('2025-06-18');
    expect(error.data.supported).toEqual(expect.arrayContaining(['2025-06-18', '2025-03-26', '2024-11-05']));
    const listed = await rpc('tools/list', {}, { 'mcp-protocol-version': '1999-01-01' });
    expect(listed.statusCode).toBe(400);
    expect(listed.json().error.message).toContain('2024-11-05');
  });

  it('answers malformed JSON with a JSON-RPC parse error, GET /mcp with 405 and how to call', async () => {
    const bad = await postJson(app, '/mcp', '{"jsonrpc":', MCP_ACCEPT);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe(-32700);
    const get = await app.inject('/mcp');
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('POST, OPTIONS');
    expect(get.json().error.message).toMatch(/POST JSON-RPC 2\.0 messages to \/mcp/);
  });

  it('publishes a discovery manifest naming the endpoint, versions and tools', async () => {
    const res = await app.inject('/.well-known/mcp.json');
    expect(res.statusCode).toBe(200);
    const manifest = res.json();
    expect(manifest).toMatchObject({
      endpoint: '/mcp',
      transport: { type: 'streamable-http', stateless: true },
    });
    expect(manifest.protocol_versions).toContain('2025-06-18');
    expect(manifest.tools).toEqual((await client.listTools()).tools.map((t) => t.name));
    expect(res.headers['cache-control']).toBe('public, max-age=300');
  });
});

describe('one SDK server shared by every client', () => {
  const init = (version: string, id: string | number) => ({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion: version,
      capabilities: {},
      clientInfo: { name: `c-${version}`, version: '0' },
    },
  });
  const post = (body: unknown, version?: string) =>
    postJson(app, '/mcp', body, { ...MCP_ACCEPT, ...(version ? { 'mcp-protocol-version': version } : {}) });

  it('answers concurrent clients on different protocol versions, all using id 1, each with its own answer', async () => {
    const versions = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
    const http = {
      replay: (await postJson(app, '/api/replay', examples.replay)).body,
      gate: (await postJson(app, '/api/gate', examples.gate)).body,
    };
    const calls = versions.flatMap((version) => [
      post(init(version, 1)).then((res) => ({ kind: 'init', version, res })),
      ...(['replay', 'gate'] as const).map((name) =>
        post(
          { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: examples[name] } },
          version,
        ).then((res) => ({ kind: name, version, res })),
      ),
      post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, version).then((res) => ({
        kind: 'list',
        version,
        res,
      })),
    ]);
    const listed = (await client.listTools()).tools.map((t) => t.name);
    const answers = await Promise.all(calls);
    for (const { kind, version, res } of answers) {
      expect(res.statusCode, `${kind} ${version}`).toBe(200);
      const body = res.json();
      expect(body.id).toBe(1);
      if (kind === 'init') expect(body.result.protocolVersion).toBe(version);
      else if (kind === 'list')
        expect(body.result.tools.map((t: { name: string }) => t.name)).toEqual(listed);
      else expect(body.result.content[0].text, `${kind} ${version}`).toBe(http[kind as 'replay' | 'gate']);
    }
  });

  it('serves two SDK clients at once through the same server', async () => {
    const other = new Client({ name: 'second', version: '1.0.0' });
    await other.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    try {
      const [a, b] = await Promise.all([
        client.callTool({ name: 'replay', arguments: examples.replay as Record<string, unknown> }),
        other.callTool({ name: 'safepatch', arguments: examples.safepatch as Record<string, unknown> }),
      ]);
      expect((a.content as { text: string }[])[0]!.text).toBe(
        (await postJson(app, '/api/replay', examples.replay)).body,
      );
      expect((b.content as { text: string }[])[0]!.text).toBe(
        (await postJson(app, '/api/safepatch', examples.safepatch)).body,
      );
    } finally {
      await other.close();
    }
  });

  it('answers a batch in order, one answer per request (repeated ids too), and ignores its notifications', async () => {
    const res = await post([
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 'a',
        method: 'tools/call',
        params: { name: 'replay', arguments: examples.replay },
      },
      { jsonrpc: '2.0', id: 7, method: 'tools/list' },
    ]);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ id: unknown; result: Record<string, unknown> }[]>();
    expect(body.map((m) => m.id)).toEqual(['a', 'a', 7]);
    expect(body[0]!.result).toEqual({});
    expect(body[1]!.result.structuredContent).toEqual(
      (await postJson(app, '/api/replay', examples.replay)).json(),
    );
    expect((body[2]!.result.tools as { name: string }[]).map((t) => t.name)).toEqual(
      (await client.listTools()).tools.map((t) => t.name),
    );
    const notes = await post([{ jsonrpc: '2.0', method: 'notifications/initialized' }]);
    expect(notes.statusCode).toBe(202);
    expect(notes.body).toBe('');
  });

  it('lets no cancel notification reach another request, whatever id it names', async () => {
    const call = post({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'gate', arguments: examples.gate },
    });
    const cancels = await Promise.all(
      [1, 2, 3, 1000].map((requestId) =>
        post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } }),
      ),
    );
    expect(cancels.map((r) => r.statusCode)).toEqual([202, 202, 202, 202]);
    expect((await call).json().result.content[0].text).toBe(
      (await postJson(app, '/api/gate', examples.gate)).body,
    );
  });

  it('makes the transport checks on every POST: Accept, JSON-RPC shape, lone initialize, batch size', async () => {
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const noAccept = await postJson(app, '/mcp', ping, { accept: 'text/event-stream' });
    expect(noAccept.statusCode).toBe(406);
    expect(noAccept.json().error).toMatchObject({ code: -32000 });
    const notRpc = await post({ id: 1, method: 'ping' });
    expect(notRpc.statusCode).toBe(400);
    expect(notRpc.json().error).toMatchObject({
      code: -32700,
      message: 'Parse error: Invalid JSON-RPC message',
    });
    const twoInits = await post([init('2025-06-18', 1), ping]);
    expect(twoInits.statusCode).toBe(400);
    expect(twoInits.json().error.code).toBe(-32600);
    const tooMany = await post(Array.from({ length: 101 }, (_, i) => ({ ...ping, id: i })));
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.message).toMatch(/Batch must not exceed 100/);
    const badParams = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 3 } });
    expect(badParams.json().error).toMatchObject({ code: -32602 });
    const noMethod = await post({ jsonrpc: '2.0', id: 3, method: 'prompts/list' });
    expect(noMethod.json().error).toEqual({ code: -32601, message: 'Method not found' });
  });
});

/**
 * MCP at the edge (issue 32): nesting past the REST limit is the same clear input error, a
 * foreign Host or Origin is refused (DNS rebinding), a JSON-only client gets JSON, GET is a
 * JSON-RPC 405, text no receipt can hold is the REST 400. Over real sockets, so Host and the peer address are what a client sends.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../src/eval/speed/json-depth.js';
import { makeEvalApp, postJson } from './helpers/eval-app.js';
import { listenLocal, rawRequest } from './helpers/raw-http.js';

let app: FastifyInstance;
let base: string;
const MCP_ACCEPT = 'application/json, text/event-stream';
const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

function mcp(body: string | Buffer, headers: Record<string, string> = {}) {
  return rawRequest(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, ...headers },
    body,
  });
}

beforeAll(async () => {
  app = await makeEvalApp({ EVAL_PUBLIC_URL: 'https://eval.example.org' });
  base = await listenLocal(app);
});
afterAll(async () => {
  await app.close();
});

describe('MCP nesting limit', () => {
  const exam = (extra: string) => `{"exam":[{"item_id":"a","prompt":"x y z","extra":${extra}}]}`;
  const call = (id: number, args: string) =>
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"leakage","arguments":${args}}}`;
  const wording = new RegExp(
    String.raw`^The request body nests arrays/objects too deeply to process \(level ${MAX_JSON_DEPTH + 1} starts at character \d+\); keep nesting under ${MAX_JSON_DEPTH} levels\.$`,
  );

  it('answers 5000-deep tool arguments with -32602 and the message REST gives', async () => {
    // REST finds the depth when walking the body overflows the stack (20,000 levels does).
    const rest = await postJson(app, '/api/leakage', exam('['.repeat(20000) + ']'.repeat(20000)));
    expect(rest.statusCode).toBe(400);
    expect(rest.json().detail).toMatch(wording);
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const res = await mcp(call(7, exam(deep)));
    expect(res.status).toBe(200);
    const { id, error } = res.json() as { id: number; error: { code: number; message: string } };
    expect(id).toBe(7);
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(wording);
    // In a batch too, and the offset is where the level past the limit opens in the POST body.
    const batch = `[${call(9, exam(deep))}]`;
    const inBatch = (await mcp(batch)).json() as { id: number; error: { code: number; message: string } };
    expect(inBatch).toMatchObject({ id: 9, error: { code: -32602 } });
    const at = Number(/character (\d+)/.exec(inBatch.error.message)![1]);
    const opensBefore = batch.slice(0, at).replace(/[^[{]/g, '').length;
    expect(batch[at]).toBe('[');
    expect(opensBefore - 3).toBe(MAX_JSON_DEPTH); // less the batch, message and params: level 65 of the arguments
  });

  it('still runs arguments nested just under the limit', async () => {
    const nested = '['.repeat(MAX_JSON_DEPTH - 3) + ']'.repeat(MAX_JSON_DEPTH - 3);
    const res = await mcp(call(8, exam(nested)));
    expect(res.status).toBe(200);
    const body = res.json() as { result?: { isError?: boolean }; error?: unknown };
    expect(body.error).toBeUndefined();
    expect(body.result?.isError ?? false).toBe(false);
  });
});

describe('MCP text a receipt cannot hold', () => {
  it('answers a lone surrogate in tool arguments with the 400 problem REST gives, naming path and code point', async () => {
    const args = String.raw`{"baseline":{"a":true},"candidate":{"a":true},"baseline_name":"b\ud800"}`;
    const rest = await postJson(app, '/api/gate', args);
    expect(rest.statusCode).toBe(400);
    const res = await mcp(
      `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"gate","arguments":${args}}}`,
    );
    const { result } = res.json() as { result: { isError: boolean; structuredContent: unknown } };
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      status: 400,
      errors: [{ path: '/baseline_name', message: expect.stringContaining('U+D800') }],
    });
    expect(result.structuredContent).toMatchObject({ detail: rest.json().detail });
  });
});

describe('MCP DNS-rebinding protection', () => {
  it('refuses a foreign Host with 403 and a JSON-RPC error', async () => {
    const res = await mcp(ping, { host: 'attacker.example' });
    expect(res.status).toBe(403);
    expect(res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    expect((res.json() as { error: { message: string } }).error.message).toMatch(
      /invalid Host .*addressed to eval\.example\.org \(the host of EVAL_PUBLIC_URL\)/,
    );
  });

  it('refuses a foreign Origin with 403 and a JSON-RPC error, even with a good Host', async () => {
    const res = await mcp(ping, { origin: 'https://attacker.example' });
    expect(res.status).toBe(403);
    expect((res.json() as { error: { code: number; message: string } }).error).toMatchObject({
      code: -32000,
      message: expect.stringMatching(/Origin/),
    });
    const rebound = await mcp(ping, {
      host: 'attacker.example:8080',
      origin: 'http://attacker.example:8080',
    });
    expect(rebound.status).toBe(403);
  });

  it('accepts the configured public host and origin, and loopback names from a loopback peer', async () => {
    expect((await mcp(ping, { host: 'eval.example.org', origin: 'https://eval.example.org' })).status).toBe(
      200,
    );
    expect((await mcp(ping)).status).toBe(200); // Host 127.0.0.1:port, no Origin
    expect((await mcp(ping, { host: 'localhost:3000', origin: 'http://localhost:3000' })).status).toBe(200);
    expect((await mcp(ping, { host: '[::1]:8080' })).status).toBe(200);
  });

  it('keeps CORS on the REST API for any origin (the workbench and other pages)', async () => {
    const res = await rawRequest(`${base}/api/catalog`, { headers: { origin: 'https://attacker.example' } });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('MCP body encoding', () => {
  it('refuses invalid UTF-8 with 400 and JSON-RPC -32700, as REST refuses it with 400', async () => {
    // A lone continuation byte inside a string: a replacing decoder would run "x\uFFFD".
    const bytes = (json: string) => Buffer.from(json.replace('BAD', '\uFFFD'), 'utf8');
    const bad = (json: string) => {
      const at = json.indexOf('BAD');
      return Buffer.concat([
        Buffer.from(json.slice(0, at)),
        Buffer.from([0x80]),
        Buffer.from(json.slice(at + 3)),
      ]);
    };
    const call =
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"leakage","arguments":{"exam":[{"item_id":"xBAD","prompt":"x y z"}]}}}';
    const res = await mcp(bad(call));
    expect(res.status).toBe(400);
    const body = res.json() as { id: unknown; error: { code: number; message: string } };
    expect(body.id).toBeNull();
    expect(body.error.code).toBe(-32700);
    expect(body.error.message).toMatch(/^Parse error: The request body is not valid UTF-8/);
    const rest = await rawRequest(`${base}/api/leakage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bad('{"exam":[{"item_id":"xBAD","prompt":"x y z"}]}'),
    });
    expect(rest.status).toBe(400);
    // The same message in valid UTF-8 (U+FFFD itself) is run.
    expect((await mcp(bytes(call))).status).toBe(200);
  });
});

describe('MCP content negotiation', () => {
  it('answers a client that accepts only application/json (or anything) with JSON', async () => {
    for (const accept of ['application/json', '*/*', 'application/*;q=0.9']) {
      const res = await mcp(ping, { accept });
      expect(res.status, accept).toBe(200);
      expect(res.headers['content-type'], accept).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    }
    const none = await rawRequest(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: ping,
    });
    expect(none.status).toBe(200);
  });

  it('refuses with 406 a client that cannot take JSON', async () => {
    for (const accept of ['text/event-stream', 'application/json;q=0, text/event-stream']) {
      const res = await mcp(ping, { accept });
      expect(res.status, accept).toBe(406);
      expect((res.json() as { error: { code: number; message: string } }).error.message).toMatch(
        /application\/json/,
      );
    }
  });

  it('answers GET /mcp with 405, Allow and a JSON-RPC error saying how to call it', async () => {
    const res = await rawRequest(`${base}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST, OPTIONS');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json() as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    expect(body.error.message).toMatch(/POST JSON-RPC 2\.0 messages to \/mcp/);
  });
});

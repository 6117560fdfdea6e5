import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { makeEvalApp, postJson } from './helpers/eval-app.js';

const MCP_ACCEPT = { accept: 'application/json, text/event-stream' };

describe('rate limits count the tool calls of a batch', () => {
  it('charges each tools/call of a batch to the bucket single calls use, refusing those past it', async () => {
    const limited = await makeEvalApp({
      RATE_LIMITS: 'on',
      EVAL_RATE_LIMIT_PER_MINUTE: '6',
      EVAL_RATE_LIMIT_BURST: '4',
    });
    const examples = (await limited.inject('/api/examples')).json().examples as Record<string, unknown>;
    const url = new URL(`${await limited.listen({ port: 0, host: '127.0.0.1' })}/mcp`);
    const transport = new StreamableHTTPClientTransport(url);
    const caller = new Client({ name: 'limited', version: '1.0.0' });
    try {
      const answers: JSONRPCMessage[] = [];
      transport.onmessage = (message) => answers.push(message);
      await transport.start();
      const call = (id: number): JSONRPCMessage => ({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'gate', arguments: examples.gate as Record<string, unknown> },
      });
      // Eight calls in one POST, a ping among them: the bucket holds five (burst 4 + 1).
      await transport.send([
        call(1),
        call(2),
        { jsonrpc: '2.0', id: 'p', method: 'ping' },
        ...[3, 4, 5, 6, 7, 8].map(call),
      ]);
      const byId = new Map(answers.map((a) => ['id' in a ? a.id : undefined, a]));
      expect(byId.get('p')).toMatchObject({ result: {} });
      const ran = [1, 2, 3, 4, 5].map((id) => byId.get(id) as { result?: { isError?: boolean } });
      expect(ran.every((a) => a.result !== undefined && a.result.isError !== true)).toBe(true);
      for (const id of [6, 7, 8]) {
        const { error } = byId.get(id) as {
          error: { code: number; message: string; data: Record<string, unknown> };
        };
        expect(error.code).toBe(-32000);
        expect(error.message).toMatch(
          /Rate limit of the "tools" scope exceeded .*tools\/call.*; retry in \d+ s\./,
        );
        expect(error.data.status).toBe(429);
        expect(error.data.retry_after_seconds).toBeGreaterThanOrEqual(1);
      }
      // The bucket is empty: the SDK client's next POST (its initialize) meets the 429, as a single call does.
      await expect(caller.connect(new StreamableHTTPClientTransport(url))).rejects.toMatchObject({
        code: 429,
        message: expect.stringMatching(/Rate limit of the \\"tools\\" scope exceeded/),
      });
      const single = await postJson(limited, '/mcp', call(9), MCP_ACCEPT);
      expect(single.statusCode).toBe(429);
      expect(Number(single.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    } finally {
      await transport.close();
      await caller.close();
      await limited.close();
    }
  });
});

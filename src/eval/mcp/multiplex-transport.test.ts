import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { MultiplexTransport } from './multiplex-transport.js';

async function connected() {
  const transport = new MultiplexTransport<string>();
  const server = new Server({ name: 't', version: '0' }, { capabilities: { tools: {} } });
  const seen: unknown[] = [];
  server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => {
    seen.push(extra.requestId, transport.contextOf(extra.requestId));
    return { tools: [] };
  });
  await server.connect(transport);
  return { transport, seen };
}

describe('the transport multiplexing HTTP requests onto one SDK server', () => {
  it('hands the server its own id and the caller back its id, with the context of the call', async () => {
    const { transport, seen } = await connected();
    const [a, b] = await Promise.all([
      transport.request({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, 'first'),
      transport.request({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, 'second'),
    ]);
    expect(a).toEqual({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
    expect(b).toEqual({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
    expect(seen).toEqual([1, 'first', 2, 'second']);
    expect(transport.inFlight).toBe(0);
  });

  it('restores string ids and answers an error with the client id', async () => {
    const { transport } = await connected();
    const answer = await transport.request({ jsonrpc: '2.0', id: 'x-9', method: 'no/such' }, 'c');
    expect(answer).toEqual({
      jsonrpc: '2.0',
      id: 'x-9',
      error: { code: -32601, message: 'Method not found' },
    });
    expect(transport.inFlight).toBe(0);
  });

  it('drops what the server sends that answers no pending request', async () => {
    const { transport } = await connected();
    await transport.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await transport.send({ jsonrpc: '2.0', id: 42, result: {} });
    expect(transport.inFlight).toBe(0);
  });

  it('answers a request in flight when the server closes, and one sent after', async () => {
    const transport = new MultiplexTransport<string>();
    const server = new Server({ name: 't', version: '0' }, { capabilities: { tools: {} } });
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    // A handler that never finishes: only the close can answer its caller.
    server.setRequestHandler(CallToolRequestSchema, () => {
      started();
      return new Promise(() => undefined);
    });
    await server.connect(transport);
    const call = transport.request(
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'x', arguments: {} } },
      'c',
    );
    await running;
    await server.close();
    const closed = { jsonrpc: '2.0', error: { code: -32000, message: 'The server is closing.' } };
    expect(await call).toEqual({ ...closed, id: 7 });
    expect(await transport.request({ jsonrpc: '2.0', id: 8, method: 'tools/list' }, 'c')).toEqual({
      ...closed,
      id: 8,
    });
    expect(transport.inFlight).toBe(0);
  });
});

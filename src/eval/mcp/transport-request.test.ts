import { describe, expect, it } from 'vitest';
import { TransportRequests } from './transport-request.js';

const client = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

describe('the Request handed to the MCP transport', () => {
  it('carries only the forwarded headers and is shared by calls with the same values', () => {
    const requests = new TransportRequests();
    const a = requests.for({ ...client, cookie: 'x=1', 'x-other': 'y' });
    expect(a.method).toBe('POST');
    expect([...a.headers.keys()].sort()).toEqual(['accept', 'content-type', 'mcp-protocol-version']);
    expect(a.headers.get('mcp-protocol-version')).toBe('2025-06-18');
    expect(requests.for({ ...client, cookie: 'x=2' })).toBe(a);
  });

  it('builds a separate one when any forwarded value differs', () => {
    const requests = new TransportRequests();
    const a = requests.for(client);
    const b = requests.for({ ...client, 'mcp-protocol-version': '2025-03-26' });
    const c = requests.for({ ...client, 'mcp-session-id': 'abc' });
    expect(new Set([a, b, c]).size).toBe(3);
    expect(b.headers.get('mcp-protocol-version')).toBe('2025-03-26');
    expect(c.headers.get('mcp-session-id')).toBe('abc');
  });

  it('keeps at most 64, dropping the oldest, and never keeps an oversized set', () => {
    const requests = new TransportRequests();
    const first = requests.for({ ...client, 'mcp-session-id': 's0' });
    for (let i = 1; i <= 100; i++) requests.for({ ...client, 'mcp-session-id': `s${i}` });
    expect(requests.size).toBe(64);
    expect(requests.for({ ...client, 'mcp-session-id': 's100' })).toBe(
      requests.for({ ...client, 'mcp-session-id': 's100' }),
    );
    expect(requests.for({ ...client, 'mcp-session-id': 's0' })).not.toBe(first);
    const long = { ...client, 'last-event-id': 'e'.repeat(2000) };
    expect(requests.for(long)).not.toBe(requests.for(long));
  });
});

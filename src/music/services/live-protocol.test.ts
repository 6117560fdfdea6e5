import { describe, expect, it } from 'vitest';
import { wireText } from '../repositories/event-stream-repository.js';
import { compareIds, excerpt } from './live-events.js';
import { parseClientMessage } from './live-protocol.js';

describe('live protocol', () => {
  it('parses the two client messages and nothing else', () => {
    expect(parseClientMessage('{"type":"hello","v":1}')).toEqual({ ok: true, message: { type: 'hello' } });
    expect(parseClientMessage('{"type":"hello","v":1,"token":"a.b.c","last_id":"12-3"}')).toEqual({
      ok: true,
      message: { type: 'hello', token: 'a.b.c', lastId: '12-3' },
    });
    expect(parseClientMessage('{"type":"ping","v":1}')).toEqual({ ok: true, message: { type: 'ping' } });
    for (const bad of [
      '',
      'null',
      '"hello"',
      '{"type":"hello","v":2}',
      '{"type":"hello","v":"1"}',
      '{"type":"ping","v":1,"x":1}',
      '{"type":"hello","v":1,"token":""}',
      '{"type":"hello","v":1,"token":7}',
      '{"type":"hello","v":1,"last_id":"12"}',
      '{"type":"hello","v":1,"last_id":"1234567890123456-0"}',
      '{"type":"hello","v":1,"__proto__":{}}',
    ])
      expect(parseClientMessage(bad).ok, bad).toBe(false);
  });

  it('orders stream ids numerically, not as text', () => {
    expect(compareIds('9-0', '10-0')).toBeLessThan(0);
    expect(compareIds('10-2', '10-10')).toBeLessThan(0);
    expect(compareIds('10-10', '10-10')).toBe(0);
    expect(compareIds('11-0', '10-99')).toBeGreaterThan(0);
  });

  it('builds the wire text from the stored JSON without parsing it', () => {
    const text = wireText(
      '1764160000000-4',
      '{"type":"version.ready","data":{"track_id":"t","version_id":"v"}}',
    );
    expect(JSON.parse(text)).toEqual({
      v: 1,
      id: '1764160000000-4',
      at: '2025-11-26T12:26:40.000Z',
      type: 'version.ready',
      data: { track_id: 't', version_id: 'v' },
    });
  });

  it('cuts excerpts on characters, not UTF-16 halves', () => {
    expect(excerpt('short')).toBe('short');
    const long = '🎵'.repeat(300);
    expect(Array.from(excerpt(long))).toHaveLength(280);
    expect(excerpt(long).endsWith('…')).toBe(true);
  });
});

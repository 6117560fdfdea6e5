/** What the native canonicaliser refuses (null), as JSON.parse and the reference do (canonical-native.test.ts). */
import { describe, expect, it } from 'vitest';
import { nativeHarness, reference } from './canonical-native.testing.js';

const harness = nativeHarness();

describe.skipIf(harness === null)('native canonical JSON: refusals', () => {
  const { run } = harness!;
  const bytes = (...b: number[]): Uint8Array => Uint8Array.from(b);
  it('returns null for invalid UTF-8 anywhere', () => {
    const q = 0x22;
    for (const bad of [
      bytes(q, 0x80, q),
      bytes(q, 0xc0, 0xaf, q), // overlong '/'
      bytes(q, 0xe0, 0x80, 0xaf, q), // overlong
      bytes(q, 0xed, 0xa0, 0x80, q), // an encoded surrogate
      bytes(q, 0xf4, 0x90, 0x80, 0x80, q), // above U+10FFFF
      bytes(q, 0xf5, 0x80, 0x80, 0x80, q),
      bytes(q, 0xe2, 0x82, q), // truncated
      bytes(q, 0xe2, 0x82),
      bytes(0xff),
      bytes(0x5b, 0xc3, 0xa9, 0x5d), // non-ASCII outside a string
    ])
      expect(run(bad), Buffer.from(bad).toString('hex')).toBeNull();
    expect(run(bytes(q, 0xe2, 0x82, 0xac, q))).toBe('"€"');
    expect(run(bytes(q, 0xf0, 0x9f, 0x98, 0x80, q))).toBe('"\u{1f600}"');
  });

  it('returns null for anything that is not RFC 8259 JSON', () => {
    for (const text of [
      '',
      ' \n',
      '{"a":1',
      '[1,2',
      '"abc',
      '{"a":1}x',
      '[1] [2]',
      '[1,]',
      '{"a":1,}',
      '{a:1}',
      "{'a':1}",
      '01',
      '-',
      '1.',
      '.5',
      '+1',
      '1e',
      '1e+',
      '0x10',
      'NaN',
      'Infinity',
      'tru',
      'nul',
      'True',
      '"\u0001"',
      '"\\x41"',
      '"\\u12G4"',
      '"\\u12"',
      '"\\',
      '/* c */ 1',
      '\u00a01',
      '\ufeff\ufeff1',
      '{"a" 1}',
      '[1 2]',
    ]) {
      expect(() => JSON.parse(text), text).toThrow();
      expect(run(text), text).toBeNull();
    }
  });

  it('returns null for numbers that overflow a double, but not for ones that underflow', () => {
    for (const text of ['1e400', '-1e400', '[1.8e308]', '{"a":17976931348623159e292}', '1' + '0'.repeat(309)])
      expect(run(text), text).toBeNull();
    for (const text of [
      '1e-400',
      '-1e-400',
      '0.' + '0'.repeat(400) + '1',
      '2e-324',
      '3e-324',
      '0e99999',
      '-0e-99999',
    ]) {
      expect(run(text), text).toBe(reference(text));
    }
    expect(run('1.7976931348623157e308')).toBe('1.7976931348623157e+308');
    expect(run('1' + '0'.repeat(308))).toBe('1e+308');
  });

  it('accepts nesting up to 1000 levels and refuses 1001', () => {
    for (const [open, close] of [
      ['[', ']'],
      ['{"k":', '}'],
    ] as const) {
      const ok = open.repeat(1000) + '0' + close.repeat(1000);
      expect(run(ok)).toBe(reference(ok));
      expect(run(open.repeat(1001) + '0' + close.repeat(1001))).toBeNull();
    }
    const mixed = '[{"a":'.repeat(500) + '[]' + '}]'.repeat(500); // 1001 levels
    expect(run(mixed)).toBeNull();
  });

  it('skips one leading BOM and surrounding whitespace, as TextDecoder and JSON.parse do', () => {
    expect(run(bytes(0xef, 0xbb, 0xbf, 0x31))).toBe('1');
    expect(run(bytes(0xef, 0xbb, 0xbf, 0x20, 0x5b, 0x5d, 0x0a))).toBe('[]');
    expect(run(bytes(0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x31))).toBeNull();
    expect(run(bytes(0x20, 0xef, 0xbb, 0xbf, 0x31))).toBeNull();
    expect(run(' \t\r\n{ "b" : [ 1 , 2 ] , "a" : { } }\n\r\t ')).toBe('{"a":{},"b":[1,2]}');
    // A view into the middle of a larger buffer reads only its own bytes.
    const whole = Uint8Array.from(Buffer.from('xx[1]yy'));
    expect(run(new Uint8Array(whole.buffer, 2, 3))).toBe('[1]');
  });
});

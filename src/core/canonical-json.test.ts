import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalSha256 } from './canonical-json.js';
import { APPENDIX_B_NUMBERS, doubleFromHex } from './rfc8785.testing.js';

describe('RFC 8785 canonical JSON', () => {
  it('serialises the RFC section 3.2.2 sample exactly', () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
        '"string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",' +
        '"literals": [null, true, false]}',
    );
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts keys by UTF-16 code units, including non-ASCII and surrogate pairs (section 3.2.3)', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    expect(canonicalJson(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it('formats every number of Appendix B as the RFC says', () => {
    for (const [hex, text] of APPENDIX_B_NUMBERS) expect(canonicalJson(doubleFromHex(hex)), hex).toBe(text);
  });

  it('rejects NaN and Infinity instead of writing null', () => {
    expect(() => canonicalJson({ a: NaN })).toThrow(/non-finite/);
    expect(() => canonicalJson([Infinity])).toThrow(/non-finite/);
    expect(() => canonicalJson(-Infinity)).toThrow(/non-finite/);
  });

  it('agrees with the RFC author’s reference package on varied data', () => {
    let seed = 7;
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const make = (depth: number): unknown => {
      const r = rnd();
      if (depth > 3 || r < 0.3) {
        const k = Math.floor(rnd() * 5);
        return [rnd() * 1e6 - 5e5, 'ünï\u2028"\\x', true, null, Math.floor(rnd() * 1e9)][k];
      }
      if (r < 0.6) return Array.from({ length: Math.floor(rnd() * 4) }, () => make(depth + 1));
      const o: Record<string, unknown> = {};
      for (let i = 0; i < 4; i++) o[String.fromCharCode(32 + Math.floor(rnd() * 9000)) + i] = make(depth + 1);
      return o;
    };
    for (let i = 0; i < 200; i++) {
      const v = make(0);
      expect(canonicalJson(v)).toBe((canonicalize as unknown as (x: unknown) => string)(v));
    }
  });

  it('hashes equal values equally whatever their key order', () => {
    expect(canonicalSha256({ b: 1, a: [1, { y: 2, x: 3 }] })).toBe(
      canonicalSha256({ a: [1, { x: 3, y: 2 }], b: 1 }),
    );
    expect(canonicalSha256({ a: 1 })).not.toBe(canonicalSha256({ a: 2 }));
  });
});

describe('keys that name Object.prototype members', () => {
  it('keeps "__proto__" as an ordinary key, sorted like any other', () => {
    const value = JSON.parse('{"z":1,"__proto__":{"b":2,"a":1},"constructor":3}') as unknown;
    expect(canonicalJson(value)).toBe('{"__proto__":{"a":1,"b":2},"constructor":3,"z":1}');
    const a = JSON.parse('{"m":{"z":true,"__proto__":true}}') as unknown;
    const b = JSON.parse('{"m":{"z":true,"__proto__":false}}') as unknown;
    expect(canonicalSha256(a)).not.toBe(canonicalSha256(b));
  });
});

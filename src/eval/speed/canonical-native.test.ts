/**
 * The native canonicaliser against the TypeScript reference: for every input it accepts, its
 * bytes must equal canonicalJson(JSON.parse(text)) with the plan's defaults applied; it must
 * refuse (null) whatever JSON.parse or the reference would reject. When the addon is not built
 * these tests are skipped only on a developer's machine: under CI the availability test fails.
 */
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../core/canonical-json.js';
import { APPENDIX_B_NUMBERS, doubleFromHex } from '../../core/rfc8785.testing.js';
import { lcg } from '../math/lcg.testing.js';
import { nativeCanonicalRequired } from './addons-promised.testing.js';
import { nativeCanonicalReason, nativeCanonicalizer } from './canonical-native.js';
import {
  DocGenerator,
  hasOverflowingNumber,
  nativeHarness,
  referenceOrNull,
} from './canonical-native.testing.js';

const native = nativeCanonicalizer();
const required = nativeCanonicalRequired();

it('the native canonicaliser is available when CI is set', () => {
  if (required)
    expect(
      native,
      `${nativeCanonicalReason()}; CI requires the addon (make test builds it), so these tests cannot be skipped`,
    ).not.toBeNull();
  else expect(typeof nativeCanonicalReason()).toBe('string');
});

it('requires the addon exactly when CI is set and not false or 0', () => {
  expect(nativeCanonicalRequired({})).toBe(false);
  expect(nativeCanonicalRequired({ CI: '' })).toBe(false);
  expect(nativeCanonicalRequired({ CI: 'false' })).toBe(false);
  expect(nativeCanonicalRequired({ CI: ' FALSE ' })).toBe(false);
  expect(nativeCanonicalRequired({ CI: '0' })).toBe(false);
  expect(nativeCanonicalRequired({ CI: 'true' })).toBe(true);
  expect(nativeCanonicalRequired({ CI: '1' })).toBe(true);
});

const harness = nativeHarness();

describe.skipIf(harness === null)('native canonical JSON = TypeScript canonical JSON', () => {
  const { run, same } = harness!;

  // Fixtures from canonical-json.test.ts (RFC 8785 section 3.2.2, 3.2.3 and Appendix B).
  it('serialises the RFC section 3.2.2 sample exactly', () => {
    const text =
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
      '"string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",' +
      '"literals": [null, true, false]}';
    expect(run(text)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts keys by UTF-16 code units (section 3.2.3)', () => {
    const text =
      '{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh",' +
      '"1":"One","\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control",' +
      '"\\u00f6":"Latin Small Letter O With Diaeresis"}';
    const expected =
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}';
    expect(run(text)).toBe(expected);
    // The same keys written raw rather than escaped.
    expect(run(JSON.stringify(JSON.parse(text)))).toBe(expected);
  });

  it('formats every number of Appendix B as the RFC says, however the input spells it', () => {
    for (const [hex, expected] of APPENDIX_B_NUMBERS) {
      const x = doubleFromHex(hex);
      const spellings = [expected, String(x), x.toPrecision(17), x.toExponential(20), x.toExponential(3)];
      if (Object.is(x, -0)) spellings.push('-0', '-0.0e-5');
      for (const s of spellings) {
        expect(run(s), `${hex} written ${s}`).toBe(referenceOrNull(s));
        if (Number(s) === x) expect(run(s), `${hex} written ${s}`).toBe(expected);
      }
    }
  });

  it('sorts large objects: shuffled, with shared prefixes, duplicates and non-ASCII keys', () => {
    const rnd = lcg(5);
    const keys: string[] = [];
    for (let i = 0; i < 3000; i++) keys.push(`item-${String(i).padStart(5, '0')}`);
    keys.push('item-0000', 'item-00000\u0000', 'item-000000', 'é', '\ue000', '😀', '\ud800', 'item-00007');
    for (let i = keys.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [keys[i], keys[j]] = [keys[j]!, keys[i]!];
    }
    same('{' + keys.map((k, i) => `"${k}":${i}`).join(',') + '}');
  });

  it('matches the reference on a few thousand random documents', () => {
    const gen = new DocGenerator(20240611);
    for (let i = 0; i < 4000; i++) same(gen.document());
  });

  it('matches the reference on random documents with random defaults plans', () => {
    const gen = new DocGenerator(777);
    for (let i = 0; i < 1500; i++) {
      const plan = gen.plan(0);
      const text = gen.document();
      same(text, plan);
    }
  });

  it('refuses exactly what JSON.parse or the reference rejects, on corrupted documents', () => {
    const gen = new DocGenerator(99);
    const rnd = lcg(4242);
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const garbage = [
      0x80, 0xbf, 0xc0, 0xc3, 0xe2, 0xed, 0xf0, 0xf4, 0xf5, 0xff, 0x22, 0x5c, 0x2c, 0x5d, 0x7d, 0x00, 0x45,
    ];
    let accepted = 0;
    for (let i = 0; i < 4000; i++) {
      const bytes = Buffer.from(gen.document(), 'utf8');
      if (bytes.length === 0) continue;
      const flips = 1 + Math.floor(rnd() * 3);
      for (let f = 0; f < flips; f++) {
        const at = Math.floor(rnd() * bytes.length);
        const r = rnd();
        if (r < 0.5) bytes[at] = garbage[Math.floor(rnd() * garbage.length)]!;
        else if (r < 0.8) bytes[at] = Math.floor(rnd() * 256);
        else bytes[at] = bytes[at]! ^ (1 << Math.floor(rnd() * 8));
      }
      let expected: string | null;
      try {
        expected = canonicalJson(JSON.parse(decoder.decode(bytes)));
      } catch {
        expected = null;
      }
      const got = run(bytes);
      if (got === null && expected !== null) expect(hasOverflowingNumber(decoder.decode(bytes))).toBe(true);
      else expect(got, bytes.toString('hex')).toBe(expected);
      if (got !== null) accepted++;
    }
    expect(accepted).toBeGreaterThan(100); // some corruptions stay valid JSON
  });
});

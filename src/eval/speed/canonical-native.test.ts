/**
 * The native canonicaliser against the TypeScript reference: for every input it accepts, its
 * bytes must equal canonicalJson(JSON.parse(text)) with the plan's defaults applied; it must
 * refuse (null) whatever JSON.parse or the reference would reject. When the addon is not built
 * these tests are skipped only on a developer's machine: under CI the availability test fails.
 */
import { describe, expect, it } from 'vitest';
import { lcg } from '../math/lcg.testing.js';
import { nativeCanonicalRequired } from './addons-promised.testing.js';
import { canonicalJson } from '../../core/canonical-json.js';
import { APPENDIX_B_NUMBERS, doubleFromHex } from '../../core/rfc8785.testing.js';
import {
  nativeCanonicalReason,
  nativeCanonicalizer,
  type CompiledPlan,
  type PlanNode,
  type PlanProp,
} from './canonical-native.js';

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

/** The reference: ajv-style defaults on the parsed value, then the TypeScript serializer. */
function applyDefaults(value: unknown, node: PlanNode | undefined): void {
  if (!node || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    if (node.items) for (const v of value) applyDefaults(v, node.items);
    return;
  }
  const obj = value as Record<string, unknown>;
  const props = node.props ?? {};
  for (const key of Object.keys(obj))
    applyDefaults(obj[key], Object.hasOwn(props, key) ? props[key]!.node : node.additional);
  for (const key of Object.keys(props)) {
    const text = props[key]!.default;
    if (text !== undefined && !Object.hasOwn(obj, key))
      Object.defineProperty(obj, key, { value: JSON.parse(text), enumerable: true, writable: true });
  }
}

function reference(text: string, plan?: PlanNode): string {
  const value: unknown = JSON.parse(text);
  applyDefaults(value, plan);
  return canonicalJson(value);
}

/** The reference, or null where it throws (JSON.parse rejects, or a number overflowed). */
function referenceOrNull(text: string, plan?: PlanNode): string | null {
  try {
    return reference(text, plan);
  } catch {
    return null;
  }
}

/** Whether valid JSON text has a number literal beyond the double range (JSON.parse: ±Infinity). */
function hasOverflowingNumber(text: string): boolean {
  const outsideStrings = text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return (outsideStrings.match(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g) ?? []).some(
    (t) => !Number.isFinite(Number(t)),
  );
}

/** Random JSON text with the spellings that matter for canonicalisation. */
class DocGenerator {
  private readonly rnd: () => number;
  constructor(seed: number) {
    this.rnd = lcg(seed);
  }

  private int(n: number): number {
    return Math.floor(this.rnd() * n);
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }

  private ws(): string {
    return this.rnd() < 0.7 ? '' : this.pick([' ', '\t', '\n', '\r', '  ', ' \r\n\t']);
  }

  // Pieces of string text as written in JSON (escapes already escaped).
  private static readonly PIECES = [
    'a',
    'b',
    'Z',
    '0',
    ' ',
    '~',
    '\u007f',
    '\\n',
    '\\u0001',
    '\\u001f',
    '\\"',
    '\\\\',
    '\\/',
    '/',
    '\\b',
    '\\f',
    '\\r',
    '\\t',
    '\\u0041',
    '\\u00e9',
    '\\u00E9',
    'é',
    'ß',
    '€',
    '中',
    '\u2028',
    '\ud7ff',
    '\ue000',
    '\ufb33',
    '\uffff',
    '\ufffd',
    '\\uE000',
    '\\uffff',
    '😀',
    '𝄞',
    '\u{10ffff}',
    '\\ud83d\\ude00',
    '\\uD834\\uDD1E',
    '\\ud83d',
    '\\ude00',
    '\\uD800',
    '\\uDBFF',
    '\\uDC00',
    '\\udfff',
  ];

  private stringBody(maxPieces: number): string {
    let s = '';
    const n = this.int(maxPieces + 1);
    for (let i = 0; i < n; i++) s += this.pick(DocGenerator.PIECES);
    return s;
  }

  // Keys come from few pieces so that duplicates and shared prefixes are common.
  private static readonly KEY_PIECES = [
    'a',
    'b',
    '\\u0061',
    'é',
    '\\u00e9',
    '\ue000',
    '\uffff',
    '😀',
    '\\ud83d',
    '\\ude00',
    '\\uDE00',
    '\\ud800',
    '\\n',
    '__proto__',
    '0',
    '1',
    '\\u0000',
    'a-key-longer-than-16-bytes',
  ];

  key(): string {
    let s = '';
    const n = 1 + this.int(3);
    for (let i = 0; i < n; i++) s += this.pick(DocGenerator.KEY_PIECES);
    return this.rnd() < 0.05 ? '' : s;
  }

  private randomDouble(): number {
    for (;;) {
      const view = new DataView(new ArrayBuffer(8));
      view.setUint32(0, Math.floor(this.rnd() * 2 ** 32));
      view.setUint32(4, Math.floor(this.rnd() * 2 ** 32));
      const x = view.getFloat64(0);
      if (Number.isFinite(x)) return x;
    }
  }

  private digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(this.int(10));
    return s;
  }

  number(): string {
    const r = this.int(16);
    const sign = this.rnd() < 0.3 ? '-' : '';
    switch (r) {
      case 0:
        return String(this.randomDouble());
      case 1:
        return this.randomDouble()
          .toExponential(this.int(21))
          .replace('e', this.pick(['e', 'E']));
      case 2: {
        // Subnormals and the smallest normals.
        const x = this.rnd() * 2.5e-308 * (this.rnd() < 0.5 ? 1 : 1e-15);
        return sign + x.toExponential(this.int(21));
      }
      case 3: // around the 1e21 switch to exponent notation
        return (
          sign + this.pick(['1e21', '1e+21', '999999999999999900000', '1E20', '100000000000000000000']) + ''
        );
      case 4: // around 1e-6 / 1e-7
        return sign + this.pick(['1e-7', '1.5e-7', '0.000001', '0.0000001', '1e-6', '9.99999e-7']);
      case 5:
        return this.pick(['-0', '-0.0', '0', '0.0', '0e5', '-0E-3', '0.000']);
      case 6: // integers beyond 2^53 and long integers
        return sign + String(1 + this.int(9)) + this.digits(15 + this.int(12));
      case 7: // many digits and an exponent
        return (
          sign +
          String(this.int(10)) +
          (this.rnd() < 0.8 ? '.' + this.digits(1 + this.int(40)) : '') +
          this.pick(['e', 'E']) +
          this.pick(['', '+', '-']) +
          this.pick(['0', '00', '7', '022', '300', '308', '-']).replace('-', String(this.int(400)))
        );
      case 8:
        return sign + String(this.int(1000));
      case 9:
        return sign + this.digits(1).replace('0', '1') + this.digits(this.int(15));
      case 10:
        return sign + '0.' + this.digits(1 + this.int(25));
      case 11:
        return String(this.randomDouble().toPrecision(1 + this.int(21)));
      case 12:
        return sign + String(this.int(100)) + 'e' + this.pick(['-', '+', '']) + String(this.int(30));
      case 13:
        return String(Math.floor(this.rnd() * 2 ** 53) * (this.rnd() < 0.5 ? 1 : -1));
      case 14:
        return sign + String(2 ** (this.int(100) - 20));
      default:
        return sign + String(this.rnd() * 10 ** (this.int(40) - 20));
    }
  }

  private value(depth: number): string {
    const r = this.rnd();
    if (depth > 4 || r < 0.45) {
      const k = this.int(6);
      if (k === 0) return this.pick(['true', 'false', 'null']);
      if (k <= 2) return this.number();
      return '"' + this.stringBody(6) + '"';
    }
    if (r < 0.7) {
      const n = this.int(6);
      const items: string[] = [];
      for (let i = 0; i < n; i++) items.push(this.ws() + this.value(depth + 1) + this.ws());
      return '[' + (n ? items.join(',') : this.ws()) + ']';
    }
    // Now and then an object large enough to take the addon's other sorting path (> 16).
    const n = depth < 2 && this.rnd() < 0.15 ? 17 + this.int(40) : this.int(7);
    const members: string[] = [];
    for (let i = 0; i < n; i++)
      members.push(
        this.ws() + '"' + this.key() + '"' + this.ws() + ':' + this.ws() + this.value(depth + 1) + this.ws(),
      );
    return '{' + (n ? members.join(',') : this.ws()) + '}';
  }

  document(): string {
    return this.ws() + this.value(0) + this.ws();
  }

  /** A random plan over the generator's key space; defaults are canonical JSON of random values. */
  plan(depth: number): PlanNode {
    const node: PlanNode = {};
    if (depth > 3) return node;
    if (this.rnd() < 0.8) {
      const props: Record<string, PlanProp> = {};
      const n = this.int(4);
      for (let i = 0; i < n; i++) {
        const key = JSON.parse('"' + this.key() + '"') as string;
        const entry: PlanProp = {};
        if (this.rnd() < 0.6) entry.default = referenceOrNull(this.value(3)) ?? '"overflowed"';
        if (this.rnd() < 0.5) entry.node = this.plan(depth + 1);
        Object.defineProperty(props, key, { value: entry, enumerable: true, writable: true });
      }
      node.props = props;
    }
    if (this.rnd() < 0.4) node.additional = this.plan(depth + 1);
    if (this.rnd() < 0.4) node.items = this.plan(depth + 1);
    return node;
  }
}

describe.skipIf(native === null)('native canonical JSON = TypeScript canonical JSON', () => {
  const { canonicalize, compilePlan } = native!;
  const run = (text: string | Uint8Array, plan?: CompiledPlan): string | null => {
    const out = canonicalize(typeof text === 'string' ? Buffer.from(text, 'utf8') : text, plan);
    return out === null ? null : out.toString('utf8');
  };
  // Equal to the reference, or null where the reference throws. The addon also refuses a
  // document with an overflowing number that a later duplicate key discards (the reference
  // then succeeds); null is allowed there, as the caller falls back to the reference.
  const same = (text: string, plan?: PlanNode): void => {
    const got = run(text, plan ? compilePlan(plan) : undefined);
    const expected = referenceOrNull(text, plan);
    if (got === null && expected !== null) expect(hasOverflowingNumber(text), text).toBe(true);
    else expect(got, text).toBe(expected);
  };

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

  describe('defaults plans', () => {
    it('inserts absent defaults at the top level in sorted place, never overwriting', () => {
      const plan: PlanNode = {
        props: { a: { default: '1' }, m: { default: '{"x":[]}' }, zz: { default: '"z"' }, b: {} },
      };
      const compiled = compilePlan(plan);
      expect(run('{"c":true}', compiled)).toBe('{"a":1,"c":true,"m":{"x":[]},"zz":"z"}');
      expect(run('{}', compiled)).toBe('{"a":1,"m":{"x":[]},"zz":"z"}');
      expect(run('{"m":null,"a":"mine"}', compiled)).toBe('{"a":"mine","m":null,"zz":"z"}');
      expect(run('{"zz":0,"m":1,"a":2}', compiled)).toBe('{"a":2,"m":1,"zz":0}');
      // A plan for objects ignores other values.
      expect(run('[1,{"q":1}]', compiled)).toBe('[1,{"q":1}]');
      expect(run('"text"', compiled)).toBe('"text"');
      for (const text of ['{"c":true}', '{}', '{"m":null,"a":"mine"}', '{"b":{"a":1}}']) same(text, plan);
    });

    it('inserts defaults in nested objects, array items and additional properties', () => {
      const inner: PlanNode = { props: { on: { default: 'false' }, id: {} } };
      const plan: PlanNode = {
        props: {
          config: { node: { props: { level: { default: '3' }, tags: { node: { items: inner } } } } },
          list: { node: { items: inner } },
        },
        additional: { props: { extra: { default: '[1,2]' } } },
      };
      const compiled = compilePlan(plan);
      expect(
        run('{"config":{"tags":[{"id":1},{"on":true}]},"list":[{},7,{"id":"x"}],"z":{},"y":[]}', compiled),
      ).toBe(
        '{"config":{"level":3,"tags":[{"id":1,"on":false},{"on":true}]},"list":[{"on":false},7,{"id":"x","on":false}],"y":[],"z":{"extra":[1,2]}}',
      );
      // `config` is listed in props, so `additional` does not apply to it.
      expect(run('{"config":{}}', compiled)).toBe('{"config":{"level":3}}');
      same('{"config":{"tags":[{"id":1},{"on":true}]},"list":[{},7,{"id":"x"}],"z":{},"y":[]}', plan);
      same('{"z":{"extra":null},"config":[],"list":{}}', plan);
    });

    it('sorts inserted keys by UTF-16 code units and applies plans to duplicate keys', () => {
      const plan: PlanNode = {
        props: {
          '\ufb33': { default: '1' },
          '\ud83d\ude00': { default: '2' },
          '\ud800': { default: '3' },
          é: { default: '4' },
          '\n': { default: '5' },
          d: { node: { props: { k: { default: '0' } } } },
        },
      };
      // An own "__proto__" key, as JSON.parse would make it (an object literal would not).
      Object.defineProperty(plan.props, '__proto__', { value: { default: '6' }, enumerable: true });
      const compiled = compilePlan(plan);
      for (const text of ['{}', '{"a":0,"\\ud800":9}', '{"d":{},"d":{"q":1}}', '{"\\uFB33":null,"zzz":[]}']) {
        expect(run(text, compiled), text).toBe(reference(text, plan));
      }
      expect(run('{}', compiled)).toBe(
        '{"\\n":5,"__proto__":6,"é":4,"\\ud800":3,"\ud83d\ude00":2,"\ufb33":1}',
      );
    });

    it('compiles shared and recursive sub-plans', () => {
      const tree: PlanNode = { props: { kids: {}, label: { default: '""' } } };
      tree.props!.kids!.node = { items: tree };
      same('{"kids":[{"kids":[{}]},{"label":"x","kids":[]}]}', tree);
      expect(run('{"kids":[{"kids":[{}]}]}', compilePlan(tree))).toBe(
        '{"kids":[{"kids":[{"label":""}],"label":""}],"label":""}',
      );
    });

    it('rejects malformed plans with a TypeError', () => {
      const bad: unknown[] = [
        null,
        'x',
        [],
        { prop: {} },
        { props: [] },
        { props: { a: 1 } },
        { props: { a: { default: 1 } } },
        { props: { a: { default: '{ }' } } },
        { props: { a: { default: '{"b":1,"a":2}' } } },
        { props: { a: { default: '1.0' } } },
        { props: { a: { default: 'nope' } } },
        { props: { a: { dflt: '1' } } },
        { props: { a: { node: 'x' } } },
        { items: 5 },
        { additional: [] },
      ];
      for (const plan of bad)
        expect(() => compilePlan(plan as PlanNode), JSON.stringify(plan)).toThrow(TypeError);
      expect(() => canonicalize(Buffer.from('1'), {} as CompiledPlan)).toThrow(TypeError);
      expect(() => canonicalize('1' as unknown as Uint8Array)).toThrow(TypeError);
      expect(() => canonicalize(new Uint16Array(2) as unknown as Uint8Array)).toThrow(TypeError);
    });
  });

  describe('refusals', () => {
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
      for (const text of [
        '1e400',
        '-1e400',
        '[1.8e308]',
        '{"a":17976931348623159e292}',
        '1' + '0'.repeat(309),
      ])
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
});

/** The TypeScript reference, random documents and plans, and the addon under test, for the canonical-native tests. */
import { expect } from 'vitest';
import { canonicalJson } from '../../core/canonical-json.js';
import { lcg } from '../math/lcg.testing.js';
import { nativeCanonicalizer, type CompiledPlan, type PlanNode, type PlanProp } from './canonical-native.js';

/** The reference: ajv-style defaults on the parsed value, then the TypeScript serializer. */
export function applyDefaults(value: unknown, node: PlanNode | undefined): void {
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

export function reference(text: string, plan?: PlanNode): string {
  const value: unknown = JSON.parse(text);
  applyDefaults(value, plan);
  return canonicalJson(value);
}

/** The reference, or null where it throws (JSON.parse rejects, or a number overflowed). */
export function referenceOrNull(text: string, plan?: PlanNode): string | null {
  try {
    return reference(text, plan);
  } catch {
    return null;
  }
}

/** Whether valid JSON text has a number literal beyond the double range (JSON.parse: ±Infinity). */
export function hasOverflowingNumber(text: string): boolean {
  const outsideStrings = text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return (outsideStrings.match(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g) ?? []).some(
    (t) => !Number.isFinite(Number(t)),
  );
}

/** Random JSON text with the spellings that matter for canonicalisation. */
export class DocGenerator {
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

/** The addon with the helpers comparing it to the reference; null when it is not built. */
export function nativeHarness() {
  const native = nativeCanonicalizer();
  if (native === null) return null;
  const { canonicalize, compilePlan } = native;
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
  return { canonicalize, compilePlan, run, same };
}

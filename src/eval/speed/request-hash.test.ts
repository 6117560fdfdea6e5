/**
 * request_sha256 through the native canonicaliser (raw bytes + defaults plan) must equal the
 * TypeScript reference on the validated request, for every tool, with and without the
 * defaults being exercised.
 */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalSha256 } from '../../core/canonical-json.js';
import { nativeCanonicalRequired } from './addons-promised.testing.js';
import { nativeCanonicalizer } from './canonical-native.js';
import { defaultsPlan } from './defaults-plan.js';
import { compileValidator } from '../../core/validation.js';
import { memoryBody, replayBody } from '../../../bench/lib/memory-replay-safepatch-workloads.js';
import { TOOLS, getTool } from '../registry.js';
import { requestSha256 } from './request-hash.js';

const native = nativeCanonicalizer();

type Json = Record<string, unknown>;

/** The example, plus variants that leave out what the schema fills in. */
function variants(id: string, example: Json): Json[] {
  const out: Json[] = [example];
  for (const key of Object.keys(example)) {
    const without = structuredClone(example);
    delete without[key];
    out.push(without);
  }
  const reversed = Object.fromEntries(Object.entries(example).reverse());
  out.push(reversed);
  if (id === 'gate') out.push({ ...example, policy: { min_gains: 2 } });
  if (id === 'memory') {
    const m = structuredClone(example) as { memories: Json[] };
    for (const mem of m.memories) {
      delete mem.confidence;
      delete mem.kind;
    }
    out.push(m);
  }
  if (id === 'replay') {
    const r = structuredClone(example) as { events: Json[] };
    r.events.forEach((e, i) => {
      if (i % 2 === 0) delete e.source;
    });
    out.push(r);
  }
  return out;
}

describe('request hash', () => {
  it('every tool schema has a defaults plan (so every tool can hash natively)', () => {
    for (const tool of TOOLS) expect(defaultsPlan(tool.schema), tool.id).not.toBeNull();
  });

  it('native and TypeScript agree for every tool, defaults exercised, any key order and spacing', () => {
    if (!native) {
      expect(nativeCanonicalRequired(), 'CI requires the native canonicaliser').toBe(false);
      return;
    }
    let checked = 0;
    for (const tool of TOOLS) {
      const validate = compileValidator(tool.schema);
      const plan = native.compilePlan(defaultsPlan(tool.schema)!);
      for (const variant of variants(tool.id, tool.example as Json)) {
        for (const text of [JSON.stringify(variant), JSON.stringify(variant, null, 2)]) {
          if (!validate(JSON.parse(text))) continue; // a removed required field
          const request = validate.assert(JSON.parse(text));
          const bytes = Buffer.from(text);
          const nativeText = native.canonicalize(bytes, plan)?.toString('utf8');
          expect(nativeText, `${tool.id}: ${text.slice(0, 120)}`).toBe(canonicalJson(request));
          expect(requestSha256(tool, bytes, request)).toBe(canonicalSha256(request));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('agrees on the benchmark workloads (5000 events, 1000 memories)', () => {
    for (const [id, text] of [
      ['replay', replayBody()],
      ['memory', memoryBody()],
    ] as const) {
      const tool = getTool(id);
      const request = compileValidator(tool.schema).assert(JSON.parse(text));
      expect(requestSha256(tool, Buffer.from(text), request)).toBe(canonicalSha256(request));
    }
  });

  it('falls back to the parsed request for string input and for bytes the native path declines', () => {
    const tool = getTool('gate');
    const request = compileValidator(tool.schema).assert(structuredClone(tool.example));
    const expected = canonicalSha256(request);
    expect(requestSha256(tool, JSON.stringify(tool.example), request)).toBe(expected);
    // Not what the request was parsed from, and not JSON: only the parsed request can answer.
    expect(requestSha256(tool, Buffer.from('{"baseline": tru'), request)).toBe(expected);
  });
});

describe('defaults plan', () => {
  it('fills nested defaults into an inserted default, as ajv does', () => {
    const plan = defaultsPlan(getTool('gate').schema)!;
    expect(JSON.parse(plan.props!.policy!.default!)).toEqual({
      confidence_alpha: 0.05,
      max_regressions: 0,
      min_gains: 1,
      require_retained_probe: false,
    });
    expect(plan.props!.policy!.node!.props!.min_gains!.default).toBe('1');
    expect(plan.props!.baseline).toBeUndefined();
  });

  it('matches ajv where additionalProperties carries defaults: declared keys are not additional', () => {
    const schema = {
      type: 'object',
      properties: { x: { type: 'object' }, n: { type: 'number', default: 3 } },
      additionalProperties: { type: 'object', properties: { d: { type: 'number', default: 1 } } },
    };
    const plan = defaultsPlan(schema)!;
    expect(plan.props!.x).toEqual({});
    const validate = new Ajv({ strict: false, useDefaults: true }).compile(schema);
    for (const text of ['{"x":{},"y":{}}', '{"y":{"d":5},"x":{"e":1},"z":{}}', '{}']) {
      const request: unknown = JSON.parse(text);
      expect(validate(request)).toBe(true);
      if (native) {
        const out = native.canonicalize(Buffer.from(text), native.compilePlan(plan));
        expect(out?.toString('utf8'), text).toBe(canonicalJson(request));
      }
    }
  });

  it('gives up where ajv would not fill a default the plan would: inherited names, patternProperties', () => {
    expect(
      defaultsPlan({ type: 'object', properties: { constructor: { type: 'string', default: 'x' } } }),
    ).toBeNull();
    expect(
      defaultsPlan({
        type: 'object',
        patternProperties: { '^p': { type: 'object' } },
        additionalProperties: { type: 'object', properties: { d: { type: 'number', default: 1 } } },
      }),
    ).toBeNull();
  });

  it('follows items and additionalProperties, and gives up on defaults under combinators', () => {
    expect(
      defaultsPlan({
        type: 'object',
        additionalProperties: {
          type: 'array',
          items: { type: 'object', properties: { k: { type: 'string', default: 'v' } } },
        },
      }),
    ).toEqual({ additional: { items: { props: { k: { default: '"v"' } } } } });
    expect(defaultsPlan({ type: 'object', properties: { a: { type: 'number' } } })).toEqual({});
    expect(
      defaultsPlan({
        type: 'object',
        properties: { a: { anyOf: [{ type: 'object', properties: { b: { type: 'number', default: 1 } } }] } },
      }),
    ).toBeNull();
    // A combinator without defaults inside does not matter.
    expect(defaultsPlan({ type: 'object', properties: { a: { anyOf: [{ type: 'number' }] } } })).toEqual({});
  });
});

import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { GateRequest } from '../eval/tools/gate/schema.js';
import { TOOLS } from '../eval/registry.js';
import { addUniformMapKeyword, mapKeys, UNIFORM_MAP_KEYWORD, withUniformMaps } from './uniform-map.js';
import { compileValidator } from './validation.js';

const MAP = {
  type: 'object',
  additionalProperties: { type: 'boolean' },
  minProperties: 1,
  maxProperties: 3,
  description: 'id -> pass',
};

function pair(schema: object): { plain: (v: unknown) => boolean; fast: (v: unknown) => boolean } {
  const plain = new Ajv({ strict: true, useDefaults: true }).compile(schema);
  const ajv = new Ajv({ strict: true, useDefaults: true });
  addUniformMapKeyword(ajv);
  const fast = ajv.compile(withUniformMaps(schema));
  return { plain: (v) => plain(structuredClone(v)), fast: (v) => fast(structuredClone(v)) };
}

describe('uniform map rewrite', () => {
  it('replaces exactly the primitive-valued maps, leaving the input untouched', () => {
    const before = JSON.stringify(MAP);
    expect(withUniformMaps(MAP)).toEqual({
      type: 'object',
      [UNIFORM_MAP_KEYWORD]: { type: 'boolean', min: 1, max: 3 },
    });
    expect(JSON.stringify(MAP)).toBe(before);
    // Not maps: named properties, a constrained value schema, a number type.
    const notMaps = [
      { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } },
      { type: 'object', additionalProperties: { type: 'string', maxLength: 3 } },
      { type: 'object', additionalProperties: { type: 'number' } },
      { type: 'object', additionalProperties: false },
    ];
    for (const s of notMaps) expect(withUniformMaps(s)).toBe(s);
  });

  it('accepts and rejects exactly what the plain schema does', () => {
    const schema = {
      type: 'object',
      properties: { m: MAP, d: { ...MAP, additionalProperties: { type: 'string' } } },
    };
    const { plain, fast } = pair(schema);
    const cases: unknown[] = [
      {},
      { m: {} },
      { m: { a: true } },
      { m: { a: true, b: false, c: true } },
      { m: { a: true, b: false, c: true, d: false } },
      { m: { a: 'true' } },
      { m: { a: null } },
      { m: { a: 1 } },
      { m: [] },
      { m: [true] },
      { m: null },
      { m: 'x' },
      { m: { ['__proto__']: true } },
      JSON.parse('{"m":{"__proto__":true,"constructor":false}}'),
      { d: { a: 'x' } },
      { d: { a: true } },
      { d: { a: 'x', b: 'y', c: 'z', e: 'w' } },
    ];
    for (const c of cases) expect(fast(c), JSON.stringify(c)).toBe(plain(c));
  });

  it('gives every tool the same verdicts as the plain schema on its example and on broken variants', () => {
    for (const tool of TOOLS) {
      const { plain, fast } = pair(tool.schema);
      const variants: unknown[] = [tool.example, {}, null, []];
      for (const key of Object.keys(tool.example as object)) {
        const broken = structuredClone(tool.example) as Record<string, unknown>;
        broken[key] = { x: 1 };
        variants.push(broken);
        const emptied = structuredClone(tool.example) as Record<string, unknown>;
        emptied[key] = {};
        variants.push(emptied);
      }
      for (const v of variants)
        expect(fast(v), `${tool.id}: ${JSON.stringify(v).slice(0, 80)}`).toBe(plain(v));
    }
  });

  it('keeps full error reports for the gate: the failing map is named by the plain schema', () => {
    const validate = compileValidator(GateRequest);
    const body = { baseline: { a: true, b: 'no' }, candidate: {} };
    expect(() => validate.assert(body)).toThrow(/problems|invalid/);
    try {
      validate.assert(body);
    } catch (err) {
      const paths = (err as { errors?: { path: string }[] }).errors?.map((e) => e.path);
      expect(paths).toEqual(expect.arrayContaining(['/baseline/b', '/candidate']));
    }
    const big = Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`i${i}`, true]));
    expect(() => validate.assert({ baseline: big, candidate: { a: true } })).toThrow(
      /at \/baseline: has 5001 entries; at most 5000/,
    );
  });

  it("hands the validated maps' key lists to the tool (listed once), and only those", () => {
    const validate = compileValidator(GateRequest);
    const request = validate.assert({ baseline: { b: true, a: false }, candidate: { a: true, b: true } });
    const keys = mapKeys(request.baseline);
    expect(keys).toEqual(['b', 'a']);
    expect(mapKeys(request.baseline)).toBe(keys); // the same list, not listed again
    const fresh = { x: 1, y: 2 };
    expect(mapKeys(fresh)).toEqual(['x', 'y']);
    expect(mapKeys(fresh)).not.toBe(mapKeys(fresh));
  });
});

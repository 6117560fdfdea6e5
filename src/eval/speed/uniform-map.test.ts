import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { GateRequest } from '../tools/gate/schema.js';
import { TOOLS } from '../registry.js';
import {
  addUniformMapKeyword,
  UNIFORM_MAP_KEYWORD,
  uniformMapFastPass,
  withUniformMaps,
} from './uniform-map.js';
import { compileValidator } from '../../core/validation.js';
import { cohortKeys } from '../tools/gate/gate.js';

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
    const validate = compileValidator(GateRequest, { fastPass: uniformMapFastPass });
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
      /baseline has 5001 entries; at most 5000 allowed/,
    );
  });

  it("returns the validated maps' key lists (listed once), and only those", () => {
    const validate = compileValidator(GateRequest, { fastPass: uniformMapFastPass });
    const { value: request, mapKeys } = validate.validate({
      baseline: { b: true, a: false },
      candidate: { a: true, b: true },
    });
    expect(mapKeys.get(request.baseline)).toEqual(['b', 'a']);
    expect(mapKeys.get(request.candidate)).toEqual(['a', 'b']);
    expect(mapKeys.size).toBe(2); // the optional domains map was absent
    const keys = cohortKeys(request, mapKeys);
    expect(keys.baseline).toBe(mapKeys.get(request.baseline)); // not listed again
    expect(keys.candidate).toBe(mapKeys.get(request.candidate));
    const fresh = { ...request, baseline: { x: true, y: false } };
    expect(cohortKeys(fresh, mapKeys).baseline).toEqual(['x', 'y']); // another map: listed afresh
    // Each call has its own lists: nothing is kept between requests.
    const again = validate.validate({ baseline: { c: true }, candidate: { c: false } });
    expect(again.mapKeys.has(request.baseline)).toBe(false);
    // Without the fast pass there are no lists, and the verdicts are the same.
    const plain = compileValidator(GateRequest).validate({ baseline: { a: true }, candidate: { a: true } });
    expect(plain.mapKeys.size).toBe(0);
  });
});

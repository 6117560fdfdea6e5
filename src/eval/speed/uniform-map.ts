/**
 * A faster accept/reject check for "maps": objects with arbitrary keys whose values all have
 * one primitive type, e.g. the gate's `{ item_id: boolean }` cohorts of up to 5000 entries.
 *
 * Why: listing the keys of a large parsed object is slow (V8 keeps it as a dictionary;
 * docs/speed.md#map-keys-listed-once), and ajv's code for such a schema lists them three
 * times (`Object.keys(...).length` for minProperties, again for maxProperties, a `for-in` for
 * additionalProperties). The fast validator (compileValidator's first pass) replaces such a
 * node with one `uniformMap` keyword that lists the keys once. It accepts exactly the same
 * documents; any failure is re-validated with the untouched schema to report the errors, so
 * messages never come from this keyword.
 */
import type { Ajv } from 'ajv';
import type { FastPass, ValidationContext } from '../../core/validation.js';

export const UNIFORM_MAP_KEYWORD = 'uniformMap';

type ValueType = 'boolean' | 'string';

interface UniformMapSpec {
  type: ValueType;
  min?: number;
  max?: number;
}

/** Keywords that only annotate; they may sit beside the ones this rewrite understands. */
const ANNOTATIONS = new Set(['description', 'title', '$comment', 'examples']);
const MAP_KEYS = new Set(['type', 'additionalProperties', 'minProperties', 'maxProperties']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function valueType(schema: unknown): ValueType | null {
  if (!isRecord(schema)) return null;
  const type = schema.type;
  if (type !== 'boolean' && type !== 'string') return null;
  for (const k of Object.keys(schema)) if (k !== 'type' && !ANNOTATIONS.has(k)) return null;
  return type;
}

/** The uniformMap spec for `schema` when it is exactly such a map, else null. */
function asUniformMap(schema: Record<string, unknown>): UniformMapSpec | null {
  if (schema.type !== 'object') return null;
  for (const k of Object.keys(schema)) if (!MAP_KEYS.has(k) && !ANNOTATIONS.has(k)) return null;
  const type = valueType(schema.additionalProperties);
  if (type === null) return null;
  const spec: UniformMapSpec = { type };
  if (typeof schema.minProperties === 'number') spec.min = schema.minProperties;
  if (typeof schema.maxProperties === 'number') spec.max = schema.maxProperties;
  return spec;
}

/**
 * A copy of `schema` with every uniform map node replaced by `{ type: 'object', uniformMap }`;
 * the input is not modified. Returns the input itself when nothing was replaced.
 */
export function withUniformMaps<T>(schema: T): T {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) {
      const list = node as unknown[];
      let copy: unknown[] | undefined;
      list.forEach((v, i) => {
        const w = walk(v);
        if (w !== v) (copy ??= [...list])[i] = w;
      });
      return copy ?? list;
    }
    if (!isRecord(node)) return node;
    const spec = asUniformMap(node);
    if (spec) return { type: 'object', [UNIFORM_MAP_KEYWORD]: spec };
    let copy: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(node)) {
      // `default`, `const`, `enum` and `examples` hold data, not schemas.
      if (k === 'default' || k === 'const' || k === 'enum' || k === 'examples') continue;
      const w = walk(v);
      if (w !== v) (copy ??= { ...node })[k] = w;
    }
    return copy ?? node;
  };
  return walk(schema) as T;
}

/**
 * Records the key list in the call's context, so a tool can use it instead of listing a large
 * map again. Sound because a validated request's maps are read-only input: nothing between
 * validation and the tool adds or removes their keys (ajv inserts no defaults into a uniform map).
 */
function uniformMapValid(
  this: ValidationContext | undefined,
  spec: UniformMapSpec,
  data: Record<string, unknown>,
): boolean {
  const keys = Object.keys(data);
  if (spec.min !== undefined && keys.length < spec.min) return false;
  if (spec.max !== undefined && keys.length > spec.max) return false;
  const type = spec.type;
  for (let i = 0; i < keys.length; i++) if (typeof data[keys[i]!] !== type) return false;
  this?.mapKeys?.set(data, keys);
  return true;
}

export function addUniformMapKeyword(ajv: Ajv): void {
  ajv.addKeyword({
    keyword: UNIFORM_MAP_KEYWORD,
    type: 'object',
    schemaType: 'object',
    errors: false,
    validate: uniformMapValid,
  });
}

/** The fast first pass eval's validators take (core/validation.ts FastPass). */
export const uniformMapFastPass: FastPass = {
  addKeywords: addUniformMapKeyword,
  rewrite: withUniformMaps,
};

/**
 * Where a request schema inserts defaults, as a plan the native canonicaliser follows
 * (src/eval/speed/canonical-native.ts). `request_sha256` covers the request *after* defaults; the
 * native path canonicalises the raw request bytes and inserts the defaults itself, so it
 * never walks the parsed object (listing a 5000-key map parsed by JSON.parse is slow).
 *
 * The plan mirrors ajv's `useDefaults`: a property's default is inserted when the property
 * is absent. Only plain structure is followed (properties, additionalProperties, items);
 * a default anywhere under a combinator or reference (anyOf, $ref, ...) makes the whole
 * schema unplannable, and the request is then canonicalised from the parsed object.
 */
import { Ajv } from 'ajv';
import { canonicalJson } from '../../core/canonical-json.js';

import type { PlanNode, PlanProp } from './canonical-native.js';

/** Keywords holding subschemas that the plan does not follow. */
const OPAQUE = [
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  '$ref',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
  'patternProperties',
  'propertyNames',
  'contains',
  'prefixItems',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
];

class Unplannable extends Error {}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function hasDefault(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(hasDefault);
  if (!isRecord(schema)) return false;
  if ('default' in schema) return true;
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'const' || k === 'enum' || k === 'examples') continue;
    if (hasDefault(v)) return true;
  }
  return false;
}

// A default is written as ajv would leave it: inserted, then validated (which fills the
// defaults nested inside it). strict: false because subschemas are compiled on their own.
// Made on first use: only schemas with defaults need it, once per tool.
let ajv: Ajv | undefined;

function effectiveDefault(schema: Record<string, unknown>): string {
  const value: unknown = structuredClone(schema.default);
  (ajv ??= new Ajv({ strict: false, useDefaults: true, validateFormats: false })).compile(schema)(value);
  return canonicalJson(value);
}

function planFor(schema: unknown): PlanNode | undefined {
  if (!isRecord(schema)) return undefined;
  for (const k of OPAQUE) if (k in schema && hasDefault(schema[k])) throw new Unplannable(k);
  const node: PlanNode = {};
  const additional = planFor(schema.additionalProperties);
  // ajv applies additionalProperties to undeclared keys only, and neither to keys matched by
  // patternProperties, which the plan cannot express next to `additional`.
  if (additional && 'patternProperties' in schema) throw new Unplannable('patternProperties');
  if (isRecord(schema.properties)) {
    const props: Record<string, PlanProp> = {};
    for (const [name, sub] of Object.entries(schema.properties)) {
      if (!isRecord(sub)) continue;
      const entry: PlanProp = {};
      const child = planFor(sub);
      if (child) entry.node = child;
      if ('default' in sub) {
        // ajv fills a default when `data[name] === undefined`, which is never the case for a
        // name Object.prototype provides ("constructor", "toString", ...).
        if (name in Object.prototype) throw new Unplannable(`default for "${name}"`);
        entry.default = effectiveDefault(sub);
      }
      // With `additional`, every declared key needs an entry, even an empty one, so the
      // canonicaliser does not apply `additional` to it.
      if (entry.node || entry.default !== undefined || additional) props[name] = entry;
    }
    if (Object.keys(props).length > 0) node.props = props;
  }
  if (additional) node.additional = additional;
  if (Array.isArray(schema.items)) {
    if (hasDefault(schema.items)) throw new Unplannable('items (tuple)');
  } else {
    const items = planFor(schema.items);
    if (items) node.items = items;
  }
  return node.props || node.additional || node.items ? node : undefined;
}

/**
 * The defaults plan of a request schema: `{}` when it has no defaults at all, null when its
 * defaults cannot be expressed as a plan.
 */
export function defaultsPlan(schema: unknown): PlanNode | null {
  try {
    return planFor(schema) ?? {};
  } catch (err) {
    if (err instanceof Unplannable) return null;
    throw err;
  }
}

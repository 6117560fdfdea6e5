/**
 * JSON Schema validation through ajv (strict mode) for TypeBox schemas. One compiled
 * validator per schema; errors come back as JSON pointers with messages a person can act on.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { TSchema, Static } from 'typebox';
import { invalidInput, pointerToken, type FieldError } from './errors.js';

const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

export function createAjv(): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true, useDefaults: true });
  addFormats(ajv);
  return ajv;
}

const sharedAjv = createAjv();

/**
 * What a fast first pass hands back beside the verdict: the key lists its keywords made of
 * the maps they accepted, so a caller need not list a 5000-key map again.
 */
export interface ValidationContext {
  mapKeys: Map<object, readonly string[]>;
}

/**
 * A faster first pass for valid documents, injected by the service that owns it when it
 * builds its validators (eval's fast path: src/eval/fast-path/uniform-map.ts). Its keywords
 * run with the call's ValidationContext as `this` (ajv's passContext).
 */
export interface FastPass {
  /** Adds the pass's keywords to a first-error ajv instance (once per instance). */
  addKeywords(ajv: Ajv): void;
  /** The schema the first pass compiles; it must accept exactly what `schema` accepts. */
  rewrite<T>(schema: T): T;
}

// allErrors makes ajv check every entry of a 5000-entry map even after the first failure and
// costs about half the validation time on valid bodies; valid requests take the fast
// validator, and only a failing one is re-validated to list every problem.
const firstErrorAjvs = new Map<FastPass | null, Ajv>();

function firstErrorAjv(pass: FastPass | null): Ajv {
  let ajv = firstErrorAjvs.get(pass);
  if (!ajv) {
    ajv = new Ajv({ strict: true, useDefaults: true, passContext: true });
    addFormats(ajv);
    pass?.addKeywords(ajv);
    firstErrorAjvs.set(pass, ajv);
  }
  return ajv;
}

/** At most this many errors are reported; a 5000-row body can otherwise yield thousands. */
const MAX_REPORTED_ERRORS = 20;

export interface Validated<T> {
  /** The document, defaults applied in place. */
  value: T;
  /** Key lists of the maps the first pass accepted (empty without a FastPass). */
  mapKeys: ReadonlyMap<object, readonly string[]>;
}

export interface Validator<T> {
  (value: unknown): value is T;
  /** Validates (applying defaults in place) or throws a 400 AppError naming every failure. */
  assert(value: unknown, what?: string): T;
  /** `assert`, with the key lists the first pass made. */
  validate(value: unknown, what?: string): Validated<T>;
  schema: TSchema;
}

export interface ValidatorOptions {
  /** A non-default ajv instance (then no first pass: errors and verdict both come from it). */
  ajv?: Ajv;
  fastPass?: FastPass;
}

export function compileValidator<S extends TSchema>(
  schema: S,
  options: ValidatorOptions = {},
): Validator<Static<S>> {
  const ajv = options.ajv ?? sharedAjv;
  const fn: ValidateFunction = ajv.compile(schema);
  const pass = options.fastPass ?? null;
  const fast: ValidateFunction =
    ajv === sharedAjv ? firstErrorAjv(pass).compile(pass ? pass.rewrite(schema) : schema) : fn;
  const validator = ((value: unknown) => fast.call({ mapKeys: new Map() }, value)) as Validator<Static<S>>;
  validator.schema = schema;
  validator.validate = (value: unknown, what = 'request body'): Validated<Static<S>> => {
    const context: ValidationContext = { mapKeys: new Map() };
    // ajv has just checked `value` against `schema`; TypeBox 1.x no longer lets unknown pass as Static<S>.
    if (fast.call(context, value)) return { value: value as Static<S>, mapKeys: context.mapKeys };
    fn(value);
    const errors = formatAjvErrors(fn.errors ?? [], value);
    const first = errors[0];
    const detail =
      errors.length === 1 && first
        ? `The ${what} is invalid at ${first.path || '/'}: ${first.message}.`
        : `The ${what} has ${errors.length}${errors.length === MAX_REPORTED_ERRORS ? '+' : ''} problems; see errors[].`;
    throw invalidInput(detail, errors);
  };
  validator.assert = (value: unknown, what?: string): Static<S> => validator.validate(value, what).value;
  return validator;
}

/** Resolves a JSON pointer in `root` (ajv reports where, not what, unless in verbose mode). */
function at(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

export function formatAjvErrors(raw: readonly ErrorObject[], root?: unknown): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of raw) {
    // anyOf/oneOf wrappers repeat what their branches already said.
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue;
    const item = formatOne(root === undefined ? e : { ...e, data: e.data ?? at(root, e.instancePath) });
    const key = item.path + '\u0000' + item.message;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
    if (out.length >= MAX_REPORTED_ERRORS) break;
  }
  return out;
}

function formatOne(e: ErrorObject): FieldError {
  const p = e.params as Record<string, unknown>;
  const at = e.instancePath;
  switch (e.keyword) {
    case 'required':
      return { path: `${at}/${pointerToken(String(p.missingProperty))}`, message: 'is required but missing' };
    case 'additionalProperties':
      return {
        path: `${at}/${pointerToken(String(p.additionalProperty))}`,
        message: `is not an allowed property here (unknown property "${String(p.additionalProperty)}")`,
      };
    case 'type':
      return { path: at, message: `must be ${article(String(p.type))}, got ${describeType(e.data)}` };
    case 'maxItems':
      return { path: at, message: `has ${lengthOf(e.data)} items; at most ${String(p.limit)} are allowed` };
    case 'minItems':
      return { path: at, message: `has ${lengthOf(e.data)} items; at least ${String(p.limit)} are required` };
    case 'maxProperties':
      return {
        path: at,
        message: `has ${countKeys(e.data)} entries; at most ${String(p.limit)} are allowed`,
      };
    case 'minProperties':
      return {
        path: at,
        message: `has ${countKeys(e.data)} entries; at least ${String(p.limit)} are required`,
      };
    case 'maxLength':
      return {
        path: at,
        message: `is ${lengthOf(e.data)} characters long; at most ${String(p.limit)} are allowed`,
      };
    case 'minLength':
      return {
        path: at,
        message: `is ${lengthOf(e.data)} characters long; at least ${String(p.limit)} are required`,
      };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { path: at, message: `is ${JSON.stringify(e.data)}; it ${e.message ?? 'is out of range'}` };
    case 'enum':
      return {
        path: at,
        message: `is ${JSON.stringify(e.data)}; allowed values: ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    case 'pattern':
      return { path: at, message: `does not match the pattern ${String(p.pattern)}` };
    default:
      return { path: at, message: e.message ?? 'is invalid' };
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describeType(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number' && Number.isInteger(v)) return `the number ${v}`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`;
}

function lengthOf(v: unknown): number | string {
  return typeof v === 'string' || Array.isArray(v) ? v.length : '?';
}

function countKeys(v: unknown): number | string {
  return v !== null && typeof v === 'object' ? Object.keys(v).length : '?';
}

/**
 * JSON Schema validation through ajv (strict mode) for TypeBox schemas. One compiled
 * validator per schema; errors come back as JSON pointers with messages a person can act on.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { TSchema, Static } from 'typebox';
import { invalidInput } from './errors.js';
import { formatAjvErrors, invalidDetail, MAX_REPORTED_ERRORS } from './field-messages.js';
import { integerSpellingErrors } from './query-integers.js';
import { isPartialDate } from './text-patterns.js';

const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

/** Formats beside ajv-formats': `partial-date` (YYYY, YYYY-MM or YYYY-MM-DD, a real date). */
export function addServiceFormats(ajv: Ajv): Ajv {
  addFormats(ajv);
  return ajv.addFormat('partial-date', { type: 'string', validate: isPartialDate });
}

/** verbose: each error carries its schema, so messages say what the field accepts (field-messages.ts). */
export function createAjv(): Ajv {
  return addServiceFormats(new Ajv({ strict: true, allErrors: true, useDefaults: true, verbose: true }));
}

/**
 * For query strings (text: "2" is coerced to the integer 2), verbose like createAjv so a message
 * says what the field accepts instead of "a valid value".
 */
export function createQueryAjv(): Ajv {
  return addServiceFormats(
    new Ajv({ strict: true, allErrors: true, useDefaults: true, coerceTypes: true, verbose: true }),
  );
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
 * builds its validators (eval's fast path: src/eval/speed/uniform-map.ts). Its keywords
 * run with the call's ValidationContext as `this` (ajv's passContext).
 */
export interface FastPass {
  /** Adds the pass's keywords to a first-error ajv instance (once per instance). */
  addKeywords(ajv: Ajv): void;
  /** The schema the first pass compiles; it must accept exactly what `schema` accepts. */
  rewrite<T>(schema: T): T;
}

// allErrors keeps ajv checking after the first failure, a cost valid bodies need not pay
// (docs/speed.md#first-error-validation): valid requests take the fast validator, and only a
// failing one is re-validated to list every problem.
const firstErrorAjvs = new Map<FastPass | null, Ajv>();

function firstErrorAjv(pass: FastPass | null): Ajv {
  let ajv = firstErrorAjvs.get(pass);
  if (!ajv) {
    ajv = new Ajv({ strict: true, useDefaults: true, passContext: true });
    addServiceFormats(ajv);
    pass?.addKeywords(ajv);
    firstErrorAjvs.set(pass, ajv);
  }
  return ajv;
}

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
  /** A query string (with createQueryAjv): each integer must be written in decimal digits (query-integers.ts). */
  queryText?: boolean;
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
    const spelling = options.queryText ? integerSpellingErrors(value, schema) : [];
    if (spelling.length > 0) {
      const errors = formatAjvErrors(spelling, value);
      throw invalidInput(`The ${what} is invalid. ${invalidDetail(errors)}`, errors);
    }
    const context: ValidationContext = { mapKeys: new Map() };
    // ajv has just checked `value` against `schema`; TypeBox 1.x no longer lets unknown pass as Static<S>.
    if (fast.call(context, value)) return { value: value as Static<S>, mapKeys: context.mapKeys };
    fn(value);
    const errors = formatAjvErrors(fn.errors ?? [], value);
    const more = errors.length === MAX_REPORTED_ERRORS ? ' (and maybe more)' : '';
    throw invalidInput(`The ${what} is invalid. ${invalidDetail(errors)}${more}`, errors);
  };
  validator.assert = (value: unknown, what?: string): Static<S> => validator.validate(value, what).value;
  return validator;
}

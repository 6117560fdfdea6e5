/**
 * Every message about a request field, in words, from one place: what was wrong and what the
 * field accepts. Built from ajv's errors (verbose, so the failing schema is at hand) and the
 * schema's own `description`; a pattern's regular expression never reaches a person.
 */
import type { ErrorObject } from 'ajv';
import type { FieldError } from './errors.js';
import { pointerToken } from './errors.js';
import { characterCount } from './text-length.js';
import { LINE_PATTERN, TEXT_PATTERN, UUID_PATTERN } from './text-patterns.js';

/** At most this many errors are reported; a 5000-row body can otherwise yield thousands. */
export const MAX_REPORTED_ERRORS = 20;

type Schema = Record<string, unknown>;

const PATTERN_WORDS: Record<string, string> = {
  [LINE_PATTERN]: 'one line of text without control characters',
  [TEXT_PATTERN]: 'text without control characters (tabs and line breaks are fine)',
  [UUID_PATTERN]: 'an id: 32 hexadecimal digits grouped 8-4-4-4-12 (a UUID)',
};

const FORMAT_WORDS: Record<string, string> = {
  email: 'an email address, like name@example.org',
  date: 'a date, like 2026-01-31',
  'date-time': 'a date and time, like 2026-01-31T12:00:00Z',
  uri: 'a full URL, like https://example.org/page',
  uuid: PATTERN_WORDS[UUID_PATTERN]!,
  'partial-date': 'a date: a year (2020), a month (2020-07) or a day (2020-07-14)',
};

export const MESSAGES = {
  required: 'is required',
  unknownProperty: (name: string) => `is not an allowed property here (unknown property "${name}")`,
  notFinite: (schema?: Schema) =>
    `is a number too large to read; it must be ${accepts(schema ?? { type: 'number' })}`,
  notDecimalInteger: (schema: Schema, negatives: boolean) =>
    `it must be ${accepts(schema)} written in decimal digits, like ${integerExample(schema)} (${negatives ? 'a leading minus is fine; no' : 'no sign,'} spaces, hexadecimal or exponent)`,
  controlCharacter: (found: string) =>
    `contains the character ${found} (a control, invisible formatting or noncharacter code point, or a blank one where nothing else is visible), which is not allowed in text`,
  notIJson: (found: string) => `contains the character ${found}, ${iJsonReason(found)}`,
  notIJsonKey: (found: string) => `is a key that contains the character ${found}, ${iJsonReason(found)}`,
  noBody: 'must be absent or an empty object',
} as const;

/** A value the field accepts, for a message: its default, else 20 brought into its range. */
function integerExample(s: Schema): number {
  if (typeof s.default === 'number') return s.default;
  if (typeof s.minimum === 'number') return Math.max(s.minimum, Math.min(20, Number(s.maximum ?? 20)));
  return 20;
}

/** Why tool input may not hold `found` ("U+XXXX"), in words. */
function iJsonReason(found: string): string {
  const cp = parseInt(found.slice(2), 16);
  if (cp === 0) return 'NUL, which ends text in C programs and PostgreSQL';
  const kind =
    cp >= 0xd800 && cp <= 0xdfff ? 'half of a surrogate pair without its other half' : 'a noncharacter';
  return `${kind}, which I-JSON (RFC 7493), the input of RFC 8785, refuses`;
}

function list(items: string[], joiner: 'or' | 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${joiner} ${items[items.length - 1]}`;
}

function range(s: Schema): string {
  const lo =
    typeof s.minimum === 'number'
      ? s.minimum
      : typeof s.exclusiveMinimum === 'number'
        ? s.exclusiveMinimum
        : undefined;
  const hi =
    typeof s.maximum === 'number'
      ? s.maximum
      : typeof s.exclusiveMaximum === 'number'
        ? s.exclusiveMaximum
        : undefined;
  const inclusive = typeof s.exclusiveMinimum !== 'number' && typeof s.exclusiveMaximum !== 'number';
  if (lo !== undefined && hi !== undefined && inclusive) return ` from ${lo} to ${hi}`;
  const parts = [
    lo === undefined
      ? ''
      : typeof s.exclusiveMinimum === 'number'
        ? `greater than ${lo}`
        : `of at least ${lo}`,
    hi === undefined ? '' : typeof s.exclusiveMaximum === 'number' ? `less than ${hi}` : `at most ${hi}`,
  ].filter(Boolean);
  return parts.length ? ` ${parts.join(' and ')}` : '';
}

/** What a schema accepts, in words ("a whole number from 1 to 100"), from its keywords. */
export function accepts(s: Schema | undefined): string {
  if (!s) return 'a valid value';
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.enum))
    return `one of ${list(
      s.enum.map((v) => JSON.stringify(v)),
      'or',
    )}`;
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf))
    return list(((s.anyOf ?? s.oneOf) as Schema[]).map(accepts), 'or');
  if (typeof s.format === 'string') return FORMAT_WORDS[s.format] ?? `text in the ${s.format} format`;
  // A pattern's own description says the form in words (a regular expression never does).
  if (typeof s.pattern === 'string')
    return (
      PATTERN_WORDS[s.pattern] ??
      (typeof s.description === 'string' ? s.description : 'text in the form this field takes')
    );
  switch (s.type) {
    case 'null':
      return 'null (to clear it)';
    case 'integer':
      return `a whole number${range(s)}`;
    case 'number':
      return `a number${range(s)}`;
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'a list';
    case 'object':
      return 'an object';
    case 'string': {
      const min = typeof s.minLength === 'number' ? s.minLength : 0;
      const max = typeof s.maxLength === 'number' ? s.maxLength : undefined;
      if (max !== undefined)
        return min > 0 ? `text of ${min} to ${max} characters` : `text of at most ${max} characters`;
      return min > 0 ? `text of at least ${min} characters` : 'text';
    }
    default:
      return 'a valid value';
  }
}

/** The value a person sent, as it appears in a message. */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'number') return Number.isFinite(v) ? `the number ${v}` : 'a number too large to read';
  if (typeof v === 'string') {
    const length = characterCount(v);
    return length > 40 ? `text of ${length} characters` : `"${v}"`;
  }
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`;
}

/** Text counts in characters, as ajv's maxLength does (text-length.ts); a list in items. */
function lengthOf(v: unknown): number | string {
  return typeof v === 'string' ? characterCount(v) : Array.isArray(v) ? v.length : '?';
}

function countKeys(v: unknown): number | string {
  return v !== null && typeof v === 'object' ? Object.keys(v).length : '?';
}

const plural = (n: unknown, one: string, many: string): string => (n === 1 ? one : many);

function formatOne(e: ErrorObject): FieldError {
  const p = e.params as Record<string, unknown>;
  const at = e.instancePath;
  const parent = e.parentSchema;
  const was = describeValue(e.data);
  switch (e.keyword) {
    case 'required':
      return { path: `${at}/${pointerToken(String(p.missingProperty))}`, message: MESSAGES.required };
    case 'additionalProperties':
      return {
        path: `${at}/${pointerToken(String(p.additionalProperty))}`,
        message: MESSAGES.unknownProperty(String(p.additionalProperty)),
      };
    case 'type':
      return { path: at, message: `is ${was}; it must be ${accepts(parent ?? { type: p.type })}` };
    case 'maxItems':
    case 'minItems':
      return {
        path: at,
        message: `has ${lengthOf(e.data)} items; at ${e.keyword === 'maxItems' ? 'most' : 'least'} ${String(p.limit)} ${e.keyword === 'maxItems' ? 'allowed' : plural(p.limit, 'is required', 'are required')}`,
      };
    case 'maxProperties':
    case 'minProperties':
      return {
        path: at,
        message: `has ${countKeys(e.data)} entries; at ${e.keyword === 'maxProperties' ? 'most' : 'least'} ${String(p.limit)} ${e.keyword === 'maxProperties' ? 'allowed' : plural(p.limit, 'is required', 'are required')}`,
      };
    case 'maxLength':
      return {
        path: at,
        message: `is ${lengthOf(e.data)} characters long; at most ${String(p.limit)} are allowed`,
      };
    case 'minLength':
      return {
        path: at,
        message:
          p.limit === 1
            ? 'must not be empty'
            : `is ${lengthOf(e.data)} characters long; at least ${String(p.limit)} are required`,
      };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { path: at, message: `is ${was}; it must be ${accepts(parent ?? {})}` };
    case 'const':
    case 'enum':
    case 'format':
    case 'pattern':
      return { path: at, message: `is ${was}; it must be ${accepts(parent ?? {})}` };
    case 'finite':
      return { path: at, message: e.message ?? MESSAGES.notFinite(parent) };
    case 'decimalInteger':
      return { path: at, message: `is ${was}; ${e.message ?? `it must be ${accepts(parent ?? {})}`}` };
    case 'textSafety':
      return { path: at, message: MESSAGES.controlCharacter(String(p.character)) };
    default:
      return {
        path: at,
        message: parent ? `is ${was}; it must be ${accepts(parent)}` : (e.message ?? 'is not accepted'),
      };
  }
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

/**
 * ajv's errors as field messages. A failed anyOf/oneOf is one message naming what each branch
 * accepts ("must be "public", "unlisted" or "private""), not one per branch.
 */
export function formatAjvErrors(raw: readonly ErrorObject[], root?: unknown): FieldError[] {
  const unions = raw.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const inUnion = (e: ErrorObject): boolean =>
    unions.some(
      (u) =>
        u !== e && e.schemaPath.startsWith(`${u.schemaPath}/`) && e.instancePath.startsWith(u.instancePath),
    );
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of raw) {
    if (e.keyword === 'if' || inUnion(e)) continue;
    const data = e.data ?? (root === undefined ? undefined : at(root, e.instancePath));
    const item =
      e.keyword === 'anyOf' || e.keyword === 'oneOf'
        ? {
            path: e.instancePath,
            message: `is ${describeValue(data)}; it must be ${accepts({ anyOf: e.schema })}`,
          }
        : formatOne({ ...e, data });
    const key = item.path + '\u0000' + item.message;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
    if (out.length >= MAX_REPORTED_ERRORS) break;
  }
  return out;
}

/** A field's name as a person reads it: "/tags/date" -> "tags.date", "querystring:/limit" -> "limit". */
export function fieldName(path: string): string {
  const pointer = path.replace(/^[a-z]+:/, '');
  return (
    pointer
      .split('/')
      .slice(1)
      .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
      .join('.') || 'the whole request'
  );
}

/** The problem's detail for field errors: each field named, the first message in full. */
export function invalidDetail(errors: readonly FieldError[], what = 'request'): string {
  const first = errors[0];
  if (!first) return `The ${what} is invalid.`;
  if (errors.length === 1) return `${fieldName(first.path)} ${first.message}.`;
  const names = [...new Set(errors.map((e) => fieldName(e.path)))];
  return `Check ${list(names, 'and')}: ${fieldName(first.path)} ${first.message}.`;
}

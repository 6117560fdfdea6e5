/**
 * RFC 8785 JSON Canonicalization Scheme (JCS). Object keys sort by UTF-16 code units
 * (JavaScript's default string order); strings and numbers serialise exactly as ECMAScript's
 * JSON.stringify does, which is what the RFC specifies (section 3.2.2).
 *
 * Written here rather than taken from the `canonicalize` package, which is slower on the large
 * receipts hashed on every request (docs/speed.md#canonical-json-written-here); the unit tests
 * check this serializer against it and against the RFC's own examples.
 */
import { createHash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  // Fast path: put every object's keys in sorted order (copying only objects that are not
  // already sorted) and let the engine's native JSON.stringify write it. That is exact
  // unless a key is an array index, which engines always enumerate first; such values, and
  // anything with toJSON, take the general writer below.
  try {
    return JSON.stringify(ordered(value));
  } catch (err) {
    if (err !== NEEDS_GENERAL_WRITER) throw err;
  }
  const out: string[] = [];
  write(value, out);
  return out.join('');
}

/**
 * A number with no JSON form (NaN, ±Infinity). RFC 8785 section 3.2.2.2 requires rejecting
 * it; JSON.parse produces Infinity for a literal beyond the double range, such as 1e400.
 */
export class NonFiniteNumberError extends TypeError {}

/** Thrown inside the fast path to fall back to the general writer; never escapes. */
class NeedsGeneralWriter extends Error {}
const NEEDS_GENERAL_WRITER = new NeedsGeneralWriter('needs the general writer');

function isArrayIndex(key: string): boolean {
  const c = key.charCodeAt(0);
  if (c < 48 || c > 57) return false;
  if (key === '0') return true;
  if (c === 48 || !/^\d+$/.test(key)) return false;
  return Number(key) < 4294967295;
}

/**
 * A null-prototype object only when a key is "__proto__" (JSON.parse makes it an own
 * property, and assigning it to an ordinary object would set the prototype instead); such
 * objects are slow in V8, while ordinary ones share one shape per key set.
 */
function newObjectFor(keys: readonly string[]): Record<string, unknown> {
  return (keys.includes('__proto__') ? Object.create(null) : {}) as Record<string, unknown>;
}

/**
 * The key list last found sorted and free of array indexes. Receipts hold thousands of
 * objects of one shape (items); their keys are the same internalised strings, which V8
 * compares by pointer first, so matching the previous list is cheaper than re-checking the
 * order and the array-index rule for every one.
 */
let lastSortedKeys: readonly string[] = [];

/**
 * The same for objects built out of key order (a tool's items): the last such key list,
 * already checked for array indexes, and its sorted copy, so thousands of objects of one
 * shape are not sorted one by one.
 */
let lastUnsortedKeys: readonly string[] = [];
let lastUnsortedSorted: readonly string[] = [];

function sameKeys(keys: readonly string[], last: readonly string[]): boolean {
  if (keys.length !== last.length) return false;
  for (let i = 0; i < keys.length; i++) if (keys[i] !== last[i]) return false;
  return true;
}

function sameAsLastSorted(keys: readonly string[]): boolean {
  return sameKeys(keys, lastSortedKeys);
}

/** Whether `keys` are in UTF-16 order; throws to the general writer on an array index. */
function inOrder(keys: string[]): boolean {
  if (sameAsLastSorted(keys)) return true;
  let sorted = true;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (isArrayIndex(k)) throw NEEDS_GENERAL_WRITER;
    if (i > 0 && keys[i - 1]! > k) sorted = false;
  }
  if (sorted) lastSortedKeys = keys;
  return sorted;
}

/** Rejects what JSON cannot hold; primitives are checked inline by the callers below. */
function checkPrimitive(value: unknown): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new NonFiniteNumberError('non-finite number');
  } else if (typeof value === 'bigint') {
    throw new TypeError('BigInt has no JSON representation');
  }
}

function ordered(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) {
    checkPrimitive(value);
    return value;
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (typeof v !== 'object' || v === null) {
        checkPrimitive(v);
        continue;
      }
      const o = ordered(v);
      if (o !== v) (copy ??= value.slice())[i] = o;
    }
    return copy ?? value;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') throw NEEDS_GENERAL_WRITER;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (sameKeys(keys, lastUnsortedKeys)) return orderedCopy(obj, lastUnsortedSorted);
  if (inOrder(keys)) {
    // Copy only when a child changed; most receipt objects are built in key order already.
    let copy: Record<string, unknown> | undefined;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const v = obj[k];
      if (typeof v !== 'object' || v === null) {
        checkPrimitive(v);
        if (copy !== undefined) copy[k] = v;
        continue;
      }
      const o = ordered(v);
      if (o !== v && copy === undefined) {
        copy = newObjectFor(keys);
        for (let j = 0; j < i; j++) copy[keys[j]!] = obj[keys[j]!];
      }
      if (copy !== undefined) copy[k] = o;
    }
    return copy ?? obj;
  }
  lastUnsortedKeys = keys;
  lastUnsortedSorted = [...keys].sort();
  return orderedCopy(obj, lastUnsortedSorted);
}

/** A copy of `obj` with its keys inserted in `sortedKeys` order, values ordered too. */
function orderedCopy(obj: Record<string, unknown>, sortedKeys: readonly string[]): Record<string, unknown> {
  const out = newObjectFor(sortedKeys);
  for (let i = 0; i < sortedKeys.length; i++) {
    const k = sortedKeys[i]!;
    out[k] = ordered(obj[k]);
  }
  return out;
}

function write(value: unknown, out: string[]): void {
  switch (typeof value) {
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'number':
      // RFC 8785 section 3.2.2.2: NaN and Infinity have no JSON form and must be rejected,
      // not silently written as null as JSON.stringify would. -0 serialises as 0.
      if (!Number.isFinite(value)) throw new NonFiniteNumberError('non-finite number');
      out.push(JSON.stringify(value));
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'object': {
      if (value === null) {
        out.push('null');
        return;
      }
      if (Array.isArray(value)) {
        out.push('[');
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out.push(',');
          const v: unknown = value[i];
          // JSON.stringify writes undefined array members as null; so do we.
          if (v === undefined || typeof v === 'function' || typeof v === 'symbol') out.push('null');
          else write(v, out);
        }
        out.push(']');
        return;
      }
      const toJSON = (value as { toJSON?: () => unknown }).toJSON;
      if (typeof toJSON === 'function') {
        write(toJSON.call(value), out);
        return;
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).sort();
      out.push('{');
      let first = true;
      for (const key of keys) {
        const v = obj[key];
        if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
        if (!first) out.push(',');
        first = false;
        out.push(JSON.stringify(key), ':');
        write(v, out);
      }
      out.push('}');
      return;
    }
    case 'bigint':
      throw new TypeError('BigInt has no JSON representation');
    case 'function':
    case 'symbol':
    case 'undefined':
      throw new TypeError(`value of type ${typeof value} has no JSON representation`);
  }
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function canonicalSha256(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

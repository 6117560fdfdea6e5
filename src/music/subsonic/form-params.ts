/**
 * Query strings and form bodies decoded strictly: a name or value whose percent-escapes do not
 * spell UTF-8 (or a "%" without two hex digits) is an error naming the parameter, never kept as
 * typed or replaced with U+FFFD. No prototype: "__proto__" is a name like any other.
 */
import { decodeUtf8Body, parseJsonText } from '../../core/json-bodies.js';
import { cutText } from '../../core/text-length.js';
import { badParameter, formNotUtf8, jsonBodyNotObject } from './errors.js';
import type { RawParams } from './params.js';

/** A form body's bytes as the content-type parser hands them on, decoded where errors are answered in kind. */
export class FormBody {
  constructor(readonly bytes: Buffer) {}
}

/** A JSON body (an object of parameters, as this server has long taken), parsed where errors are answered in kind. */
export class JsonBody {
  constructor(readonly bytes: Buffer) {}
}

/** A body of another type, refused where errors are answered in kind. */
export class OtherBody {
  constructor(readonly type: string) {}
}

/** A JSON body's parameters: UTF-8 JSON (core/json-bodies.ts's rules), an object. */
export function jsonBodyParams(body: JsonBody): Readonly<Record<string, unknown>> {
  const value = parseJsonText(decodeUtf8Body(body.bytes));
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw jsonBodyNotObject();
  return value as Record<string, unknown>;
}

/** A form body's parameters: its bytes must be UTF-8 (never replaced with U+FFFD), its escapes too. */
export const formBodyParams = (body: FormBody): RawParams =>
  formParams(decodeUtf8Body(body.bytes, formNotUtf8));

const LONE_PERCENT = /%(?![0-9A-Fa-f]{2})/;

function decoded(part: string, name: string): string {
  try {
    return decodeURIComponent(part.replaceAll('+', ' '));
  } catch {
    throw badParameter(
      cutText(name, 60),
      LONE_PERCENT.test(part)
        ? 'holds a "%" not followed by two hexadecimal digits; write a percent sign as %25'
        : 'its percent-escapes are not UTF-8; percent-encode each character as its UTF-8 bytes',
    );
  }
}

export function formParams(text: string): RawParams {
  const out = Object.create(null) as Record<string, string[]>;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawName = eq === -1 ? pair : pair.slice(0, eq);
    const name = decoded(rawName, rawName);
    (out[name] ??= []).push(eq === -1 ? '' : decoded(pair.slice(eq + 1), name));
  }
  return out;
}

/** The request's query string (what follows the first "?" of its target), strictly decoded. */
export const queryParams = (url: string): RawParams => {
  const at = url.indexOf('?');
  return at === -1 ? (Object.create(null) as RawParams) : formParams(url.slice(at + 1));
};

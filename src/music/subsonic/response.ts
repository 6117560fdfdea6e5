/**
 * Subsonic answers: one payload rendered as XML (the default: Subsonic's namespace, scalars as
 * attributes, objects and lists as child elements), JSON (`f=json`) or JSONP (`f=jsonp` with
 * `callback`). Every answer carries status, version, type, serverVersion and openSubsonic.
 */
import { badParameter, type SubsonicError } from './errors.js';

export const SUBSONIC_API_VERSION = '1.16.1';
export const SUBSONIC_NAMESPACE = 'http://subsonic.org/restapi';
export const SERVER_TYPE = 'music-platform';

export type Format = { kind: 'xml' } | { kind: 'json' } | { kind: 'jsonp'; callback: string };

const CALLBACK = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;

/** `f` and `callback` as given; a JSONP callback that is not a plain JS name is refused. */
export function parseFormat(f: string | undefined, callback: string | undefined): Format | SubsonicError {
  if (f === 'json') return { kind: 'json' };
  if (f === 'jsonp') {
    if (callback === undefined) return { kind: 'json' };
    if (callback.length > 100 || !CALLBACK.test(callback))
      return badParameter('callback', 'must be a JavaScript identifier such as cb or app.handle');
    return { kind: 'jsonp', callback };
  }
  return { kind: 'xml' };
}

/** A payload: the element(s) of a Subsonic answer, e.g. `{ album: {...} }`. */
export type Payload = Record<string, unknown>;

const XML_SPECIAL = /[&<>"']/;
const XML_SPECIALS = /[&<>"']/g;
const XML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** A quick test for a code unit XML 1.0 may not hold (a surrogate is checked again, in pairs). */
const XML_CONTROLS = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f';
const XML_SUSPECT = new RegExp(`[${XML_CONTROLS}\\ud800-\\udfff\\ufffe\\uffff]`);
/** Not an XML 1.0 Char: C0 controls but tab and line breaks, lone surrogates, U+FFFE and U+FFFF. */
const XML_ILLEGAL = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/**
 * Text for an attribute value or element text (the five predefined entities). A character XML
 * cannot hold becomes U+FFFD: a row stored before the text rule refused it must not make the
 * whole document unreadable.
 */
function xmlEscape(text: string): string {
  const legal = XML_SUSPECT.test(text) ? text.replace(XML_ILLEGAL, '\ufffd') : text;
  return XML_SPECIAL.test(legal) ? legal.replace(XML_SPECIALS, (c) => XML_ENTITIES[c] ?? c) : legal;
}

function scalarText(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return v.toString();
  return JSON.stringify(v) ?? '';
}

/**
 * One element, written straight from the payload: scalars as attributes (in property order),
 * then objects and lists as child elements and `value` as the element's text, in property
 * order; no content is a self-closed element, an empty list no element at all.
 */
function xmlElement(name: string, value: object): string {
  let attributes = '';
  let content = '';
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) {
      for (const item of v as unknown[])
        content +=
          typeof item === 'object' && item !== null
            ? xmlElement(key, item)
            : `<${key}>${xmlEscape(String(item))}</${key}>`;
    } else if (typeof v === 'object' && !(v instanceof Date)) content += xmlElement(key, v);
    // `value` is an element's text in Subsonic's XML (genre names, lyrics lines).
    else if (key === 'value') content += xmlEscape(scalarText(v));
    else attributes += ` ${key}="${xmlEscape(scalarText(v))}"`;
  }
  return content === '' ? `<${name}${attributes}/>` : `<${name}${attributes}>${content}</${name}>`;
}

/** true when an object anywhere in the payload has a null property (JSON answers leave those out). */
function hasNullProperty(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || value instanceof Date) return false;
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) if (hasNullProperty(item)) return true;
    return false;
  }
  for (const v of Object.values(value)) if (v === null || hasNullProperty(v)) return true;
  return false;
}

/** A copy without null properties (Dates become their ISO text, as JSON.stringify writes them). */
function withoutNulls(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined && v !== null) out[k] = withoutNulls(v);
    return out;
  }
  return value;
}

export function envelope(status: 'ok' | 'failed', serverVersion: string, payload: Payload): Payload {
  return {
    status,
    version: SUBSONIC_API_VERSION,
    type: SERVER_TYPE,
    serverVersion,
    openSubsonic: true,
    ...payload,
  };
}

export interface Rendered {
  contentType: string;
  body: string;
}

export function render(format: Format, document: Payload): Rendered {
  if (format.kind === 'xml')
    return {
      contentType: 'application/xml; charset=utf-8',
      body: `<?xml version="1.0" encoding="UTF-8"?>${xmlElement('subsonic-response', { xmlns: SUBSONIC_NAMESPACE, ...document })}`,
    };
  // JSON.stringify already leaves out undefined properties and writes Dates as ISO text; only
  // null properties need a copy, and answers rarely have any.
  const json = JSON.stringify({
    'subsonic-response': hasNullProperty(document) ? withoutNulls(document) : document,
  });
  if (format.kind === 'json') return { contentType: 'application/json; charset=utf-8', body: json };
  return { contentType: 'text/javascript; charset=utf-8', body: `${format.callback}(${json});` };
}

export function errorPayload(err: SubsonicError): Payload {
  return { error: { code: err.code, message: err.message } };
}

/**
 * Characters refused in every text field of a request: C0/C1 control characters (PostgreSQL
 * refuses NUL; the others corrupt logs and displays) and invisible formatting characters that
 * reorder or hide text (bidi embeddings, overrides and isolates; zero-width spaces; the BOM).
 * Zero-width (non-)joiners stay allowed: emoji sequences and several scripts need them.
 */
import { MESSAGES } from './field-messages.js';
import type { ErrorObject } from 'ajv';
import { pointerToken } from './errors.js';

const REFUSED =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;

function codePoint(ch: string): string {
  return 'U+' + (ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
}

/** A UTF-16 surrogate without its pair: no character at all, and PostgreSQL refuses it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The same, except the tab and line breaks that multi-line text (descriptions, comments) holds. */
const REFUSED_MULTILINE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;

/** Request fields that are multi-line prose by nature. */
const MULTILINE_FIELDS = new Set(['description', 'body']);

/** The first refused character of `text`, as "U+XXXX", or undefined. */
export function refusedCharacter(text: string, multiline = false): string | undefined {
  const m = (multiline ? REFUSED_MULTILINE : REFUSED).exec(text) ?? LONE_SURROGATE.exec(text);
  return m ? codePoint(m[0]) : undefined;
}

/** ajv-shaped errors for every string in `value` that holds a refused character. */
export function textSafetyErrors(
  value: unknown,
  path = '',
  out: ErrorObject[] = [],
  limit = 20,
): ErrorObject[] {
  if (out.length >= limit) return out;
  if (typeof value === 'string') {
    const found = refusedCharacter(value, MULTILINE_FIELDS.has(path.slice(path.lastIndexOf('/') + 1)));
    if (found)
      out.push({
        instancePath: path,
        schemaPath: '#/textSafety',
        keyword: 'textSafety',
        params: { character: found },
        message: MESSAGES.controlCharacter(found),
      });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => textSafetyErrors(v, `${path}/${i}`, out, limit));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) textSafetyErrors(v, `${path}/${pointerToken(k)}`, out, limit);
  }
  return out;
}

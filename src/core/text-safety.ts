/**
 * Characters refused in every text field of a request: C0/C1 control characters (PostgreSQL
 * refuses NUL; the others corrupt logs and displays) and invisible formatting characters that
 * reorder or hide text (bidi embeddings, overrides and isolates; zero-width spaces; the BOM), and
 * noncharacters (U+FDD0-U+FDEF, U+xFFFE/U+xFFFF: U+FFFE and U+FFFF cannot appear in XML at all).
 * Zero-width (non-)joiners stay allowed: emoji sequences and several scripts need them; Unicode tag
 * characters only inside an emoji flag's tag sequence (elsewhere they hide text). A single-line field
 * refuses the line and paragraph separators; a text of nothing visible (blank-rendering fillers,
 * soft hyphens, variation selectors and spaces) is refused as blank wherever it stands.
 */
import { MAX_REPORTED_ERRORS, MESSAGES } from './field-messages.js';
import type { ErrorObject } from 'ajv';
import { pointerToken, type FieldError } from './errors.js';

/** Control characters: C0 and C1 (U+0085 NEL among them), and the line and paragraph separators. */
const CONTROLS = '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029';
/** The same without the tab and line breaks that multi-line text (descriptions, comments) holds. */
const CONTROLS_MULTILINE = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f';
/**
 * Invisible formatting: bidi marks, embeddings, overrides and isolates; zero-width spaces; the
 * Mongolian vowel separator; the BOM; Unicode tag characters (emoji flag sequences are let through
 * before this is applied: FLAG_SEQUENCE).
 */
const INVISIBLE =
  '\\u061c\\u180e\\u200b\\u200e\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff\\u{e0000}-\\u{e007f}';
/** A subdivision flag (🏴 then tag letters or digits, then CANCEL TAG): the one use of tag characters. */
const FLAG_SEQUENCE = /\u{1f3f4}[\u{e0030}-\u{e0039}\u{e0061}-\u{e007a}]{1,8}\u{e007f}/gu;
/** Characters that render as nothing: Hangul and Braille fillers, the soft hyphen, variation selectors, joiners. */
const BLANK = new Set([
  0xad,
  0x34f,
  0x115f,
  0x1160,
  0x200c,
  0x200d,
  0x2800,
  0x3164,
  0xffa0,
  ...Array.from({ length: 16 }, (_, i) => 0xfe00 + i),
]);
const SPACE = /^\s$/u;

/** The first blank-rendering character of a text of those and spaces alone (empty or spaces-only text is the services' to judge). */
function blankOfNothingVisible(text: string): string | undefined {
  let first: string | undefined;
  for (const ch of text) {
    if (BLANK.has(ch.codePointAt(0) ?? 0)) first ??= ch;
    else if (!SPACE.test(ch)) return undefined;
  }
  return first;
}

/** Noncharacters: never text to interchange; U+FFFE/U+FFFF would break every Subsonic XML answer. */
const NONCHARACTERS =
  '\\ufdd0-\\ufdef\\ufffe\\uffff' +
  Array.from(
    { length: 16 },
    (_, i) => `\\u{${(i + 1).toString(16)}fffe}\\u{${(i + 1).toString(16)}ffff}`,
  ).join('');

const REFUSED = new RegExp(`[${CONTROLS}${INVISIBLE}${NONCHARACTERS}]`, 'u');

function codePoint(ch: string): string {
  return 'U+' + (ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
}

/** A UTF-16 surrogate without its pair: no character at all, and PostgreSQL refuses it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const REFUSED_MULTILINE = new RegExp(`[${CONTROLS_MULTILINE}${INVISIBLE}${NONCHARACTERS}]`, 'u');

/** Request fields that are multi-line prose by nature. */
const MULTILINE_FIELDS = new Set(['description', 'body', 'bio']);

/**
 * The first refused character of `text`, as "U+XXXX", or undefined; for a text of nothing
 * visible, its first blank-rendering character.
 */
export function refusedCharacter(text: string, multiline = false): string | undefined {
  const plain = text.includes('\u{1f3f4}') ? text.replace(FLAG_SEQUENCE, '') : text;
  const m = (multiline ? REFUSED_MULTILINE : REFUSED).exec(plain) ?? LONE_SURROGATE.exec(plain);
  if (m) return codePoint(m[0]);
  const blank = blankOfNothingVisible(text);
  return blank === undefined ? undefined : codePoint(blank);
}

/**
 * What RFC 8785 input must not hold (I-JSON, RFC 7493 section 2.1): surrogates without their pair
 * and noncharacters, and NUL, which C strings and PostgreSQL end text at. Narrower than
 * `refusedCharacter`: a tool's input is data (logs, documents) that may hold other controls.
 */
const NOT_IJSON = new RegExp(`[\\u0000${NONCHARACTERS}]`, 'u');

/** The first character of `text` I-JSON refuses, as "U+XXXX", or undefined. */
export function notIJsonCharacter(text: string): string | undefined {
  const m = NOT_IJSON.exec(text) ?? LONE_SURROGATE.exec(text);
  return m ? codePoint(m[0]) : undefined;
}

/**
 * Whether JSON text may hold such a character: an escape of one (a surrogate escape without its
 * pair, a noncharacter, NUL) or one written as is. False means it holds none, so the parsed value
 * is walked only when it does (or in the rare text that looks so, such as an escaped backslash
 * before "ud800").
 */
const MAY_HOLD_NOT_IJSON = new RegExp(
  [
    String.raw`\\u0000|\\u[fF][dD][dDeE][0-9a-fA-F]|\\u[fF]{3}[eEfF]`,
    String.raw`\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])`,
    String.raw`(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F]`,
    String.raw`\\u[dD][89abAB][37bfBF][fF]\\u[dD][fF][fF][eEfF]`,
    String.raw`[\uFDD0-\uFDEF\uFFFE\uFFFF]|[\uD83F\uD87F\uD8BF\uD8FF\uD93F\uD97F\uD9BF\uD9FF\uDA3F\uDA7F\uDABF\uDAFF\uDB3F\uDB7F\uDBBF\uDBFF][\uDFFE\uDFFF]`,
    LONE_SURROGATE.source,
  ].join('|'),
);

/** Field errors for every key and string of `json`'s parsed `value` that I-JSON refuses. */
export function iJsonErrors(json: string, value: unknown): FieldError[] {
  return MAY_HOLD_NOT_IJSON.test(json) ? notIJsonIn(value, '', []) : [];
}

function notIJsonIn(value: unknown, path: string, out: FieldError[]): FieldError[] {
  if (out.length >= MAX_REPORTED_ERRORS) return out;
  if (typeof value === 'string') {
    const found = notIJsonCharacter(value);
    if (found) out.push({ path, message: MESSAGES.notIJson(found) });
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) notIJsonIn(value[i], `${path}/${i}`, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const at = `${path}/${pointerToken(k)}`;
      const found = notIJsonCharacter(k);
      if (found) out.push({ path: at, message: MESSAGES.notIJsonKey(found) });
      notIJsonIn(v, at, out);
    }
  }
  return out.slice(0, MAX_REPORTED_ERRORS);
}

const CONTROL_GLOBAL = new RegExp(`[${CONTROLS}]`, 'gu');
const INVISIBLE_GLOBAL = new RegExp(`[${INVISIBLE}${NONCHARACTERS}]`, 'gu');
const LONE_SURROGATE_GLOBAL = new RegExp(LONE_SURROGATE.source, 'g');

/**
 * `text` with every refused character gone, for text we did not get typed (a file's tags): a
 * control character becomes a space (it may separate words), invisible formatting,
 * noncharacters and lone surrogates are removed. The file is still accepted; only its text is cleaned.
 */
export function withoutRefusedCharacters(text: string): string {
  return text.replace(LONE_SURROGATE_GLOBAL, '').replace(INVISIBLE_GLOBAL, '').replace(CONTROL_GLOBAL, ' ');
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

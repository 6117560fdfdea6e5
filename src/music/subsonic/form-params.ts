/**
 * Query strings and form bodies decoded strictly: a name or value whose percent-escapes do not
 * spell UTF-8 (or a "%" without two hex digits) is an error naming the parameter, never kept as
 * typed or replaced with U+FFFD. No prototype: "__proto__" is a name like any other.
 */
import { cutText } from '../../core/text-length.js';
import { badParameter } from './errors.js';
import type { RawParams } from './params.js';

/** A form body as the content-type parser hands it on, decoded where errors are answered in kind. */
export class FormText {
  constructor(readonly text: string) {}
}

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

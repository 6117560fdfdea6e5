/**
 * Text length as the schemas count it (ajv's maxLength): in characters (code points), so an
 * emoji is one character, not two UTF-16 units. Every bound on user text and every length in a
 * message counts this way; a cut never leaves half of a surrogate pair (PostgreSQL refuses one,
 * and JSON readers such as jq refuse its escape).
 */

const isHigh = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/** How many characters (code points) `text` holds. */
export function characterCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    if (isHigh(text.charCodeAt(i)) && isLow(text.charCodeAt(i + 1))) i++;
    count++;
  }
  return count;
}

/** The first `max` characters (code points) of `text`. */
export function cutText(text: string, max: number): string {
  // A code point is one or two units: text of at most `max` units has at most `max` characters.
  if (text.length <= max) return text;
  let units = 0;
  for (let count = 0; count < max && units < text.length; count++)
    units += isHigh(text.charCodeAt(units)) && isLow(text.charCodeAt(units + 1)) ? 2 : 1;
  return text.slice(0, units);
}

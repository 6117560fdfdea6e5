/** Text-field patterns the services share: control characters are refused; ids are UUIDs. */

/** One line of text: no control characters at all. */
export const LINE_PATTERN = '^[^\\u0000-\\u001f\\u007f]*$';

/** Multi-line text: tab, newline and carriage return allowed, other control characters not. */
export const TEXT_PATTERN = '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$';

/** A UUID path or body id (a non-UUID id in a path is a 404, in a body a 400). */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A calendar date or part of one: YYYY, YYYY-MM or YYYY-MM-DD, each part in range (no 2020-13-45). */
export function isPartialDate(text: string): boolean {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(text);
  if (!m) return false;
  const year = Number(m[1]);
  if (m[2] === undefined) return true;
  const month = Number(m[2]);
  if (month < 1 || month > 12) return false;
  if (m[3] === undefined) return true;
  const day = Number(m[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day >= 1 && day <= (month === 2 && !leap ? 28 : (DAYS[month - 1] ?? 0));
}

/**
 * An integer sent as text (a query, path or Subsonic parameter): decimal digits, a leading minus
 * only where negatives are allowed. Number() would also read "0x10", "1e2", "+5" and " 5".
 */
export function isDecimalInteger(text: string, negatives: boolean): boolean {
  return (negatives ? /^-?\d+$/ : /^\d+$/).test(text);
}

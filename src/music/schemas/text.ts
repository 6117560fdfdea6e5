/** Text-field patterns shared by the music schemas: control characters are refused. */

/** One line of text: no control characters at all. */
export const LINE_PATTERN = '^[^\\u0000-\\u001f\\u007f]*$';

/** Multi-line text: tab, newline and carriage return allowed, other control characters not. */
export const TEXT_PATTERN = '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$';

/** A UUID path or body id (a non-UUID id in a path is a 404, in a body a 400). */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

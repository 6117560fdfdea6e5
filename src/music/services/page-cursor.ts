/**
 * The pagination cursor codecs, as the API gives them out: base64url of `<ISO-8601 UTC instant>|<uuid>`
 * (lists read by time and id), or of `<ISO-8601 UTC instant>|<count>` (a playlist's songs, read by
 * how many came before: the instant is the playlist's version, so a page after an edit is refused).
 */
import type { TrackCursor } from '../repositories/track-repository.js';
import { invalidCursor } from '../errors/catalog.js';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const COUNT = /^(0|[1-9]\d{0,6})$/;
// Rows are created by this API, so no cursor before 1970 or after 9999 was ever given out (and PostgreSQL refuses some).
const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(10000, 0, 1);

/** A cursor into a list read by position: the list's version and how many items came before. */
export interface OffsetCursor {
  version: Date;
  offset: number;
}

export function encodeCursor(c: TrackCursor): string {
  return Buffer.from(`${c.createdAt.toISOString()}|${c.id}`).toString('base64url');
}

export function encodeOffsetCursor(c: OffsetCursor): string {
  return Buffer.from(`${c.version.toISOString()}|${c.offset}`).toString('base64url');
}

/** The two parts of a cursor: an instant this API could have written, and the text after it. */
function cursorParts(text: string): [Date, string] {
  const parts = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (parts.length !== 2) throw invalidCursor();
  const [iso = '', rest = ''] = parts;
  if (!ISO_UTC.test(iso)) throw invalidCursor();
  const at = new Date(iso);
  const ms = at.getTime();
  if (Number.isNaN(ms) || ms < EARLIEST || ms >= LATEST || at.toISOString() !== iso) throw invalidCursor();
  return [at, rest];
}

/** The cursor back, or a 400: only a text this API's encodeCursor could have produced is accepted. */
export function decodeCursor(text: string): TrackCursor {
  const [createdAt, id] = cursorParts(text);
  if (!UUID.test(id)) throw invalidCursor();
  return { createdAt, id };
}

/** The cursor back, or a 400: only a text encodeOffsetCursor could have produced is accepted. */
export function decodeOffsetCursor(text: string): OffsetCursor {
  const [version, count] = cursorParts(text);
  if (!COUNT.test(count)) throw invalidCursor();
  return { version, offset: Number(count) };
}

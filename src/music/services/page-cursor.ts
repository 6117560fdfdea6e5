/** The one pagination cursor codec: base64url of `<ISO-8601 UTC instant>|<uuid>`, as the API gives out. */
import type { TrackCursor } from '../repositories/track-repository.js';
import { invalidCursor } from '../errors/catalog.js';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Rows are created by this API, so no cursor before 1970 or after 9999 was ever given out (and PostgreSQL refuses some).
const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(10000, 0, 1);

export function encodeCursor(c: TrackCursor): string {
  return Buffer.from(`${c.createdAt.toISOString()}|${c.id}`).toString('base64url');
}

/** The cursor back, or a 400: only a text this API's encodeCursor could have produced is accepted. */
export function decodeCursor(text: string): TrackCursor {
  const parts = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (parts.length !== 2) throw invalidCursor();
  const [iso = '', id = ''] = parts;
  if (!ISO_UTC.test(iso) || !UUID.test(id)) throw invalidCursor();
  const createdAt = new Date(iso);
  const ms = createdAt.getTime();
  if (Number.isNaN(ms) || ms < EARLIEST || ms >= LATEST || createdAt.toISOString() !== iso)
    throw invalidCursor();
  return { createdAt, id };
}

/**
 * The one answer a stored object gives a Range header (RFC 9110 §14): the whole object (200)
 * with its length, one range (206) with Content-Range, or the error for a range outside it.
 * REST media (media-delivery.ts) and Subsonic's stream/download/cover art both answer with it.
 */
import type { Readable } from 'node:stream';
import type { ByteRange, ObjectStore } from '../repositories/object-store/object-store.js';
import { parseRange } from './byte-range.js';

export interface MediaAnswer {
  status: 200 | 206;
  headers: Record<string, string>;
  body: Buffer | Readable;
}

/** What the caller answers when the object is gone or the range is outside it (its own wording). */
export interface RangeErrors {
  missing: () => Error;
  outside: (size: number) => Error;
}

/** An object of `size` bytes (the caller has looked it up), read from the store for the range asked. */
export async function rangedObjectAnswer(
  store: Pick<ObjectStore, 'get'>,
  key: string,
  size: number,
  rangeHeader: string | undefined,
  headers: Record<string, string>,
  errors: RangeErrors,
): Promise<MediaAnswer> {
  const range = parseRange(rangeHeader, size);
  if (range.kind === 'unsatisfiable') throw errors.outside(size);
  const got = await store.get(key, range.kind === 'partial' ? range.range : undefined);
  if (!got) throw errors.missing();
  return rangedAnswer(got.body, size, got.range, headers);
}

/** Bytes held in memory (the hot-object cache) for the range asked. */
export function rangedBufferAnswer(
  body: Buffer,
  rangeHeader: string | undefined,
  headers: Record<string, string>,
  outside: RangeErrors['outside'],
): MediaAnswer {
  const range = parseRange(rangeHeader, body.length);
  if (range.kind === 'unsatisfiable') throw outside(body.length);
  if (range.kind === 'full') return rangedAnswer(body, body.length, undefined, headers);
  const { start, end } = range.range;
  return rangedAnswer(body.subarray(start, end + 1), body.length, range.range, headers);
}

function rangedAnswer(
  body: Buffer | Readable,
  size: number,
  range: ByteRange | undefined,
  headers: Record<string, string>,
): MediaAnswer {
  if (!range) return { status: 200, headers: { ...headers, 'content-length': String(size) }, body };
  return {
    status: 206,
    headers: {
      ...headers,
      'content-range': `bytes ${range.start}-${range.end}/${size}`,
      'content-length': String(range.end - range.start + 1),
    },
    body,
  };
}

/**
 * The object storage contract: one interface, two drivers (filesystem under DATA_DIR, and S3
 * when OBJECT_STORE_ENDPOINT is set). The platform has four stores (originals, transcodes,
 * images, waveforms); each is one ObjectStore (a directory, or a bucket).
 *
 * Keys are relative, slash-separated paths of safe characters; no segment starts with a dot,
 * so `..`, `.` and the drivers' own bookkeeping folders are never addressable.
 */
import type { Readable } from 'node:stream';
import {
  imageTypeRefused,
  invalidObjectKey,
  noParts,
  partNumberOutOfRange,
  partsOutOfOrder,
} from '../../errors/storage.js';

export const STORE_NAMES = ['originals', 'transcodes', 'images', 'waveforms'] as const;
export type StoreName = (typeof STORE_NAMES)[number];

export interface ObjectInfo {
  /** Total size of the object in bytes. */
  size: number;
  contentType: string | undefined;
  etag: string | undefined;
  lastModified: Date | undefined;
}

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

export interface ObjectBody extends ObjectInfo {
  body: Readable;
  /** Present when a range was asked for: the bytes `body` holds. */
  range: ByteRange | undefined;
}

export interface CompletedPart {
  partNumber: number;
  etag: string;
}

/** A completed multipart object; `sha256` when the driver read the bytes while joining them (filesystem). */
export interface AssembledObject extends ObjectInfo {
  sha256?: string;
}

/** A part a multipart upload has received so far. */
export interface UploadedPart {
  partNumber: number;
  etag: string;
  size: number;
}

/** An object to read whole: a file on this machine, or a stream of its bytes. */
export type ObjectSource = { file: string } | { body: Readable };

export type ObjectData = Buffer | Uint8Array | string | Readable;

export interface ObjectStore {
  readonly name: StoreName;
  /** True when clients PUT multipart parts to the store itself (presignUploadPart gives URLs). */
  readonly directPartUploads: boolean;
  /** Creates the directory or bucket if missing. */
  ensure(): Promise<void>;
  /** Throws when the store cannot be reached (a HEAD on the bucket or root). */
  ping(): Promise<void>;
  put(
    key: string,
    data: ObjectData,
    options?: { contentType?: string },
  ): Promise<{ etag: string | undefined }>;
  /** undefined when there is no such object. A range past the end is clamped to the object. */
  get(key: string, range?: ByteRange): Promise<ObjectBody | undefined>;
  head(key: string): Promise<ObjectInfo | undefined>;
  /**
   * Where to read a whole object from: the file that holds it when it is on this machine (read in
   * place, not copied), else a stream; undefined when there is no such object.
   */
  readSource(key: string): Promise<ObjectSource | undefined>;
  /** Deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Keys under a prefix, sorted. */
  list(prefix: string): Promise<string[]>;
  /** Replaces `to` with `from` (used to publish job output written under a temporary key). */
  move(from: string, to: string): Promise<void>;
  createMultipartUpload(key: string, contentType: string): Promise<string>;
  /** `size` (when known) lets a driver stream the part instead of measuring it first. */
  uploadPart(
    key: string,
    uploadId: string,
    partNumber: number,
    data: ObjectData,
    size?: number,
  ): Promise<string>;
  /** The parts received so far, by part number (resuming an upload). */
  listParts(key: string, uploadId: string): Promise<UploadedPart[]>;
  /** A URL a client PUTs the part to directly, or undefined when parts go through the API. */
  presignUploadPart(
    key: string,
    uploadId: string,
    partNumber: number,
    expiresInSeconds: number,
  ): Promise<string | undefined>;
  completeMultipartUpload(key: string, uploadId: string, parts: CompletedPart[]): Promise<AssembledObject>;
  abortMultipartUpload(key: string, uploadId: string): Promise<void>;
}

export type ObjectStores = Readonly<Record<StoreName, ObjectStore>>;

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,254}$/;
const MAX_KEY_LENGTH = 1024;

export function isValidKey(key: string): boolean {
  return key.length > 0 && key.length <= MAX_KEY_LENGTH && key.split('/').every((s) => SEGMENT.test(s));
}

/** Keys come from our own code; a bad one is a bug, reported as a 400 only if a caller passed it on. */
export function assertValidKey(key: string): void {
  if (!isValidKey(key)) {
    throw invalidObjectKey(key);
  }
}

/** What the images store takes: raster types a browser never runs script from. */
export const RASTER_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/webp']);

/**
 * Checks a key an object is about to be written under. The images store is served publicly
 * from the site's own origin, so it takes raster images only: an SVG (or HTML) there would
 * run script as the site.
 */
export function assertWritableKey(store: StoreName, key: string): void {
  assertValidKey(key);
  if (store === 'images' && !RASTER_IMAGE_TYPES.has(contentTypeFor(key))) {
    throw imageTypeRefused(key.slice(key.lastIndexOf('/') + 1));
  }
}

export function assertValidPrefix(prefix: string): void {
  if (prefix === '') return;
  assertValidKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
}

export function assertParts(parts: readonly CompletedPart[]): void {
  if (parts.length === 0) throw noParts();
  parts.forEach((p, i) => {
    if (!Number.isInteger(p.partNumber) || p.partNumber < 1 || p.partNumber > 10_000) {
      throw partNumberOutOfRange(i);
    }
    const prev = parts[i - 1];
    if (prev && prev.partNumber >= p.partNumber) {
      throw partsOutOfOrder();
    }
  });
}

const CONTENT_TYPES: Record<string, string> = {
  m3u8: 'application/vnd.apple.mpegurl',
  // fMP4 segments of an audio ladder; delivery types each by its rendition (audio or video).
  m4s: 'audio/mp4',
  mp4: 'audio/mp4',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  ts: 'video/mp2t',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  opus: 'audio/ogg',
  flac: 'audio/flac',
  wav: 'audio/wav',
  json: 'application/json',
  dat: 'application/octet-stream',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

/** The content type of a key by its extension (what nginx's mime.types would say). */
export function contentTypeFor(key: string): string {
  const dot = key.lastIndexOf('.');
  const ext = dot >= 0 ? key.slice(dot + 1).toLowerCase() : '';
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

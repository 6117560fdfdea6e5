/**
 * How stored bytes are typed and answered, in one place. Bytes a client sent never decide how
 * they are served: an original's type comes from what ffprobe found in it (an allow-list of
 * audio types), artwork is one of a few raster types, the pipeline's outputs have fixed types;
 * the client's declared type is only checked against the probe. Every answer that carries
 * stored bytes gets an allow-listed type, `nosniff` and a sandboxing CSP, so even a file that
 * is also valid HTML (an MP3 whose tag holds `<script>`) is never a document of this site.
 */
import type { FieldError } from '../../core/errors.js';
import { undeclarableAudioType } from '../errors/media.js';

/** The media-only policy of every answer carrying stored bytes: no script, no subresource. */
export const MEDIA_CSP = "sandbox; default-src 'none'";

const DOWNLOAD = 'application/octet-stream';

/** ffprobe format (ffmpeg-commands/probe.ts ACCEPTED_FORMATS) -> the type an original is stored and served as. */
const ORIGINAL_TYPE_OF_FORMAT: Readonly<Record<string, string>> = {
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  mov: 'audio/mp4',
  aac: 'audio/aac',
  aiff: 'audio/aiff',
};

export const ORIGINAL_TYPES: ReadonlySet<string> = new Set(Object.values(ORIGINAL_TYPE_OF_FORMAT));
export const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/webp']);
/** What the pipeline writes: playlists, fMP4 and TS segments, progressive AAC, waveform JSON and .dat. */
const OUTPUT_TYPES = [
  'application/vnd.apple.mpegurl',
  'audio/mp4',
  'video/mp4',
  'audio/aac',
  'video/mp2t',
  'application/json',
  DOWNLOAD,
];

/** Every type an answer of stored bytes may carry; none of them is a document a browser runs. */
const SERVED_TYPES: ReadonlySet<string> = new Set([...ORIGINAL_TYPES, ...IMAGE_TYPES, ...OUTPUT_TYPES]);

/** Names browsers and tools give the accepted formats -> the canonical type. */
const DECLARED_ALIASES: Readonly<Record<string, string>> = {
  'audio/mp3': 'audio/mpeg',
  'audio/x-mp3': 'audio/mpeg',
  'audio/mpeg3': 'audio/mpeg',
  'audio/x-mpeg': 'audio/mpeg',
  'audio/x-mpeg-3': 'audio/mpeg',
  'audio/x-flac': 'audio/flac',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/x-pn-wav': 'audio/wav',
  'audio/opus': 'audio/ogg',
  'audio/vorbis': 'audio/ogg',
  'audio/x-ogg': 'audio/ogg',
  'application/ogg': 'audio/ogg',
  'audio/x-m4a': 'audio/mp4',
  'audio/m4a': 'audio/mp4',
  'audio/x-aac': 'audio/aac',
  'audio/aacp': 'audio/aac',
  'audio/x-aiff': 'audio/aiff',
  'audio/aif': 'audio/aiff',
};

/** AAC comes raw (ADTS) or in MP4; clients name either way for either. */
const family = (type: string): string => (type === 'audio/aac' ? 'audio/mp4' : type);

export const ACCEPTED_DECLARATIONS = [...ORIGINAL_TYPES, DOWNLOAD].join(', ');

/**
 * The canonical type a client declared at init, `undefined` for "unknown" (octet-stream: what a
 * browser sends for a file it cannot name), or a 415 for anything that is not audio we accept.
 */
export function checkDeclaredType(declared: string): string | undefined {
  const lower = declared.toLowerCase();
  if (lower === DOWNLOAD) return undefined;
  const canonical = DECLARED_ALIASES[lower] ?? lower;
  if (ORIGINAL_TYPES.has(canonical)) return canonical;
  throw undeclarableAudioType(declared, ACCEPTED_DECLARATIONS);
}

/** The stored type of an original ffprobe read as `format`. */
export function originalTypeOfProbe(format: string): string {
  const type = ORIGINAL_TYPE_OF_FORMAT[format];
  if (type === undefined) throw new Error(`no media type for accepted probe format ${format}`);
  return type;
}

/** The declaration checked against what the probe found: a field error, or none when they agree. */
export function declarationMismatch(declared: string, found: string): FieldError | undefined {
  const canonical = checkDeclaredType(declared);
  if (canonical === undefined || family(canonical) === family(found)) return undefined;
  return { path: '/content_type', message: `was declared ${declared}, but the file is ${found}` };
}

export interface MediaHeaderOptions {
  /** Originals are always downloads; the file name is the uploader's, percent-encoded. */
  attachment?: { filename?: string };
}

/**
 * The headers of an answer carrying stored bytes: a type from the allow-list (anything else is
 * a download), `nosniff`, the media CSP, and `attachment` when asked.
 */
export function storedBytesHeaders(type: string, options: MediaHeaderOptions = {}): Record<string, string> {
  const allowed = SERVED_TYPES.has(type) ? type : DOWNLOAD;
  const headers: Record<string, string> = {
    'content-type': allowed,
    'x-content-type-options': 'nosniff',
    'content-security-policy': MEDIA_CSP,
  };
  if (options.attachment || allowed === DOWNLOAD) {
    const name = options.attachment?.filename;
    headers['content-disposition'] =
      name === undefined || name === ''
        ? 'attachment'
        : `attachment; filename*=UTF-8''${encodeRfc5987(name)}`;
  }
  return headers;
}

/** An original's answer type: its stored type when that is an accepted audio type, else a download. */
export function originalServedType(stored: string): string {
  return ORIGINAL_TYPES.has(stored) ? stored : DOWNLOAD;
}

/** An image's answer type: a raster type, else a download. */
export function imageServedType(type: string): string {
  return IMAGE_TYPES.has(type) ? type : DOWNLOAD;
}

function encodeRfc5987(text: string): string {
  return encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

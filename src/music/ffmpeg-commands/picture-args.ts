/**
 * Profile pictures: the uploaded bytes are probed (never their Content-Type) and re-encoded as one
 * square JPEG, so what is served is always a picture this code made.
 */

export const PICTURE_SIZE = 400;
/** Decoders a profile picture may come through: still raster formats only (no SVG, no video). */
const PICTURE_CODECS: ReadonlySet<string> = new Set(['png', 'mjpeg', 'webp', 'gif', 'bmp']);
const MAX_SIDE = 10_000;
/**
 * Pixels a picture may have (ffprobe reads the size from the header, before anything is
 * decoded): decoding costs memory and time by the pixel (100 megapixels took 17 s and 500 MB).
 */
export const MAX_PICTURE_PIXELS = 25_000_000;

export type PictureVerdict =
  { ok: true } | { ok: false; found: string } | { ok: false; pixels: number; width: number; height: number };

export function pictureProbeArgs(inputPath: string): string[] {
  return ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', inputPath];
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
}

/** ok, or what was found (in words a person can act on), or a size above MAX_PICTURE_PIXELS. */
export function judgePictureProbe(json: string): PictureVerdict {
  let parsed: { streams?: ProbeStream[] };
  try {
    parsed = JSON.parse(json) as { streams?: ProbeStream[] };
  } catch {
    return { ok: false, found: 'nothing ffprobe could read' };
  }
  const streams = parsed.streams ?? [];
  const video = streams.filter((s) => s.codec_type === 'video');
  if (streams.length !== 1 || video.length !== 1) return { ok: false, found: 'not a single picture' };
  const [s] = video;
  if (!s?.codec_name || !PICTURE_CODECS.has(s.codec_name))
    return { ok: false, found: `a ${s?.codec_name ?? 'unknown'} stream` };
  if (!s.width || !s.height) return { ok: false, found: 'a picture without a size' };
  if (s.width > MAX_SIDE || s.height > MAX_SIDE)
    return { ok: false, found: `a ${s.width}x${s.height} picture (at most ${MAX_SIDE} px a side)` };
  if (s.width * s.height > MAX_PICTURE_PIXELS)
    return { ok: false, pixels: s.width * s.height, width: s.width, height: s.height };
  return { ok: true };
}

/** The first frame, cropped to a centred square, scaled, as a JPEG. */
export function pictureArgs(inputPath: string, outputPath: string): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-y',
    '-v',
    'error',
    '-i',
    inputPath,
    '-vf',
    `crop='min(iw,ih)':'min(iw,ih)',scale=${PICTURE_SIZE}:${PICTURE_SIZE}:flags=lanczos,format=yuvj420p`,
    '-frames:v',
    '1',
    '-c:v',
    'mjpeg',
    '-q:v',
    '3',
    '-f',
    'image2',
    outputPath,
  ];
}

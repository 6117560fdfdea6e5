/**
 * Artwork: the original's attached picture, cropped to a centred square and scaled. JPEG:
 * every browser and player shows it, and covers are photographs, where JPEG is at home.
 */

export const ARTWORK_SIZES = [600, 300] as const;
export type ArtworkSize = (typeof ARTWORK_SIZES)[number];

export function artworkFile(size: ArtworkSize): string {
  return `cover-${size}.jpg`;
}

/** One decode of the picture, one output per size. */
export function artworkArgs(inputPath: string, streamIndex: number): string[] {
  const n = ARTWORK_SIZES.length;
  const labels = ARTWORK_SIZES.map((s) => `[s${s}]`).join('');
  const filter =
    `[0:${streamIndex}]crop='min(iw,ih)':'min(iw,ih)',split=${n}${labels};` +
    ARTWORK_SIZES.map((s) => `[s${s}]scale=${s}:${s}:flags=lanczos,format=yuvj420p[o${s}]`).join(';');
  const args = ['-hide_banner', '-nostdin', '-y', '-v', 'error', '-i', inputPath, '-filter_complex', filter];
  for (const s of ARTWORK_SIZES) {
    args.push(
      '-map',
      `[o${s}]`,
      '-frames:v',
      '1',
      '-c:v',
      'mjpeg',
      '-q:v',
      '3',
      '-f',
      'image2',
      artworkFile(s),
    );
  }
  return args;
}

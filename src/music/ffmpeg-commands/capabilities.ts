/**
 * What the pipeline needs from ffmpeg, checked once at worker start-up: an install without the
 * AAC encoder or the ebur128 filter would fail every job, so the worker refuses to start.
 */

export const REQUIRED_ENCODERS = ['aac', 'mjpeg', 'pcm_s16le'] as const;
export const REQUIRED_FILTERS = ['ebur128', 'asplit', 'aformat', 'scale', 'crop', 'split'] as const;
export const REQUIRED_MUXERS = ['hls', 'mp4', 'image2', 's16le', 'null'] as const;

/** Names listed by `ffmpeg -encoders` / `-filters` / `-muxers` (the second column of each row). */
export function listedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const m = /^\s*[A-Z.|]{1,8}\s+([A-Za-z0-9_,]+)\s/.exec(line);
    if (m?.[1]) for (const n of m[1].split(',')) names.add(n);
  }
  return names;
}

export function missingCapabilities(lists: { encoders: string; filters: string; muxers: string }): string[] {
  const missing: string[] = [];
  const check = (kind: string, text: string, wanted: readonly string[]): void => {
    const have = listedNames(text);
    for (const w of wanted) if (!have.has(w)) missing.push(`${kind} ${w}`);
  };
  check('encoder', lists.encoders, REQUIRED_ENCODERS);
  check('filter', lists.filters, REQUIRED_FILTERS);
  check('muxer', lists.muxers, REQUIRED_MUXERS);
  return missing;
}

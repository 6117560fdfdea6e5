/**
 * Whether ffmpeg offers what the pipeline needs, checked once at worker start-up: an install
 * without the AAC encoder or the ebur128 filter would fail every job, so the worker refuses to
 * start. What is needed comes from the media steps (jobs/media-steps.ts `requiredFfmpeg`).
 */

export interface FfmpegLists {
  encoders: readonly string[];
  filters: readonly string[];
  muxers: readonly string[];
}

/** Names listed by `ffmpeg -encoders` / `-filters` / `-muxers` (the second column of each row). */
export function listedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const m = /^\s*[A-Z.|]{1,8}\s+([A-Za-z0-9_,]+)\s/.exec(line);
    if (m?.[1]) for (const n of m[1].split(',')) names.add(n);
  }
  return names;
}

export function missingCapabilities(
  lists: { encoders: string; filters: string; muxers: string },
  wanted: FfmpegLists,
): string[] {
  const missing: string[] = [];
  const check = (kind: string, text: string, wanted: readonly string[]): void => {
    const have = listedNames(text);
    for (const w of wanted) if (!have.has(w)) missing.push(`${kind} ${w}`);
  };
  check('encoder', lists.encoders, wanted.encoders);
  check('filter', lists.filters, wanted.filters);
  check('muxer', lists.muxers, wanted.muxers);
  return missing;
}

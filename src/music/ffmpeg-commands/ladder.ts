/**
 * The HLS ladder: AAC-LC renditions at fixed bitrates, never above the source's own bitrate
 * (re-encoding 128 kb/s into 256 kb/s only wastes bytes), stereo for stereo sources and mono
 * for mono ones (a mono file stays mono instead of pretending to be stereo).
 */
import type { ProbeInfo } from './probe.js';

export interface Rendition {
  /** Folder name under the version, e.g. "128k". */
  name: string;
  bitRate: number;
  channels: 1 | 2;
}

export const STEREO_LADDER_KBPS = [64, 128, 256] as const;
export const MONO_LADDER_KBPS = [48, 96, 128] as const;
/** Segment duration in seconds (Apple's HLS authoring guide recommends 6). */
export const SEGMENT_SECONDS = 6;
/** AAC-LC in RFC 6381 form, for the master playlist's CODECS. */
export const AAC_LC_CODECS = 'mp4a.40.2';

export function chooseLadder(probe: Pick<ProbeInfo, 'channels' | 'bitRate'>): Rendition[] {
  const channels: 1 | 2 = probe.channels === 1 ? 1 : 2;
  const rungs = channels === 1 ? MONO_LADDER_KBPS : STEREO_LADDER_KBPS;
  const source = probe.bitRate;
  const kept = rungs.filter((kbps) => source === undefined || kbps * 1000 <= source);
  // A source below the lowest rung still gets one rendition, at its own bitrate (floor 32k).
  const chosen = kept.length > 0 ? kept : [Math.max(32, Math.floor((source ?? 0) / 1000))];
  return chosen.map((kbps) => ({ name: `${kbps}k`, bitRate: kbps * 1000, channels }));
}

/** The progressive download: the best rendition of the ladder. */
export function progressiveRendition(ladder: readonly Rendition[]): Rendition {
  const best = ladder[ladder.length - 1];
  if (!best) throw new Error('empty ladder');
  return best;
}

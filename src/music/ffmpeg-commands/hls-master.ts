/**
 * The master playlist, written from what was actually produced: ffmpeg's own master only
 * states the nominal bitrate plus 10 % and no AVERAGE-BANDWIDTH, while RFC 8216 section
 * 4.3.4.2 asks for the peak segment bitrate (BANDWIDTH) and the average (AVERAGE-BANDWIDTH).
 */
import { AAC_LC_CODECS } from './ladder.js';

export interface MediaPlaylist {
  /** URI of EXT-X-MAP (the fMP4 init section), relative to the playlist. */
  initUri: string | undefined;
  segments: { uri: string; duration: number }[];
}

/** Segment URIs and durations of a VOD media playlist (RFC 8216 sections 4.3.2.1 and 4.3.2.5). */
export function parseMediaPlaylist(text: string): MediaPlaylist {
  const segments: { uri: string; duration: number }[] = [];
  let initUri: string | undefined;
  let pending: number | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#EXTINF:')) {
      pending = Number.parseFloat(line.slice('#EXTINF:'.length));
    } else if (line.startsWith('#EXT-X-MAP:')) {
      initUri = /URI="([^"]*)"/.exec(line)?.[1];
    } else if (!line.startsWith('#')) {
      if (pending === undefined || !Number.isFinite(pending))
        throw new Error(`media playlist: segment ${line} has no EXTINF`);
      segments.push({ uri: line, duration: pending });
      pending = undefined;
    }
  }
  return { initUri, segments };
}

/**
 * What the pipeline decoded, in milliseconds: the sum of a rendition's segment durations. A
 * file's header may promise more (a truncated MP3 keeps its Xing frame count); listeners get this.
 */
export function decodedDurationMs(playlist: MediaPlaylist): number {
  return Math.round(playlist.segments.reduce((sum, s) => sum + s.duration, 0) * 1000);
}

/** AAC frames (1024 samples) and segment rounding put an encode this far from its source. */
const ENCODE_SLACK_MS = 50;

/**
 * The duration to report: the header's when the decode confirms it (within the encoder's frame
 * slack), else what was decoded (a truncated file's header promises more than it holds).
 */
export function reportedDurationMs(probeMs: number, decodedMs: number): number {
  return Math.abs(probeMs - decodedMs) <= ENCODE_SLACK_MS ? probeMs : decodedMs;
}

export interface VariantStats {
  /** URI of the media playlist, relative to the master. */
  uri: string;
  /** Sizes in bytes, one per segment of the playlist, in order. */
  segmentBytes: number[];
  segmentDurations: number[];
  /** Size of the init section, fetched once per variant: counted in the average. */
  initBytes: number;
}

export function variantBandwidth(v: VariantStats): { peak: number; average: number } {
  let peak = 0;
  let bytes = v.initBytes;
  let seconds = 0;
  v.segmentBytes.forEach((size, i) => {
    const duration = v.segmentDurations[i] ?? 0;
    bytes += size;
    seconds += duration;
    // A very short last segment would exaggerate the peak; RFC 8216 rounds by target duration.
    if (duration >= 1) peak = Math.max(peak, (size * 8) / duration);
  });
  const average = seconds > 0 ? (bytes * 8) / seconds : 0;
  return { peak: Math.ceil(Math.max(peak, average)), average: Math.ceil(average) };
}

export function masterPlaylist(variants: readonly VariantStats[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  // Lowest bandwidth first: players that ignore ordering still start on the cheapest.
  const sorted = variants.map((v) => ({ v, bw: variantBandwidth(v) })).sort((a, b) => a.bw.peak - b.bw.peak);
  for (const { v, bw } of sorted) {
    lines.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${bw.peak},AVERAGE-BANDWIDTH=${bw.average},CODECS="${AAC_LC_CODECS}"`,
      v.uri,
    );
  }
  return lines.join('\n') + '\n';
}

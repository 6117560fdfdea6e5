/** Pure ffmpeg argument builders and choices for Subsonic streaming (unit-tested beside). */

/** Bitrates a capped stream is cached at: a client's maxBitRate is rounded down to one of them. */
export const CAPPED_KBPS = [32, 48, 64, 96, 128, 160, 192, 256, 320] as const;

/**
 * What `stream` serves: the progressive file (top rung) when no cap or a cap at or above it,
 * else the largest cached bitrate not above the cap (at least the smallest).
 */
export function chooseBitrate(
  maxBitRateKbps: number,
  topKbps: number,
): { kind: 'progressive' } | { kind: 'capped'; kbps: number } {
  if (maxBitRateKbps === 0 || maxBitRateKbps >= topKbps) return { kind: 'progressive' };
  const fitting = CAPPED_KBPS.filter((k) => k <= maxBitRateKbps && k < topKbps);
  return { kind: 'capped', kbps: fitting[fitting.length - 1] ?? CAPPED_KBPS[0] };
}

export function cappedKey(versionId: string, kbps: number): string {
  return `${versionId}/subsonic/aac-${kbps}k.m4a`;
}

/** A whole file at `kbps`, AAC-LC in MP4 with the index first (a player starts at once). */
export function cappedTranscodeArgs(input: string, output: string, kbps: number, channels: number): string[] {
  return [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-y', '-i', input],
    ...['-map', '0:a:0', '-vn', '-c:a', 'aac', '-b:a', `${kbps}k`, '-ac', String(channels === 1 ? 1 : 2)],
    ...['-movflags', '+faststart', '-f', 'mp4', output],
  ];
}

/**
 * transcodeOffset: from `offsetSeconds` on, to stdout as ADTS AAC (a stream format that needs no
 * index, so it can be sent while encoding). Without a cap the top rung's AAC is copied, not
 * re-encoded: -ss before -i seeks the file, and cuts fall on AAC frames (~23 ms).
 */
export function offsetStreamArgs(input: string, offsetSeconds: number, kbps: number | undefined): string[] {
  const codec = kbps === undefined ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', `${kbps}k`];
  return [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-ss', String(offsetSeconds), '-i', input],
    ...['-map', '0:a:0', '-vn', ...codec, '-f', 'adts', 'pipe:1'],
  ];
}

/**
 * Loudness by ffmpeg's `ebur128` filter (EBU R 128 / ITU-R BS.1770) with true peak: the
 * arguments, and a parser of the summary the filter prints when it ends (libavfilter/f_ebur128.c,
 * `uninit`). ReplayGain 2.0 track gain: the reference is -18 LUFS, so gain = -18 - I.
 */

export const REPLAYGAIN_REFERENCE_LUFS = -18;

export interface Loudness {
  /** Integrated loudness, LUFS. */
  integrated: number;
  /** Loudness range, LU. */
  range: number;
  /** True peak, dBTP; null for digital silence (ffmpeg prints -inf). */
  truePeak: number | null;
  /** ReplayGain 2.0 track gain, dB. */
  replayGain: number;
}

export function loudnessArgs(inputPath: string): string[] {
  // framelog=verbose keeps the ten lines a second of per-frame values out of stderr at -v info.
  return [
    ...['-hide_banner', '-nostdin', '-v', 'info', '-stats', '-i', inputPath],
    ...['-map', '0:a:0', '-af', 'ebur128=peak=true:framelog=verbose', '-f', 'null', '-'],
  ];
}

function field(summary: string, label: string, unit: string): number | undefined {
  const m = new RegExp(`^\\s*${label}:\\s*(-?inf|-?[0-9]+(?:\\.[0-9]+)?)\\s*${unit}`, 'm').exec(summary);
  if (!m?.[1]) return undefined;
  return m[1].endsWith('inf') ? Number.NEGATIVE_INFINITY : Number(m[1]);
}

/** Rounded to 0.01 dB: more digits than ebur128 prints would be invented precision. */
const round = (n: number): number => Math.round(n * 100) / 100;

export function parseEbur128Summary(stderr: string): Loudness | undefined {
  const start = stderr.lastIndexOf('Summary:');
  if (start === -1) return undefined;
  const summary = stderr.slice(start);
  const integrated = field(summary, 'I', 'LUFS');
  const range = field(summary, 'LRA', 'LU');
  const peak = field(summary, 'Peak', 'dBFS');
  if (integrated === undefined || range === undefined || !Number.isFinite(integrated)) return undefined;
  return {
    integrated,
    range,
    truePeak: peak === undefined || !Number.isFinite(peak) ? null : peak,
    replayGain: round(REPLAYGAIN_REFERENCE_LUFS - integrated),
  };
}

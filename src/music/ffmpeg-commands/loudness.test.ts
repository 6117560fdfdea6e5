import { describe, expect, it } from 'vitest';
import { loudnessArgs, parseEbur128Summary } from './loudness.js';

const summary = (
  i: string,
  lra: string,
  peak: string,
): string => `size=N/A time=00:00:20.01 bitrate=N/A speed=34.5x
[Parsed_ebur128_0 @ 0x564921aee780] Summary:

  Integrated loudness:
    I:         ${i} LUFS
    Threshold: -33.0 LUFS

  Loudness range:
    LRA:        ${lra} LU
    Threshold: -43.0 LUFS
    LRA low:   -24.1 LUFS
    LRA high:  -21.9 LUFS

  True peak:
    Peak:      ${peak} dBFS
`;

describe('ebur128 summary', () => {
  it('reads I, LRA and true peak, and computes the ReplayGain 2.0 gain', () => {
    expect(parseEbur128Summary(summary('-23.0', '  2.2', '-19.9'))).toEqual({
      integrated: -23,
      range: 2.2,
      truePeak: -19.9,
      replayGain: 5,
    });
    expect(parseEbur128Summary(summary('-9.4', '  0.0', '  0.3'))?.replayGain).toBe(-8.6);
  });

  it('reports digital silence: -70 LUFS and no true peak', () => {
    expect(parseEbur128Summary(summary('-70.0', '  0.0', ' -inf'))).toEqual({
      integrated: -70,
      range: 0,
      truePeak: null,
      replayGain: 52,
    });
  });

  it('gives undefined when there is no summary', () => {
    expect(parseEbur128Summary('Invalid data found when processing input')).toBeUndefined();
  });

  it('asks for true peak and keeps per-frame lines out of the log', () => {
    expect(loudnessArgs('/in')).toContain('ebur128=peak=true:framelog=verbose');
  });
});

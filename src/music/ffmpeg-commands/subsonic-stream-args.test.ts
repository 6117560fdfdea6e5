import { describe, expect, it } from 'vitest';
import { cappedTranscodeArgs, chooseBitrate, offsetStreamArgs } from './subsonic-stream-args.js';

describe('subsonic stream choices', () => {
  it('serves the progressive file without a cap or with a cap at or above the top rung', () => {
    expect(chooseBitrate(0, 256)).toEqual({ kind: 'progressive' });
    expect(chooseBitrate(320, 256)).toEqual({ kind: 'progressive' });
    expect(chooseBitrate(256, 256)).toEqual({ kind: 'progressive' });
  });

  it('rounds a cap down to a cached bitrate, never below the smallest', () => {
    expect(chooseBitrate(128, 256)).toEqual({ kind: 'capped', kbps: 128 });
    expect(chooseBitrate(100, 256)).toEqual({ kind: 'capped', kbps: 96 });
    expect(chooseBitrate(8, 256)).toEqual({ kind: 'capped', kbps: 32 });
  });

  it('builds the ffmpeg arguments', () => {
    expect(cappedTranscodeArgs('in.m4a', 'out.m4a', 96, 2)).toEqual(
      expect.arrayContaining(['-b:a', '96k', '+faststart', 'out.m4a']),
    );
    const copy = offsetStreamArgs('in.m4a', 12.5, undefined);
    expect(copy.indexOf('-ss')).toBeLessThan(copy.indexOf('-i'));
    expect(copy).toEqual(expect.arrayContaining(['-ss', '12.5', '-c:a', 'copy', '-f', 'adts', 'pipe:1']));
    expect(offsetStreamArgs('in.m4a', 3, 64)).toEqual(expect.arrayContaining(['-c:a', 'aac', '-b:a', '64k']));
  });
});

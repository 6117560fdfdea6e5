import { describe, expect, it } from 'vitest';
import { chooseLadder, progressiveRendition } from './ladder.js';
import { transcodeArgs } from './transcode-args.js';

describe('HLS ladder', () => {
  it('gives a lossless stereo source every stereo rung', () => {
    const ladder = chooseLadder({ channels: 2, bitRate: 900_000 });
    expect(ladder.map((r) => [r.name, r.bitRate, r.channels])).toEqual([
      ['64k', 64_000, 2],
      ['128k', 128_000, 2],
      ['256k', 256_000, 2],
    ]);
    expect(progressiveRendition(ladder).name).toBe('256k');
  });

  it('never goes above the source bitrate', () => {
    expect(chooseLadder({ channels: 2, bitRate: 192_000 }).map((r) => r.name)).toEqual(['64k', '128k']);
    expect(chooseLadder({ channels: 2, bitRate: 128_000 }).map((r) => r.name)).toEqual(['64k', '128k']);
    expect(chooseLadder({ channels: 2, bitRate: 40_000 })).toEqual([
      { name: '40k', bitRate: 40_000, channels: 2 },
    ]);
    expect(chooseLadder({ channels: 2, bitRate: 8_000 })[0]?.bitRate).toBe(32_000);
  });

  it('keeps a mono source mono, and a surround one becomes stereo', () => {
    expect(chooseLadder({ channels: 1, bitRate: undefined }).map((r) => [r.name, r.channels])).toEqual([
      ['48k', 1],
      ['96k', 1],
      ['128k', 1],
    ]);
    expect(chooseLadder({ channels: 6, bitRate: undefined }).every((r) => r.channels === 2)).toBe(true);
  });
});

describe('transcodeArgs', () => {
  const ladder = chooseLadder({ channels: 2, bitRate: 192_000 });
  const args = transcodeArgs('/in/original', ladder, progressiveRendition(ladder));

  it('decodes once and splits to every rendition plus the progressive file', () => {
    const filter = args[args.indexOf('-filter_complex') + 1];
    expect(filter).toBe(
      '[0:a:0]asplit=3[a0][a1][p];[a0]aformat=channel_layouts=stereo[o0];' +
        '[a1]aformat=channel_layouts=stereo[o1];[p]aformat=channel_layouts=stereo[op]',
    );
    expect(args.filter((a) => a === '-i')).toHaveLength(1);
    expect(args.slice(args.indexOf('-i'), args.indexOf('-i') + 2)).toEqual(['-i', '/in/original']);
  });

  it('asks for fMP4 VOD segments of 6 s with named variants', () => {
    const value = (flag: string): string | undefined => args[args.indexOf(flag) + 1];
    expect(value('-hls_segment_type')).toBe('fmp4');
    expect(value('-hls_time')).toBe('6');
    expect(value('-hls_playlist_type')).toBe('vod');
    expect(value('-var_stream_map')).toBe('a:0,name:64k a:1,name:128k');
    expect(value('-b:a:0')).toBe('64000');
    expect(value('-b:a:1')).toBe('128000');
    expect(args).toContain('%v/index.m3u8');
  });

  it('writes the progressive file at the top rung with +faststart', () => {
    const tail = args.slice(args.lastIndexOf('-map'));
    expect(tail).toEqual([
      '-map',
      '[op]',
      '-c:a',
      'aac',
      '-b:a',
      '128000',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      'progressive.m4a',
    ]);
  });

  it('keeps stats on (progress) and never reads stdin', () => {
    expect(args).toContain('-stats');
    expect(args).toContain('-nostdin');
  });
});

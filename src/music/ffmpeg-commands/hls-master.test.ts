import { describe, expect, it } from 'vitest';
import {
  decodedDurationMs,
  masterPlaylist,
  parseMediaPlaylist,
  reportedDurationMs,
  variantBandwidth,
} from './hls-master.js';

const MEDIA = `#EXTM3U
#EXT-X-VERSION:7
#EXT-X-TARGETDURATION:6
#EXT-X-MEDIA-SEQUENCE:0
#EXT-X-PLAYLIST-TYPE:VOD
#EXT-X-MAP:URI="init_0.mp4"
#EXTINF:6.013968,
seg_00000.m4s
#EXTINF:5.990748,
seg_00001.m4s
#EXTINF:0.5,
seg_00002.m4s
#EXT-X-ENDLIST
`;

describe('media playlist parsing', () => {
  it('keeps the init section, segment URIs and durations', () => {
    expect(parseMediaPlaylist(MEDIA)).toEqual({
      initUri: 'init_0.mp4',
      segments: [
        { uri: 'seg_00000.m4s', duration: 6.013968 },
        { uri: 'seg_00001.m4s', duration: 5.990748 },
        { uri: 'seg_00002.m4s', duration: 0.5 },
      ],
    });
  });

  it('refuses a segment without EXTINF', () => {
    expect(() => parseMediaPlaylist('#EXTM3U\nseg.m4s\n')).toThrow(/no EXTINF/);
  });
});

describe('master playlist', () => {
  const v = (uri: string, bytes: number[]) => ({
    uri,
    segmentBytes: bytes,
    segmentDurations: [6, 6, 0.5],
    initBytes: 600,
  });

  it('states peak and average bandwidth measured from the segments', () => {
    // peak 48 kB in 6 s = 64000 b/s; the 0.5 s tail (1 kB = 16000 b/s) does not count as peak.
    expect(variantBandwidth(v('a', [48_000, 45_000, 1_000]))).toEqual({
      peak: 64_000,
      average: Math.ceil(((600 + 94_000) * 8) / 12.5),
    });
  });

  it('lists variants cheapest first, with CODECS', () => {
    const text = masterPlaylist([
      v('128k/index.m3u8', [96_000, 96_000, 8_000]),
      v('64k/index.m3u8', [48_000, 48_000, 1_000]),
    ]);
    const lines = text.trim().split('\n');
    expect(lines.slice(0, 3)).toEqual(['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS']);
    expect(lines[3]).toMatch(
      /^#EXT-X-STREAM-INF:BANDWIDTH=64000,AVERAGE-BANDWIDTH=\d+,CODECS="mp4a\.40\.2"$/,
    );
    expect(lines[4]).toBe('64k/index.m3u8');
    expect(lines[6]).toBe('128k/index.m3u8');
  });
});

describe('decoded duration', () => {
  it('is the sum of the segment durations, in whole milliseconds', () => {
    expect(decodedDurationMs(parseMediaPlaylist(MEDIA))).toBe(12_505);
    expect(decodedDurationMs({ initUri: undefined, segments: [] })).toBe(0);
  });
});

describe('reported duration', () => {
  it("keeps the header's figure when the decode confirms it, else the decoded one", () => {
    expect(reportedDurationMs(20_000, 20_011)).toBe(20_000);
    expect(reportedDurationMs(20_000, 19_980)).toBe(20_000);
    expect(reportedDurationMs(12_040, 4_833)).toBe(4_833);
    expect(reportedDurationMs(5_000, 9_000)).toBe(9_000);
  });
});

import { describe, expect, it } from 'vitest';
import { artworkArgs } from './artwork-args.js';
import { requiredFfmpeg } from '../jobs/media-steps.js';
import { missingCapabilities } from './capabilities.js';
import {
  ffmpegTimeoutMs,
  isInputFault,
  lastProgressSeconds,
  progressPercent,
  stderrTail,
} from './ffmpeg-output.js';
import { parseProbe } from './probe.js';

describe('parseProbe', () => {
  const probe = (o: object) => parseProbe(JSON.stringify(o));

  it('keeps duration, channels, rate, bitrate and the cover stream', () => {
    expect(
      probe({
        streams: [
          { index: 0, codec_type: 'audio', channels: 2, sample_rate: '44100', duration: '20.000000' },
          { index: 1, codec_type: 'video', disposition: { attached_pic: 1 } },
        ],
        format: { duration: '20.000000', bit_rate: '263172' },
      }),
    ).toEqual({
      ok: true,
      info: { durationMs: 20000, channels: 2, sampleRate: 44100, bitRate: 263172, coverStreamIndex: 1 },
    });
  });

  it('says why a file is not playable audio', () => {
    expect(probe({ streams: [{ codec_type: 'video' }] })).toEqual({
      ok: false,
      reason: 'the file has no audio stream',
    });
    expect(probe({ streams: [{ codec_type: 'audio', channels: 2, sample_rate: '44100' }] })).toMatchObject({
      ok: false,
    });
    expect(parseProbe('not json')).toMatchObject({ ok: false });
  });
});

describe('ffmpeg output', () => {
  it('reads progress from the last time= of a stats chunk', () => {
    expect(
      lastProgressSeconds('size=  1kB time=00:00:01.50 bitrate=\rsize= 2kB time=00:01:02.25 bitrate='),
    ).toBe(62.25);
    expect(lastProgressSeconds('time=-00:00:00.02')).toBeUndefined();
    expect(progressPercent(5, 20_000)).toBe(25);
    expect(progressPercent(30, 20_000)).toBe(100);
    expect(progressPercent(1, 0)).toBe(0);
  });

  it('tells input faults from other failures', () => {
    expect(isInputFault('/tmp/x/original: Invalid data found when processing input')).toBe(true);
    expect(isInputFault('Conversion failed! No space left on device')).toBe(false);
    expect(stderrTail('a\r\nsize=1 time=00:00:01\nb\n\nc\n', 2)).toBe('b | c');
  });

  it('bounds a run by a minute plus the duration', () => {
    expect(ffmpegTimeoutMs(180_000)).toBe(240_000);
  });
});

describe('artworkArgs', () => {
  it('crops to a centred square and writes 600 and 300 px JPEGs from one decode', () => {
    const args = artworkArgs('/in', 2);
    expect(args[args.indexOf('-filter_complex') + 1]).toBe(
      "[0:2]crop='min(iw,ih)':'min(iw,ih)',split=2[s600][s300];" +
        '[s600]scale=600:600:flags=lanczos,format=yuvj420p[o600];[s300]scale=300:300:flags=lanczos,format=yuvj420p[o300]',
    );
    expect(args.filter((a) => a.startsWith('cover-'))).toEqual(['cover-600.jpg', 'cover-300.jpg']);
  });
});

describe('capabilities', () => {
  const encoders =
    ' V..... mjpeg  Motion JPEG\n A..... aac  AAC (Advanced Audio Coding)\n A..... pcm_s16le PCM\n';
  const filters = [
    ' ... ebur128  A->N  x',
    ' ... asplit A->N x',
    ' ... aformat A->A x',
    ' ..C scale V->V x',
    ' ..C crop V->V x',
    ' ... split V->N x',
  ].join('\n');
  const muxers = ['  E hls   Apple', '  E mp4  MP4', '  E image2 i', ' DE s16le PCM', '  E null raw'].join(
    '\n',
  );

  it('finds nothing missing in a full build', () => {
    expect(missingCapabilities({ encoders, filters, muxers }, requiredFfmpeg())).toEqual([]);
  });

  it('names what a build lacks', () => {
    expect(
      missingCapabilities(
        {
          encoders: encoders.replace('aac', 'libfdk_aac'),
          filters: filters.replace('ebur128', 'loudnorm'),
          muxers,
        },
        requiredFfmpeg(),
      ),
    ).toEqual(['encoder aac', 'filter ebur128']);
  });
});

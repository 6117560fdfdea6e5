import { describe, expect, it } from 'vitest';
import { judgePictureProbe, pictureArgs } from './picture-args.js';

const probe = (streams: unknown[]) => JSON.stringify({ streams, format: {} });

describe('profile picture probe and arguments', () => {
  it('takes one still raster picture and refuses the rest, naming what was found', () => {
    expect(
      judgePictureProbe(probe([{ codec_type: 'video', codec_name: 'png', width: 64, height: 32 }])),
    ).toEqual({
      ok: true,
    });
    expect(
      judgePictureProbe(probe([{ codec_type: 'video', codec_name: 'h264', width: 64, height: 64 }])),
    ).toEqual({
      ok: false,
      found: 'a h264 stream',
    });
    expect(judgePictureProbe(probe([{ codec_type: 'audio', codec_name: 'mp3' }])).ok).toBe(false);
    expect(
      judgePictureProbe(
        probe([
          { codec_type: 'video', codec_name: 'mjpeg', width: 9, height: 9 },
          { codec_type: 'audio', codec_name: 'mp3' },
        ]),
      ).ok,
    ).toBe(false);
    expect(
      judgePictureProbe(probe([{ codec_type: 'video', codec_name: 'png', width: 20000, height: 9 }])).ok,
    ).toBe(false);
    expect(judgePictureProbe('not json').ok).toBe(false);
  });

  it('writes one square JPEG frame', () => {
    const args = pictureArgs('in', 'out.jpg');
    expect(args.slice(-1)).toEqual(['out.jpg']);
    expect(args).toContain('mjpeg');
    expect(args[args.indexOf('-frames:v') + 1]).toBe('1');
    expect(args.join(' ')).toMatch(/crop='min\(iw,ih\)':'min\(iw,ih\)',scale=400:400/);
  });
});

/** The edge of music-api for media: the types HLS segments are served as, and SVG kept out of images. */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedUrl } from '../src/music/services/secure-link.js';
import {
  createMusicTestApp,
  publishTestHls,
  TEST_SECURE_LINK_SECRET,
  type MusicTestApp,
} from './helpers/music-app.js';

async function publishVideoHls(t: MusicTestApp): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hls-video-'));
  const version = `video-${Date.now()}`;
  try {
    await promisify(execFile)(
      'ffmpeg',
      [
        ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=10:duration=2'],
        ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2'],
        ...['-c:v', 'mpeg4', '-c:a', 'aac', '-f', 'hls', '-hls_time', '1', '-hls_playlist_type', 'vod'],
        ...['-hls_segment_type', 'fmp4', '-hls_segment_filename', 'seg%d.m4s', 'index.m3u8'],
      ],
      { cwd: dir },
    );
    for (const name of await readdir(dir))
      await t.connections.stores.transcodes.put(`${version}/r0/${name}`, await readFile(join(dir, name)));
    return version;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('media types', () => {
  let t: MusicTestApp;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off', DOMAIN: 'music.example.org' });
  });
  afterAll(async () => t.close());

  const signed = (path: string): string => signedUrl(path, TEST_SECURE_LINK_SECRET, 600, Date.now() / 1000);

  it('serves the segments and init of an audio rendition as audio/mp4', async () => {
    const version = await publishTestHls(t.connections.stores.transcodes);
    for (const path of [`r0/seg0.m4s`, `r1/seg1.m4s`, `r0/init_0.mp4`]) {
      const first = await t.app.inject({ url: signed(`/media/hls/${version}/${path}`) });
      expect(first.statusCode, path).toBe(200);
      expect(first.headers['content-type'], path).toBe('audio/mp4');
      const again = await t.app.inject({ url: signed(`/media/hls/${version}/${path}`) });
      expect(again.headers['x-cache-status']).toBe('HIT');
      expect(again.headers['content-type'], `${path} (cached)`).toBe('audio/mp4');
    }
  });

  it('serves the segments of a rendition with a video track as video/mp4', async () => {
    const version = await publishVideoHls(t);
    const keys = await t.connections.stores.transcodes.list(`${version}/r0/`);
    const segment = keys.find((k) => k.endsWith('.m4s'));
    expect(segment).toBeDefined();
    const res = await t.app.inject({ url: signed(`/media/hls/${segment}`) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
  });

  it('refuses to store an SVG (or any non-raster file) in the images store', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const images = t.connections.stores.images;
    for (const key of ['art/evil.svg', 'art/page.html', 'art/noext']) {
      await expect(images.put(key, svg), key).rejects.toMatchObject({ status: 415 });
      await expect(images.createMultipartUpload(key, 'image/svg+xml'), key).rejects.toMatchObject({
        status: 415,
      });
      expect(await images.head(key), key).toBeUndefined();
    }
    await images.put('art/staged.jpg', Buffer.from([0xff, 0xd8, 0xff]));
    await expect(images.move('art/staged.jpg', 'art/moved.svg')).rejects.toMatchObject({ status: 415 });
    // Raster images are still taken.
    await images.put('art/ok.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    expect(await images.head('art/ok.png')).toBeDefined();
  });

  it('delivers an SVG that reached the images store by other means as an attachment, never image/svg+xml', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const file = join(t.dataDir, 'objects', 'images', 'planted', 'evil.svg');
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, svg);
    for (const round of ['MISS', 'HIT']) {
      const res = await t.app.inject({ url: '/images/planted/evil.svg' });
      expect(res.statusCode, round).toBe(200);
      expect(res.headers['x-cache-status']).toBe(round);
      expect(res.headers['content-type'], round).toBe('application/octet-stream');
      expect(res.headers['content-disposition'], round).toBe('attachment');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    await t.connections.stores.images.put('art/fine.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const png = await t.app.inject({ url: '/images/art/fine.png' });
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-disposition']).toBeUndefined();
  });
});

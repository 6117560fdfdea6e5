/**
 * PUT/DELETE /api/v1/users/me/picture over real HTTP: the bytes are probed and re-encoded (a PNG
 * sent as text/plain is taken; an SVG or text sent as image/png is refused), the body has its own
 * limit (413), and the profile's picture_url serves the JPEG this code made.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PICTURE_BODY_LIMIT } from '../src/music/services/profile-picture-service.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';

const run = promisify(execFile);

describe('profile picture', () => {
  let t: MusicTestApp;
  let artist: TestUser;
  let base: string;
  let png: Buffer;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    artist = await signupUser(t.app, 'pic');
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const file = join(t.dataDir, 'face.png');
    await run('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=640x360',
      '-frames:v',
      '1',
      file,
    ]);
    png = await readFile(file);
  });
  afterAll(async () => t.close());

  const put = (body: Buffer | string, type: string, who: TestUser | null = artist) =>
    fetch(`${base}/api/v1/users/me/picture`, {
      method: 'PUT',
      headers: { ...(who ? who.headers : {}), 'content-type': type },
      body,
    });

  it('takes a PNG whatever its declared type, serves a square JPEG, and replaces and removes it', async () => {
    const res = await put(png, 'text/plain');
    const answer = (await res.json()) as { picture_url: string };
    expect(res.status, JSON.stringify(answer)).toBe(200);
    expect(answer.picture_url).toMatch(/^\/images\/users\/.+\.jpg$/);
    const image = await fetch(`${base}${answer.picture_url}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await image.arrayBuffer());
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const profile = (await (await fetch(`${base}/api/v1/users/${artist.handle}`)).json()) as Record<
      string,
      unknown
    >;
    expect(profile.picture_url).toBe(answer.picture_url);

    const again = (await (await put(png, 'image/png')).json()) as { picture_url: string };
    expect(again.picture_url).not.toBe(answer.picture_url);
    // The replaced picture's bytes are gone.
    expect((await fetch(`${base}${answer.picture_url}`)).status).toBe(404);

    const removed = await fetch(`${base}/api/v1/users/me/picture`, {
      method: 'DELETE',
      headers: artist.headers,
    });
    expect(removed.status).toBe(200);
    expect(((await removed.json()) as { picture_url: unknown }).picture_url).toBeNull();
    expect((await fetch(`${base}${again.picture_url}`)).status).toBe(404);
    const me = (await (await fetch(`${base}/api/v1/me`, { headers: artist.headers })).json()) as Record<
      string,
      unknown
    >;
    expect(me.picture_url).toBeNull();
  });

  it('refuses what is not a picture, an empty body, an oversized one, and anyone signed out', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    for (const body of ['just some text', svg, png.subarray(0, 40)]) {
      const res = await put(body, 'image/png');
      expect(res.status, String(body).slice(0, 20)).toBe(415);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/not a picture/);
    }
    expect((await put('', 'image/png')).status).toBe(400);
    const big = await put(Buffer.alloc(PICTURE_BODY_LIMIT + 1, 1), 'image/png');
    expect(big.status).toBe(413);
    expect((await put(png, 'image/png', null)).status).toBe(401);
    const me = (await (await fetch(`${base}/api/v1/me`, { headers: artist.headers })).json()) as Record<
      string,
      unknown
    >;
    expect(me.picture_url).toBeNull();
  });
});

/**
 * What a profile picture may cost: a picture above MAX_PICTURE_PIXELS is refused from its header
 * (ffprobe) before it is decoded, with the limit named; parallel uploads keep one file in the
 * images store, the current one (each replaced picture is deleted by the change that replaced it).
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PICTURE_PIXELS } from '../src/music/ffmpeg-commands/picture-args.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';

const run = promisify(execFile);

async function solidPng(dir: string, size: string): Promise<Buffer> {
  const file = join(dir, `solid-${size}.png`);
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `color=c=blue:s=${size}`,
    '-frames:v',
    '1',
    file,
  ]);
  return readFile(file);
}

describe('profile picture bounds', () => {
  let t: MusicTestApp;
  let base: string;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => t.close());

  const put = (who: TestUser, body: Buffer) =>
    fetch(`${base}/api/v1/users/me/picture`, {
      method: 'PUT',
      headers: { ...who.headers, 'content-type': 'image/png' },
      body,
    });

  it('refuses a picture of more pixels than the bound from its header, naming the bound', async () => {
    const who = await signupUser(t.app, 'pxl');
    // 6000x5000 = 30 megapixels: each side is fine, the area is not.
    const res = await put(who, await solidPng(t.dataDir, '6000x5000'));
    const detail = ((await res.json()) as { detail: string }).detail;
    expect(res.status, detail).toBe(413);
    expect(detail).toContain('6000x5000');
    expect(detail).toContain(`at most ${MAX_PICTURE_PIXELS / 1e6} megapixels`);
    expect(await t.connections.stores.images.list(`users/${who.id}/`)).toEqual([]);
  });

  it('keeps exactly one file, the current picture, after parallel uploads', async () => {
    const who = await signupUser(t.app, 'pxr');
    const png = await solidPng(t.dataDir, '64x48');
    const answers = await Promise.all(Array.from({ length: 30 }, () => put(who, png)));
    // A burst past the encoders' queue is told to retry; nothing else may fail.
    for (const res of answers) {
      expect([200, 503], await res.clone().text()).toContain(res.status);
      if (res.status === 503) expect(res.headers.get('retry-after')).toBe('5');
    }
    expect(answers.some((res) => res.status === 200)).toBe(true);
    const me = (await (await fetch(`${base}/api/v1/me`, { headers: who.headers })).json()) as {
      picture_url: string;
    };
    const files = await t.connections.stores.images.list(`users/${who.id}/`);
    expect(files.map((key) => `/images/${key}`)).toEqual([me.picture_url]);
  }, 120_000);
});

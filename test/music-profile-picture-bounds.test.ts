/**
 * What a profile picture may cost: a picture above MAX_PICTURE_PIXELS is refused from its header
 * (ffprobe) before it is decoded, with the limit named; parallel uploads keep one file in the
 * images store, the current one (each replaced picture is deleted by the change that replaced it);
 * one account has one picture in the encoder at a time, so it cannot fill the queue for others.
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

  it('encodes one picture of an account at a time: its next is a 429 meanwhile, another account’s goes through', async () => {
    const [alice, bob] = [await signupUser(t.app, 'pxa'), await signupUser(t.app, 'pxb')];
    // 12 megapixels: seconds of decoding, far longer than the second request takes to arrive.
    const large = await solidPng(t.dataDir, '4000x3000');
    const small = await solidPng(t.dataDir, '300x200');
    const [first, second, other] = await Promise.all([put(alice, large), put(alice, large), put(bob, small)]);
    const statuses = [first.status, second.status].sort();
    expect(statuses, await second.clone().text()).toEqual([200, 429]);
    const refused = first.status === 429 ? first : second;
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(((await refused.json()) as { detail: string }).detail).toBe(
      'Your previous picture is still being encoded; send this one when it is done (retry in 5 s).',
    );
    expect(other.status).toBe(200);
    // Done: the account may send the next.
    expect((await put(alice, small)).status).toBe(200);
  }, 120_000);

  it('keeps exactly one file, the current picture, after parallel uploads', async () => {
    const who = await signupUser(t.app, 'pxr');
    const png = await solidPng(t.dataDir, '64x48');
    const answers = await Promise.all(Array.from({ length: 30 }, () => put(who, png)));
    // One of the account's pictures in the encoder at a time: the others are told to retry.
    for (const res of answers) {
      expect([200, 429], await res.clone().text()).toContain(res.status);
      if (res.status === 429) expect(res.headers.get('retry-after')).toBe('5');
    }
    expect(answers.some((res) => res.status === 200)).toBe(true);
    const me = (await (await fetch(`${base}/api/v1/me`, { headers: who.headers })).json()) as {
      picture_url: string;
    };
    const files = await t.connections.stores.images.list(`users/${who.id}/`);
    expect(files.map((key) => `/images/${key}`)).toEqual([me.picture_url]);
  }, 120_000);
});

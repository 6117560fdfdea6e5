/**
 * Signed HLS delivery with nginx secure_link semantics, playlist rewriting, the hot-object
 * cache, Range; public images and waveforms with path confinement.
 */
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUrlCommand } from '../src/main/commands/sign-url.js';
import { signedUrl } from '../src/music/services/secure-link.js';
import { runCommand } from './helpers/cli-command.js';
import {
  createMusicTestApp,
  publishTestHls,
  TEST_SECURE_LINK_SECRET,
  type MusicTestApp,
} from './helpers/music-app.js';

/** The seed's formula, written out independently of the project's signer. */
function independentSig(expires: number, path: string, secret: string): string {
  return createHash('md5')
    .update(String(expires) + path + ' ' + secret)
    .digest('base64')
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/(?<!=)=+$/, '');
}

const now = (): number => Math.floor(Date.now() / 1000);

/** Changes one character to another one of the same alphabet. */
function flip(text: string, index: number): string {
  const c = text[index]!;
  const replacement = c === 'a' ? 'b' : /[0-9]/.test(c) ? String((Number(c) + 1) % 10) : 'a';
  return text.slice(0, index) + replacement + text.slice(index + 1);
}

describe('signed HLS delivery', () => {
  let t: MusicTestApp;
  let version: string;
  let master: string;

  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    version = await publishTestHls(t.connections.stores.transcodes);
    master = `/media/hls/${version}/master.m3u8`;
  });
  afterAll(async () => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  it('accepts a URL signed by the project signer', async () => {
    const res = await get(signedUrl(master, TEST_SECURE_LINK_SECRET, 3600, now()));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.body).toContain('#EXT-X-STREAM-INF');
  });

  it('accepts a signature computed independently from the seed formula', async () => {
    const expires = now() + 600;
    const res = await get(
      `${master}?sig=${independentSig(expires, master, TEST_SECURE_LINK_SECRET)}&expires=${expires}`,
    );
    expect(res.statusCode).toBe(200);
  });

  it('refuses (403) one changed character in the path, expires or sig', async () => {
    const expires = now() + 600;
    const sig = independentSig(expires, master, TEST_SECURE_LINK_SECRET);
    const segmentPath = `/media/hls/${version}/r0/seg0.m4s`;
    const segSig = independentSig(expires, segmentPath, TEST_SECURE_LINK_SECRET);
    const cases = [
      `${segmentPath.replace('seg0', 'seg1')}?sig=${segSig}&expires=${expires}`,
      `${flip(master, 12)}?sig=${sig}&expires=${expires}`,
      `${master}?sig=${sig}&expires=${flip(String(expires), 9)}`,
      `${master}?sig=${flip(sig, 0)}&expires=${expires}`,
      `${master}?sig=${flip(sig, 21)}&expires=${expires}`,
      `${master}?expires=${expires}`,
      `${master}?sig=${sig}`,
      master,
      `${master}?sig=${sig}&expires=soon`,
      `${master}?sig=${sig.slice(0, 20)}&expires=${expires}`,
    ];
    for (const url of cases) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(403);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
  });

  it('answers 410 for a valid signature whose expires is one second in the past', async () => {
    const expires = now() - 1;
    const res = await get(
      `${master}?sig=${independentSig(expires, master, TEST_SECURE_LINK_SECRET)}&expires=${expires}`,
    );
    expect(res.statusCode).toBe(410);
    expect(res.json()).toMatchObject({ status: 410, code: 'gone' });
  });

  it('accepts a URL printed by the sign-url command', async () => {
    const { code, printed } = await runCommand(signUrlCommand, [`${version}/master.m3u8`, '--ttl', '120'], {
      SECURE_LINK_SECRET: TEST_SECURE_LINK_SECRET,
    });
    expect(code).toBe(0);
    const url = printed.trim();
    expect(url).toMatch(
      new RegExp(`^/media/hls/${version}/master\\.m3u8\\?sig=[A-Za-z0-9_-]{22}&expires=\\d+$`),
    );
    expect(Number(new URL(url, 'http://x').searchParams.get('expires')) - now()).toBeGreaterThan(100);
    expect((await get(url)).statusCode).toBe(200);
  });

  it('checks the signature before the expiry: tampered and expired is 403', async () => {
    const expires = now() - 1;
    const sig = independentSig(expires, master, TEST_SECURE_LINK_SECRET);
    expect((await get(`${master}?sig=${flip(sig, 3)}&expires=${expires}`)).statusCode).toBe(403);
    expect((await get(`${master}?sig=${sig}&expires=${expires - 1}`)).statusCode).toBe(403);
  });

  it('404s a signed path with no object behind it', async () => {
    const res = await get(signedUrl(`/media/hls/${version}/nope.m3u8`, TEST_SECURE_LINK_SECRET, 60, now()));
    expect(res.statusCode).toBe(404);
  });

  it('serves every playlist and segment when followed as a player follows URIs', async () => {
    const base = 'http://player.test';
    const masterUrl = new URL(signedUrl(master, TEST_SECURE_LINK_SECRET, 3600, now()), base);
    const masterRes = await get(masterUrl.pathname + masterUrl.search);
    expect(masterRes.statusCode).toBe(200);
    const uriLines = (text: string) => text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
    const mapUris = (text: string) => [...text.matchAll(/URI="([^"]+)"/g)].map((m) => m[1]!);
    const mediaPlaylists = uriLines(masterRes.body);
    expect(mediaPlaylists).toHaveLength(2);
    let segments = 0;
    for (const ref of mediaPlaylists) {
      expect(ref).toMatch(/\?sig=[A-Za-z0-9_-]{22}&expires=\d+$/);
      const playlistUrl = new URL(ref, masterUrl);
      const playlist = await get(playlistUrl.pathname + playlistUrl.search);
      expect(playlist.statusCode, playlistUrl.pathname).toBe(200);
      expect(playlistUrl.searchParams.get('expires')).toBe(masterUrl.searchParams.get('expires'));
      const refs = [...mapUris(playlist.body), ...uriLines(playlist.body)];
      expect(refs.length).toBeGreaterThanOrEqual(3);
      for (const segRef of refs) {
        const segUrl = new URL(segRef, playlistUrl);
        const seg = await get(segUrl.pathname + segUrl.search);
        expect(seg.statusCode, segUrl.pathname).toBe(200);
        expect(seg.rawPayload.length).toBeGreaterThan(0);
        segments++;
      }
    }
    expect(segments).toBeGreaterThanOrEqual(8);
  });

  it('reports MISS then HIT from the in-process cache, with identical bytes', async () => {
    // A key no other test has fetched, so the first answer cannot come from the cache.
    const original = await t.connections.stores.transcodes.get(`${version}/r1/seg1.m4s`);
    await t.connections.stores.transcodes.put(
      `${version}/r1/copy.m4s`,
      Buffer.concat(await original!.body.toArray()),
    );
    const path = `/media/hls/${version}/r1/copy.m4s`;
    const url = signedUrl(path, TEST_SECURE_LINK_SECRET, 3600, now());
    const first = await get(url);
    const second = await get(url);
    expect(first.headers['x-cache-status']).toBe('MISS');
    expect(second.headers['x-cache-status']).toBe('HIT');
    expect(Buffer.compare(first.rawPayload, second.rawPayload)).toBe(0);
    const stored = await t.connections.stores.transcodes.get(`${version}/r1/copy.m4s`);
    expect(Buffer.compare(Buffer.concat(await stored!.body.toArray()), second.rawPayload)).toBe(0);
  });

  it('serves byte ranges of segments (206) and refuses unsatisfiable ones (416)', async () => {
    const path = `/media/hls/${version}/r0/seg0.m4s`;
    const url = signedUrl(path, TEST_SECURE_LINK_SECRET, 3600, now());
    const whole = (await get(url)).rawPayload;
    for (const attempt of [1, 2]) {
      const part = await get(url, { range: 'bytes=10-99' });
      expect(part.statusCode, `attempt ${attempt}`).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 10-99/${whole.length}`);
      expect(Buffer.compare(part.rawPayload, whole.subarray(10, 100))).toBe(0);
    }
    const suffix = await get(url, { range: 'bytes=-16' });
    expect(suffix.statusCode).toBe(206);
    expect(Buffer.compare(suffix.rawPayload, whole.subarray(whole.length - 16))).toBe(0);
    const beyond = await get(url, { range: `bytes=${whole.length}-` });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${whole.length}`);
  });
});

describe('delivery of objects larger than the cache bound', () => {
  let t: MusicTestApp;
  beforeAll(async () => {
    t = await createMusicTestApp({
      RATE_LIMITS: 'off',
      MEDIA_CACHE_MAX_BYTES: '64kb',
      MEDIA_CACHE_MAX_OBJECT_BYTES: '16kb',
    });
  });
  afterAll(async () => t.close());

  it('streams them from the store (always MISS), with ranges', async () => {
    const bytes = Buffer.alloc(100 * 1024, 7);
    bytes.write('tail', bytes.length - 4);
    await t.connections.stores.transcodes.put('big/seg.m4s', bytes);
    const url = signedUrl('/media/hls/big/seg.m4s', TEST_SECURE_LINK_SECRET, 60, now());
    const a = await t.app.inject({ url });
    const b = await t.app.inject({ url, headers: { range: 'bytes=-4' } });
    expect(a.headers['x-cache-status']).toBe('MISS');
    expect(b.headers['x-cache-status']).toBe('MISS');
    expect(a.rawPayload.length).toBe(bytes.length);
    expect(b.statusCode).toBe(206);
    expect(b.body).toBe('tail');
  });
});

describe('public images and waveforms', () => {
  let t: MusicTestApp;
  let port: number;

  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    await t.connections.stores.images.put('art/cover-256.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0]));
    await t.connections.stores.waveforms.put('v1/peaks.json', '{"version":2}');
    // A file beside the stores that no URL may reach.
    await t.connections.stores.originals.put('secret.txt', 'private original');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t.close());

  it('serves them publicly with a week-long immutable cache', async () => {
    const img = await t.app.inject({ url: '/images/art/cover-256.jpg' });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/jpeg');
    expect(img.headers['cache-control']).toBe('public, max-age=604800, immutable');
    const wave = await t.app.inject({ url: '/waveforms/v1/peaks.json' });
    expect(wave.statusCode).toBe(200);
    expect(wave.json()).toEqual({ version: 2 });
    expect(wave.headers['cache-control']).toBe('public, max-age=604800, immutable');
  });

  /** Sends the path byte for byte (no client-side normalisation), over a real socket. */
  function rawGet(path: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it.each(['/images', '/waveforms'])('404s every traversal attempt under %s', async (mount) => {
    const attempts = [
      `${mount}/../originals/secret.txt`,
      `${mount}/../../../../etc/passwd`,
      `${mount}/%2e%2e/originals/secret.txt`,
      `${mount}/%2E%2E/%2E%2E/etc/passwd`,
      `${mount}/..%2foriginals%2fsecret.txt`,
      `${mount}/art/..%2f..%2f..%2fetc%2fpasswd`,
      `${mount}//etc/passwd`,
      `${mount}/%2fetc%2fpasswd`,
      `${mount}/..\\..\\etc\\passwd`,
      `${mount}/.multipart/x`,
      `${mount}/.tmp`,
      `${mount}/art/cover-256.jpg%00.png`,
      `${mount}/`,
    ];
    for (const path of attempts) {
      const res = await rawGet(path);
      expect(res.status, path).toBe(404);
      expect(res.body).not.toContain('private original');
      expect(res.body).not.toContain('root:');
    }
    // Not a traversal but a malformed URL: a 400, never a 5xx.
    expect((await rawGet(`${mount}/%`)).status).toBe(400);
  });
});

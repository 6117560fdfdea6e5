/**
 * Stored script -> account takeover, every link (issue 30, item 1). An MP3 whose every ID3 tag
 * holds `<script>` and which carries a cover picture: declared as a document type it is refused
 * at init; declared as audio but not what the probe finds, refused at completion; stored as
 * audio, then (as a row written before the rule) re-typed text/html, image/svg+xml and
 * application/xhtml+xml in the database, every route that sends stored bytes (REST media,
 * /rest stream/download/cover/HLS) answers an allow-listed media type with nosniff and the media
 * CSP, originals as attachments (unlisted: the suite's other /rest tests share the library). In Chromium, logged in by cookie, opening each of those URLs
 * runs no script, and the page's scripts see no token.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_CSP } from '../src/music/services/stored-media.js';
import type { FlowEvents } from './helpers/flow-events.js';
import { launchBrowser, type TestBrowser } from './helpers/browser.js';
import type { MusicTestApp } from './helpers/music-app.js';
import { PASSWORD, sha256, signupUser, slice, type TestUser } from './helpers/music-domain.js';
import {
  readyTrack,
  startPipelineApp,
  stopWorkerProcess,
  type WorkerProcess,
} from './helpers/music-worker.js';

const run = promisify(execFile);

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const localStorage: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const DOCUMENT_TYPES = ['text/html', 'image/svg+xml', 'application/xhtml+xml'];
/** What a browser would never run as a page of this site. */
const MEDIA_TYPES = new Set([
  'audio/mpeg',
  'audio/mp4',
  'audio/aac',
  'video/mp4',
  'video/mp2t',
  'image/jpeg',
  'image/png',
  'image/webp',
  'application/vnd.apple.mpegurl',
  'application/json',
  'application/octet-stream',
]);
const PAYLOAD = `<script>fetch('/pwned?'+document.cookie+localStorage.length)</script><svg onload="fetch('/pwned-svg')"/>`;

/** A 6 s MP3 with the payload in every tag and an attached PNG cover. */
async function hostileMp3(dir: string): Promise<Buffer> {
  const file = join(dir, 'hostile.mp3');
  const tags = ['title', 'artist', 'album', 'album_artist', 'genre', 'comment', 'composer', 'date'];
  await run('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=6:sample_rate=44100'],
    ...['-f', 'lavfi', '-i', 'color=c=blue:s=320x320:d=1'],
    ...['-map', '0:a', '-map', '1:v', '-frames:v', '1', '-c:v', 'png', '-disposition:v', 'attached_pic'],
    ...['-c:a', 'libmp3lame', '-b:a', '128k', '-id3v2_version', '3'],
    ...tags.flatMap((k) => ['-metadata', `${k}=${PAYLOAD}`]),
    ...['-metadata:s:v', `title=${PAYLOAD}`, file],
  ]);
  return readFile(file);
}

describe('hostile upload on every serving route', () => {
  let t: MusicTestApp;
  let base: string;
  let flow: FlowEvents;
  let worker: WorkerProcess;
  let dir: string;
  let owner: TestUser;
  let mp3: Buffer;
  let browser: TestBrowser;
  let apiKey: string;
  let songId: string;
  let assetId: string;
  let version: { hls_url: string; progressive_url: string; waveform_url: string; artwork_url: string };

  const inject = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: owner.headers, ...(payload ? { payload } : {}) });

  const init = (content_type: string) =>
    inject('POST', '/api/v1/upload/multipart/init', {
      filename: 'hostile.html',
      content_type,
      size: mp3.length,
      sha256: sha256(mp3),
    });

  async function upload(contentType: string) {
    const started = await init(contentType);
    expect(started.statusCode, started.body).toBe(201);
    const answer = started.json();
    const parts = [];
    for (const p of answer.parts) {
      const put = await t.app.inject({
        method: 'PUT',
        url: p.url,
        headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
        payload: slice(mp3, answer.part_size, p.part_number),
      });
      parts.push({ part_number: p.part_number, etag: put.json().etag });
    }
    return inject('POST', '/api/v1/upload/multipart/complete', {
      upload_id: answer.upload_id,
      asset_id: answer.asset_id,
      parts,
    });
  }

  beforeAll(async () => {
    ({ t, base, flow, worker } = await startPipelineApp({ RATE_LIMITS: 'off' }));
    dir = await mkdtemp(join(tmpdir(), 'hostile-'));
    mp3 = await hostileMp3(dir);
    owner = await signupUser(t.app, 'hst');
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (worker) await stopWorkerProcess(worker);
    await flow?.close();
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a document type is refused at init; a declaration the probe contradicts at completion', async () => {
    for (const type of [...DOCUMENT_TYPES, 'text/plain', 'application/javascript']) {
      const res = await init(type);
      expect(res.statusCode, `${type}: ${res.body}`).toBe(415);
      expect(res.json().errors).toEqual([
        { path: '/content_type', message: expect.stringContaining('audio/mpeg') },
      ]);
    }
    const lying = await upload('audio/flac');
    expect(lying.statusCode, lying.body).toBe(422);
    expect(lying.json().errors[0]).toEqual({
      path: '/content_type',
      message: 'was declared audio/flac, but the file is audio/mpeg',
    });
    // "Unknown" (a browser's empty File.type) is typed by the probe.
    const unknown = await upload('application/octet-stream');
    expect(unknown.statusCode, unknown.body).toBe(200);
    expect(unknown.json().content_type).toBe('audio/mpeg');
  });

  it('every route that sends the stored bytes answers a media type, nosniff, the media CSP', async () => {
    const done = await upload('audio/mpeg');
    expect(done.statusCode, done.body).toBe(200);
    assetId = done.json().asset_id;
    expect(done.json().content_type).toBe('audio/mpeg');
    const trackId = await readyTrack(t, flow, owner, assetId, { title: 'Hostile', visibility: 'unlisted' });
    const ready = (await inject('GET', `/api/v1/tracks/${trackId}`)).json();
    expect(ready.current_version.status, JSON.stringify(ready)).toBe('ready');
    version = ready.current_version;
    expect(version.artwork_url).toEqual(expect.any(String));
    const key = await inject('POST', '/api/v1/me/client-keys', { name: 'hostile test' });
    apiKey = key.json().key;
    const songs = await fetch(`${base}/rest/search3?f=json&query=Hostile&apiKey=${apiKey}`);
    songId = ((await songs.json()) as any)['subsonic-response'].searchResult3.song[0].id; // eslint-disable-line @typescript-eslint/no-explicit-any

    for (const stored of ['audio/mpeg', ...DOCUMENT_TYPES]) {
      // A row stored before the rule (or written by other means) keeps a hostile declaration.
      await t.connections.prisma.asset.update({ where: { id: assetId }, data: { contentType: stored } });
      for (const url of await servingUrls()) {
        const res = await fetch(url, { redirect: 'follow' });
        const label = `${stored} ${url.replace(base, '')}`;
        expect(res.status, label).toBeLessThan(300);
        const type = res.headers.get('content-type') ?? '';
        expect(MEDIA_TYPES.has(type), `${label}: ${type}`).toBe(true);
        expect(res.headers.get('x-content-type-options'), label).toBe('nosniff');
        expect(res.headers.get('content-security-policy'), label).toBe(MEDIA_CSP);
        if (/\/rest\/(download|stream\?.*format=raw)/.test(url)) {
          expect(res.headers.get('content-disposition'), label).toMatch(
            /^attachment; filename\*=UTF-8''hostile\.html$/,
          );
          expect(type, label).toBe(stored === 'audio/mpeg' ? 'audio/mpeg' : 'application/octet-stream');
        }
        await res.arrayBuffer();
      }
    }
    await t.connections.prisma.asset.update({ where: { id: assetId }, data: { contentType: 'text/html' } });
  }, 300_000);

  /** Every URL that answers the track's stored bytes, on REST and /rest. */
  async function servingUrls(): Promise<string[]> {
    const rest = (endpoint: string, extra = '') =>
      `${base}/rest/${endpoint}?id=${songId}&apiKey=${apiKey}${extra}`;
    const master = await (await fetch(`${base}${version.hls_url}`)).text();
    const variant = master.split('\n').find((l) => l !== '' && !l.startsWith('#'))!;
    const variantUrl = new URL(variant, `${base}${version.hls_url}`).href;
    const playlist = await (await fetch(variantUrl)).text();
    const segments = playlist
      .split('\n')
      .flatMap((l) =>
        l.startsWith('#EXT-X-MAP:URI="')
          ? [l.slice(16, l.indexOf('"', 16))]
          : l && !l.startsWith('#')
            ? [l]
            : [],
      )
      .slice(0, 2)
      .map((s) => new URL(s, variantUrl).href);
    const datUrl = version.waveform_url.replace(/\.json$/, '.dat');
    return [
      rest('stream', '&format=raw'),
      rest('download'),
      rest('stream'),
      rest('stream', '&timeOffset=1'),
      rest('getCoverArt'),
      rest('hls.m3u8'),
      `${base}${version.hls_url}`,
      variantUrl,
      ...segments,
      `${base}${version.progressive_url}`,
      `${base}${version.artwork_url}`,
      `${base}${version.waveform_url}`,
      ...(datUrl !== version.waveform_url ? [`${base}${datUrl}`] : []),
    ];
  }

  it('in Chromium, logged in by cookie, no served URL runs the payload and no script sees a token', async () => {
    const { page } = await browser.page();
    const pwned: string[] = [];
    browser.context.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/pwned')) pwned.push(r.url());
    });
    await page.goto(`${base}/login`);
    await page.getByLabel('Handle or email').fill(owner.handle);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${base}/users/${owner.handle}`);
    const cookies = await browser.context.cookies(base);
    expect(cookies.find((c) => c.name === '__Host-music_session')).toMatchObject({
      httpOnly: true,
      secure: true,
      sameSite: 'Strict',
    });
    expect(await page.evaluate(() => document.cookie)).toBe('');
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(stored).not.toContain(owner.token.split('.')[0]!);

    // The stored type is text/html (a pre-rule row): the old chain ran the script right here.
    let downloads = 0;
    for (const url of await servingUrls()) {
      const opened = await browser.page();
      opened.page.on('download', () => downloads++);
      // An attachment starts a download instead of a navigation (goto rejects): nothing renders.
      const shown = await opened.page.goto(url).catch(() => null);
      if (shown) {
        const type = await opened.page.evaluate(() => document.contentType as string);
        expect(['text/html', 'application/xhtml+xml', 'image/svg+xml'], `${url}: ${type}`).not.toContain(
          type,
        );
      }
      await opened.page.close();
    }
    expect(downloads).toBeGreaterThanOrEqual(2);
    // The sandboxed documents could not reach the network even if script ran; none asked.
    expect(pwned).toEqual([]);
  }, 180_000);
});

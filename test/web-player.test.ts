/**
 * The music player in a real browser (Debian's Chromium, headless) against the real music-api
 * and a real music-worker process: sign up, upload a generated 20-second file, see it process,
 * play 2 s over HLS, comment at 0:05 on the waveform, find the track on the profile and, after a
 * play and a rollup, on trending. An interrupted upload resumes after a reload with only the
 * missing parts. No console errors, every control named, 375 px fits.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { analyticsService } from './helpers/music-services.js';
import {
  generateAudio,
  startWorkerProcess,
  stopWorkerProcess,
  type WorkerProcess,
} from './helpers/music-worker.js';
import {
  buildWebApp,
  horizontalOverflow,
  launchBrowser,
  listen,
  screenshots,
  unnamedControls,
  type TestBrowser,
} from './helpers/browser.js';

// Callbacks run inside the page: its DOM globals, typed loosely here (the Node project has no DOM lib).
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const HTMLMediaElement: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

describe('music player in Chromium', () => {
  let t: MusicTestApp;
  let worker: WorkerProcess;
  let base: string;
  let browser: TestBrowser;
  let dir: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const built = await buildWebApp('player');
    cleanup = () => built.cleanup();
    dir = await mkdtemp(join(tmpdir(), 'player-audio-'));
    t = await createMusicTestApp({ RATE_LIMITS: 'off' }, { webRoot: built.root });
    base = await listen(t.app);
    worker = await startWorkerProcess(t.config);
    browser = await launchBrowser();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    if (worker) await stopWorkerProcess(worker);
    await t?.close();
    await cleanup?.();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function signUp(page: Page, handle: string): Promise<void> {
    await page.goto(`${base}/signup`);
    await page.getByLabel('Handle (3–30 letters, digits or _)').fill(handle);
    await page.getByLabel('Email').fill(`${handle}@example.org`);
    await page.getByLabel('Display name (optional)').fill(`DJ ${handle}`);
    await page.getByLabel('Password (at least 10 characters)').fill('correct horse battery staple 42');
    await page.getByRole('button', { name: 'Create the account' }).click();
    await page.waitForURL(`${base}/users/${handle}`);
  }

  it('sign up, upload 20 s, processing, plays 2 s, comment at 0:05 on the waveform, profile, trending', async () => {
    const file = join(dir, 'sine-20s.flac');
    await generateAudio(file, { seconds: 20, sineSeconds: 12 });
    const { page, errors } = await browser.page();
    const handle = `dj_${Date.now().toString(36)}`;

    // A bad sign-up shows the server's messages next to the fields.
    await page.goto(`${base}/signup`);
    await page.getByLabel('Handle (3–30 letters, digits or _)').fill('x');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password (at least 10 characters)').fill('short');
    await page.getByRole('button', { name: 'Create the account' }).click();
    await page.locator('#f-handle-error:not(:empty)').waitFor();
    expect(await page.locator('#f-handle').getAttribute('aria-invalid')).toBe('true');
    expect(await unnamedControls(page)).toEqual([]);
    await screenshots(page, 'player-signup-errors');

    await signUp(page, handle);
    await page.getByRole('link', { name: 'Upload' }).click();
    await page.getByLabel('Audio file').setInputFiles(file);
    await page.getByLabel('Title').fill('Twenty seconds of sine');
    expect(await unnamedControls(page)).toEqual([]);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.waitForURL(/\/tracks\/[0-9a-f-]{36}$/, { timeout: 60_000 });
    const trackId = page.url().split('/').pop()!;

    // The version transcodes in the worker: the page says so, then shows the player.
    const processing = page.getByTestId('processing');
    await processing.waitFor();
    expect(await processing.textContent()).toMatch(/^Processing \((pending|processing)\)/);
    await screenshots(page, 'player-processing');
    const audio = page.getByTestId('audio');
    await audio.waitFor({ timeout: 180_000 });
    expect(['native-hls', 'hls.js']).toContain(await audio.getAttribute('data-engine'));
    await page.locator('.waveform canvas').waitFor();

    await page.evaluate(() => document.querySelector('audio').play());
    await page.waitForFunction(() => document.querySelector('audio').currentTime >= 2, undefined, {
      timeout: 60_000,
    });
    expect(await page.evaluate(() => document.querySelector('audio').paused)).toBe(false);
    await page.evaluate(() => document.querySelector('audio').pause());

    await page.getByLabel('Comment', { exact: true }).fill('The fade starts here');
    await page.getByLabel('At (m:ss)').fill('0:05');
    await page.getByRole('button', { name: 'Post the comment' }).click();
    const marker = page.locator('.waveform .marker[data-comment-ms="5000"]');
    await marker.waitFor();
    expect(await marker.getAttribute('aria-label')).toBe(
      `Comment by ${handle} at 0:05: The fade starts here`,
    );
    expect(await unnamedControls(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await horizontalOverflow(page)).toEqual([]);
    await screenshots(page, 'player-track');

    await page.getByRole('link', { name: handle }).click();
    await page.waitForURL(`${base}/users/${handle}`);
    await page.locator(`li[data-track="${trackId}"] a`).waitFor();
    await screenshots(page, 'player-profile');

    // The play was counted when playback started; a rollup puts the track on trending.
    await analyticsService(t, () => Date.now()).rollup(Date.now());
    await page.getByRole('link', { name: 'Trending' }).click();
    await page.locator(`li[data-track="${trackId}"] a`).waitFor();
    expect(await page.locator(`li[data-track="${trackId}"] a`).textContent()).toBe('Twenty seconds of sine');
    expect(await unnamedControls(page)).toEqual([]);
    await screenshots(page, 'player-trending');
    // The bad sign-up's 400 is the one failed request Chromium logs.
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
    await page.close();

    // A browser without native HLS: the page loads hls.js (MediaSource, blob: media under the CSP).
    const second = await browser.page();
    await second.page.addInitScript(() => {
      const original = HTMLMediaElement.prototype.canPlayType;
      HTMLMediaElement.prototype.canPlayType = function (type: string) {
        return /mpegurl/i.test(type) ? '' : original.call(this, type);
      };
    });
    await second.page.goto(`${base}/tracks/${trackId}`);
    const player = second.page.getByTestId('audio');
    await player.waitFor();
    expect(await player.getAttribute('data-engine')).toBe('hls.js');
    await second.page.evaluate(() => document.querySelector('audio').play());
    await second.page.waitForFunction(() => document.querySelector('audio').currentTime >= 2, undefined, {
      timeout: 60_000,
    });
    expect(await second.page.evaluate(() => document.querySelector('audio').src)).toMatch(/^blob:/);
    expect(second.errors).toEqual([]);
    await second.page.close();
  }, 420_000);

  it('an interrupted upload resumes after a reload, sending only the missing parts', async () => {
    // 200 s of 16-bit stereo WAV is 35.3 MB: three parts at the default 16 MiB.
    const file = join(dir, 'sine-200s.wav');
    await generateAudio(file, { seconds: 200, codec: 'pcm_s16le' });
    const { page, errors } = await browser.page();
    const handle = `up_${Date.now().toString(36)}`;
    await signUp(page, handle);
    await page.goto(`${base}/upload`);
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT') puts.push(new URL(r.url()).pathname.split('/').pop()!);
    });
    // The connection drops while part 2 is sent.
    await page.route('**/parts/2', (route) => route.abort('connectionreset'));
    await page.getByLabel('Audio file').setInputFiles(file);
    await page.getByLabel('Title').fill('Resumed');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'the connection failed while sending a part' }).waitFor();
    await page.unroute('**/parts/2');

    await page.reload();
    await page.getByTestId('resume-notice').waitFor();
    expect(await page.getByTestId('resume-notice').textContent()).toMatch(
      /An upload of sine-200s\.wav was interrupted/,
    );
    expect(await page.getByLabel('Title').inputValue()).toBe('Resumed');
    const before = puts.length;
    await page.getByLabel('Audio file').setInputFiles(file);
    await page.getByRole('button', { name: 'Resume the upload' }).click();
    await page.waitForURL(/\/tracks\/[0-9a-f-]{36}$/, { timeout: 60_000 });
    // Parts 1 and 3 were stored before the drop; after the reload only part 2 is sent.
    expect(puts.slice(0, before).sort()).toEqual(['1', '2', '3']);
    expect(puts.slice(before)).toEqual(['2']);
    await page.getByTestId('processing').waitFor();
    expect(errors.filter((e) => !/ERR_CONNECTION_RESET|Failed to load resource/.test(e))).toEqual([]);
    await page.close();
  }, 300_000);
});

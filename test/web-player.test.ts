/**
 * The music player in a real browser (Debian's Chromium, headless) against the real music-api
 * and a real music-worker process, as an artist and a listener use it: sign up (field errors in
 * words), upload a tagged 20-second file (title from its tags), see it process, play over HLS,
 * comment at 0:05, the track's context (artist, album, date, genre, counts), profile and
 * trending; sessions in and out on two devices; a track page viewed 30 times from one address
 * with every part working; search -> artist -> album -> track; my tracks with a private one;
 * edit, hide, delete, add a version and switch (a comment on v1 is not drawn on a shorter v2); an
 * interrupted upload resumes, a refused one is not offered again. On every page: no console
 * error, every control named, 375 px fits; screenshots at 375 and 1280 px.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from '../src/core/rate-limit/memory-store.js';
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
declare const localStorage: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const PASSWORD = 'correct horse battery staple 42';
/** What no message a person reads may contain: a regular expression, ajv's or ffprobe's wording. */
const MACHINE_TEXT =
  /\^|\$|\[A-Z|\\u|pattern|must match|equal to constant|see errors|0x[0-9a-f]{6}|undefined/;

describe('music player in Chromium', () => {
  let t: MusicTestApp;
  let worker: WorkerProcess;
  let base: string;
  let browser: TestBrowser;
  let dir: string;
  let webRoot: string;
  let cleanup: () => Promise<void>;
  const handle = `dj_${Date.now().toString(36)}`;
  let trackId = '';

  beforeAll(async () => {
    const built = await buildWebApp('player');
    webRoot = built.root;
    cleanup = () => built.cleanup();
    dir = await mkdtemp(join(tmpdir(), 'player-audio-'));
    t = await createMusicTestApp({ RATE_LIMITS: 'off' }, { webRoot });
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

  /** The checks every page gets: every control named, nothing sticks out at 375 px, screenshots. */
  async function checkPage(page: Page, name: string): Promise<void> {
    expect(await unnamedControls(page), name).toEqual([]);
    const size = page.viewportSize();
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await horizontalOverflow(page), name).toEqual([]);
    if (size) await page.setViewportSize(size);
    await screenshots(page, name);
  }

  async function signUp(page: Page, who: string): Promise<void> {
    await page.goto(`${base}/signup`);
    await page.getByLabel('Handle (3–30 letters, digits or _)').fill(who);
    await page.getByLabel('Email').fill(`${who}@example.org`);
    await page.getByLabel('Display name (optional)').fill(`DJ ${who}`);
    await page.getByLabel('Password (at least 10 characters)').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create the account' }).click();
    await page.waitForURL(`${base}/users/${who}`);
  }

  async function logIn(page: Page, who: string, at = base): Promise<void> {
    await page.goto(`${at}/login`);
    await page.getByLabel('Handle or email').fill(who);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${at}/users/${who}`);
  }

  /** Logged in as `who`: the menu names them and My tracks reads their tracks with the session. */
  async function expectLoggedIn(page: Page, who: string): Promise<void> {
    await page.getByRole('link', { name: who, exact: true }).waitFor();
    await page.getByRole('link', { name: 'My tracks' }).click();
    await page.locator('[data-part="my-tracks"][data-state="ready"]').waitFor();
  }

  async function logOut(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${base}/`);
    await page.getByRole('link', { name: 'Log in' }).waitFor();
    // The server forgot the session too: My tracks asks to log in.
    await page.goto(`${base}/me/tracks`);
    await page.getByText('to see your tracks.').waitFor();
  }

  it('sign up (errors in words), upload a tagged file, processing, play, comment at 0:05, the track in context, profile, trending', async () => {
    const file = join(dir, 'sine-20s.flac');
    await generateAudio(file, {
      seconds: 20,
      sineSeconds: 12,
      cover: true,
      tags: {
        title: 'Twenty seconds of sine',
        artist: 'Nina Vale',
        album: 'Night Lines',
        date: '2019-05-02',
        genre: 'Ambient',
      },
    });
    const { page, errors } = await browser.page();

    // A bad sign-up: every field's message in words, nothing a machine wrote.
    await page.goto(`${base}/signup`);
    await page.getByLabel('Handle (3–30 letters, digits or _)').fill('x!');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password (at least 10 characters)').fill('short');
    await page.getByRole('button', { name: 'Create the account' }).click();
    await page.locator('#f-handle-error:not(:empty)').waitFor();
    const said = {
      handle: await page.locator('#f-handle-error').textContent(),
      email: await page.locator('#f-email-error').textContent(),
      password: await page.locator('#f-password-error').textContent(),
      general: await page.getByRole('alert').first().textContent(),
    };
    expect(said.handle).toMatch(/it must be 3 to 30 letters \(a to z\), digits or underscores/);
    expect(said.email).toMatch(/it must be an email address, like name@example.org/);
    expect(said.password).toMatch(/is 5 characters long; at least 10 are required/);
    expect(said.general).toMatch(/^Check handle, email and password/);
    for (const text of Object.values(said)) expect(text).not.toMatch(MACHINE_TEXT);
    expect(await page.locator('#f-handle').getAttribute('aria-invalid')).toBe('true');
    await checkPage(page, 'player-signup-errors');

    await signUp(page, handle);
    await checkPage(page, 'player-profile-empty');
    await page.getByRole('link', { name: 'Upload' }).click();
    await page.getByLabel('Audio file').setInputFiles(file);
    // The title comes from the file name at once, and from the file's tags once it is read.
    expect(await page.getByLabel('Title').inputValue()).toBe('sine-20s');
    await checkPage(page, 'player-upload');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.waitForURL(/\/tracks\/[0-9a-f-]{36}$/, { timeout: 60_000 });
    trackId = page.url().split('/').pop()!;

    // The version transcodes in the worker: the page says so, then shows the player.
    const processing = page.getByTestId('processing');
    await processing.waitFor();
    expect(await processing.textContent()).toMatch(/^Processing version 1 \((pending|processing)\)/);
    await screenshots(page, 'player-processing');
    const audio = page.getByTestId('audio');
    await audio.waitFor({ state: 'attached', timeout: 180_000 });
    expect(['native-hls', 'hls.js']).toContain(await audio.getAttribute('data-engine'));
    await page.locator('.waveform canvas').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Twenty seconds of sine');

    // One volume control: the page's own (the audio element has no controls of its own).
    expect(await page.locator('audio[controls]').count()).toBe(0);
    expect(await page.getByRole('slider', { name: 'Volume' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Play Twenty seconds of sine' }).click();
    await page.waitForFunction(() => document.querySelector('audio').currentTime >= 2, undefined, {
      timeout: 60_000,
    });
    await page.getByRole('button', { name: 'Pause Twenty seconds of sine' }).click();

    await page.getByLabel('Comment', { exact: true }).fill('The fade starts here');
    await page.getByLabel('At (m:ss)').fill('0:05');
    await page.getByRole('button', { name: 'Post the comment' }).click();
    const marker = page.locator('.waveform .marker[data-comment-ms="5000"]');
    await marker.waitFor();
    expect(await marker.getAttribute('aria-label')).toBe(
      `Comment by ${handle} at 0:05: The fade starts here`,
    );
    const box = await marker.boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(24);
    expect(box!.height).toBeGreaterThanOrEqual(24);

    // The track in context: artist and album (links), date, genre, uploader and counts.
    await page.reload();
    await page.locator('[data-part="comments"][data-state="ready"]').waitFor();
    expect(await page.getByTestId('artist').textContent()).toBe('by Nina Vale');
    expect(await page.getByTestId('album').textContent()).toBe('from Night Lines · 2019-05-02 · Ambient');
    expect(await page.getByTestId('counts').textContent()).toBe('1 play · 1 comment');
    expect(await page.getByRole('img', { name: 'Cover of Twenty seconds of sine' }).count()).toBe(1);
    await checkPage(page, 'player-track');

    await page.getByRole('link', { name: handle, exact: true }).click();
    await page.waitForURL(`${base}/users/${handle}`);
    await page.locator(`li[data-track="${trackId}"] a`).waitFor();
    await checkPage(page, 'player-profile');

    // The play was counted when playback started; a rollup puts the track on trending.
    await analyticsService(t, () => Date.now()).rollup(Date.now());
    await page.getByRole('link', { name: 'Trending' }).click();
    await page.locator(`li[data-track="${trackId}"] a`).waitFor();
    expect(await page.locator(`li[data-track="${trackId}"] a`).textContent()).toBe('Twenty seconds of sine');
    await checkPage(page, 'player-trending');

    // The home page: new uploads beside trending.
    await page.getByRole('link', { name: 'Music', exact: true }).click();
    await page.locator(`[data-part="new"] li[data-track="${trackId}"]`).waitFor();
    await page.locator(`[data-part="trending"] li[data-track="${trackId}"]`).waitFor();
    await checkPage(page, 'player-home');
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
    await player.waitFor({ state: 'attached' });
    expect(await player.getAttribute('data-engine')).toBe('hls.js');
    await second.page.evaluate(() => document.querySelector('audio').play());
    await second.page.waitForFunction(() => document.querySelector('audio').currentTime >= 2, undefined, {
      timeout: 60_000,
    });
    expect(await second.page.evaluate(() => document.querySelector('audio').src)).toMatch(/^blob:/);
    expect(second.errors).toEqual([]);
    await second.page.close();
  }, 420_000);

  it('sign up -> log out -> log in -> log out, on two devices', async () => {
    const who = `two_${Date.now().toString(36)}`;
    const device2 = await launchBrowser();
    try {
      const one = await browser.page();
      const two = await device2.page();
      await signUp(one.page, who);
      await expectLoggedIn(one.page, who);
      await logOut(one.page);
      await logIn(one.page, who);
      await expectLoggedIn(one.page, who);
      await checkPage(one.page, 'player-my-tracks-empty');
      // The second device logs in while the first is still in; each leaves on its own.
      await logIn(two.page, who);
      await expectLoggedIn(two.page, who);
      await logOut(two.page);
      await one.page.reload();
      await expectLoggedIn(one.page, who);
      await logOut(one.page);
      await logIn(two.page, who);
      await expectLoggedIn(two.page, who);
      await logOut(two.page);
      await one.page.goto(`${base}/login`);
      await checkPage(one.page, 'player-login');
      expect(one.errors).toEqual([]);
      expect(two.errors).toEqual([]);
      await one.page.close();
    } finally {
      await device2.close();
    }
  }, 120_000);

  it('the server, not localStorage, says who is logged in', async () => {
    const who = `cookie_${Date.now().toString(36)}`;
    const device = await launchBrowser();
    try {
      const one = await device.page();
      await signUp(one.page, who);
      // The cookie stays, the page's note of who is logged in is gone: a new page still shows the user.
      await one.page.evaluate(() => localStorage.clear());
      const two = await device.page();
      await two.page.goto(`${base}/`);
      await expectLoggedIn(two.page, who);
      await two.page.goto(`${base}/me/tracks`);
      await two.page.locator('[data-part="my-tracks"][data-state="ready"]').waitFor();
      // The reverse: a note of a user but no cookie shows "Log in".
      await device.context.clearCookies();
      const three = await device.page();
      await three.page.goto(`${base}/`);
      await three.page.getByRole('link', { name: 'Log in' }).waitFor();
      expect(await three.page.getByRole('link', { name: who, exact: true }).count()).toBe(0);
      expect([...one.errors, ...two.errors, ...three.errors]).toEqual([]);
    } finally {
      await device.close();
    }
  }, 120_000);

  it('a public track page viewed 30 times from one address: every part works each time', async () => {
    // The seed's limits, on a clock a listener's pace moves: a page every 2 s (30 a minute).
    let now = Date.now();
    const limited = await createMusicTestApp(
      { RATE_LIMITS: 'on' },
      { webRoot, dataDir: t.dataDir, rateLimitStore: new MemoryRateLimitStore(() => now) },
    );
    const listener = await launchBrowser();
    try {
      const at = await listen(limited.app);
      const { page, errors } = await listener.page();
      for (let view = 1; view <= 30; view++) {
        now += 2000;
        await page.goto(`${at}/tracks/${trackId}`);
        await page.locator('[data-part="comments"][data-state="ready"]').waitFor();
        await page.locator('.waveform .marker[data-comment-ms="5000"]').waitFor();
        await page.getByTestId('audio').waitFor({ state: 'attached' });
        await page.getByRole('button', { name: 'Play Twenty seconds of sine' }).waitFor();
        expect(await page.getByTestId('counts').textContent()).toMatch(/^\d+ plays? · 1 comment$/);
        expect(await page.getByRole('alert').filter({ hasText: /\S/ }).count(), `view ${view}`).toBe(0);
      }
      // The page as a listener (not logged in) sees it: no comment form, no owner's tools.
      expect(await page.locator('[data-part="manage"]').count()).toBe(0);
      await checkPage(page, 'player-track-listener');
      expect(errors).toEqual([]);
    } finally {
      await listener.close();
      await limited.close();
    }
  }, 180_000);

  it('search -> artist -> album -> track', async () => {
    const { page, errors } = await browser.page();
    await page.goto(`${base}/`);
    await page.getByRole('searchbox', { name: 'Search' }).fill('nina');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.waitForURL(`${base}/search?q=nina`);
    await page.locator('[data-part="tracks"][data-state="ready"]').waitFor();
    await page.locator(`[data-part="tracks"] li[data-track="${trackId}"]`).waitFor();
    await checkPage(page, 'player-search');
    await page.locator('[data-part="artists"]').getByRole('link', { name: 'Nina Vale' }).click();
    await page.getByRole('heading', { level: 1, name: 'Nina Vale' }).waitFor();
    await checkPage(page, 'player-artist');
    await page.getByRole('link', { name: 'Night Lines' }).click();
    await page.getByRole('heading', { level: 1, name: 'Night Lines' }).waitFor();
    await checkPage(page, 'player-album');
    await page.getByRole('link', { name: 'Twenty seconds of sine' }).click();
    await page.waitForURL(`${base}/tracks/${trackId}`);
    await page.getByTestId('audio').waitFor({ state: 'attached' });
    // A page that does not exist says so, as a page.
    await page.goto(`${base}/no/such/page`);
    await page.getByRole('heading', { name: 'No such page' }).waitFor();
    await checkPage(page, 'player-not-found');
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('my tracks with a private one; edit, hide, add a version and switch (v1 comments not on a shorter v2), delete', async () => {
    const short = join(dir, 'short-2s.flac');
    await generateAudio(short, { seconds: 2 });
    const { page, errors } = await browser.page();
    page.on('dialog', (dialog) => void dialog.accept());
    // The devices test left this browser logged out: the artist logs back in.
    await logIn(page, handle);

    // A private upload: typed title, visibility chosen, description.
    await page.goto(`${base}/upload`);
    await page.getByLabel('Audio file').setInputFiles(short);
    await page.getByLabel('Title').fill('Secret sketch');
    await page.getByLabel('Description (optional)').fill('Not for anyone yet.');
    await page.getByLabel('Who can listen').selectOption('private');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.waitForURL(/\/tracks\/[0-9a-f-]{36}$/, { timeout: 60_000 });
    const secretId = page.url().split('/').pop()!;
    await page.getByRole('link', { name: 'My tracks' }).click();
    const secret = page.locator(`li[data-track="${secretId}"][data-visibility="private"]`);
    await secret.waitFor();
    await page.locator(`li[data-track="${trackId}"][data-visibility="public"]`).waitFor();
    await checkPage(page, 'player-my-tracks');

    // A new, 2-second version of the 20-second track: processed, then current.
    await page.goto(`${base}/tracks/${trackId}`);
    await page.getByLabel('New version (audio file)').setInputFiles(short);
    await page.getByRole('button', { name: 'Add the version' }).click();
    await page
      .getByTestId('processing')
      .filter({ hasText: 'Processing version 2' })
      .waitFor({ timeout: 60_000 });
    await checkPage(page, 'player-track-owner-processing');
    const current = page.locator('.versions li:has(strong)');
    await current.filter({ hasText: 'Version 2' }).waitFor({ timeout: 180_000 });
    await page.locator('[data-part="comments"][data-state="ready"]').waitFor();
    // The comment at 0:05 belongs to version 1: not drawn on the 2-second version 2.
    expect(await page.locator('.waveform .marker').count()).toBe(0);
    expect(await page.locator('li[data-comment]').textContent()).toContain('(on another version)');
    // A version without a cover keeps the track's.
    expect(await page.getByRole('img', { name: 'Cover of Twenty seconds of sine' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Make version 1 the current one' }).click();
    await current.filter({ hasText: 'Version 1' }).waitFor();
    await page.locator('.waveform .marker[data-comment-ms="5000"]').waitFor();

    // The author edits the comment.
    await page.getByRole('button', { name: /^Edit the comment/ }).click();
    await page.getByLabel('Edit the comment').fill('The fade starts right here');
    await page.getByRole('button', { name: 'Save the comment' }).click();
    await page
      .locator('li[data-comment]')
      .filter({ hasText: 'The fade starts right here (edited)' })
      .waitFor();

    // Edit and hide: a new title, unlisted, a date a person can fix.
    await page.getByLabel('Title', { exact: true }).fill('Twenty seconds, edited');
    await page.getByLabel('Who can listen').selectOption('unlisted');
    await page.getByLabel('Date (a year, 2020-07 or 2020-07-14)').fill('2020-13-45');
    await page.getByRole('button', { name: 'Save the changes' }).click();
    const dateError = page.locator('#f-date-error');
    await dateError.filter({ hasText: /\S/ }).waitFor();
    expect(await dateError.textContent()).toMatch(
      /it must be a date: a year \(2020\), a month \(2020-07\) or a day/,
    );
    expect(await dateError.textContent()).not.toMatch(MACHINE_TEXT);
    await page.getByLabel('Date (a year, 2020-07 or 2020-07-14)').fill('2020-07-14');
    await page.getByRole('button', { name: 'Save the changes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Twenty seconds, edited' }).waitFor();
    expect(await page.getByText(/ · unlisted$/).count()).toBe(1);
    await checkPage(page, 'player-track-owner');

    // Delete the private one, after the confirmation.
    await page.goto(`${base}/tracks/${secretId}`);
    await page.getByRole('button', { name: 'Delete this track' }).click();
    await page.waitForURL(`${base}/me/tracks`);
    await page.locator(`li[data-track="${trackId}"][data-visibility="unlisted"]`).waitFor();
    expect(await secret.count()).toBe(0);
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
    await page.close();
  }, 420_000);

  it('an interrupted upload resumes after a reload, sending only the missing parts; a refused one is not offered again', async () => {
    // 200 s of 16-bit stereo WAV is 35.3 MB: three parts at the default 16 MiB.
    const file = join(dir, 'sine-200s.wav');
    await generateAudio(file, { seconds: 200, codec: 'pcm_s16le' });
    const { page, errors } = await browser.page();
    // Chromium stalls intercepted uploads (page.route below) while a websocket is open: this page polls instead.
    await page.addInitScript(() => Reflect.deleteProperty(globalThis, 'WebSocket'));
    const who = `up_${Date.now().toString(36)}`;
    await signUp(page, who);
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

    // A file the server refuses (not audio): said in words, and never offered for resuming.
    const fake = join(dir, 'not-audio.mp3');
    await writeFile(fake, 'This is a text file with an .mp3 name.\n'.repeat(200));
    await page.goto(`${base}/upload`);
    await page.getByLabel('Audio file').setInputFiles(fake);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const refusal = page.getByRole('alert').filter({ hasText: /could not be read as audio/ });
    await refusal.waitFor();
    expect(await refusal.textContent()).not.toMatch(MACHINE_TEXT);
    await page.reload();
    await page.getByRole('button', { name: 'Upload', exact: true }).waitFor();
    expect(await page.getByTestId('resume-notice').count()).toBe(0);
    expect(
      errors.filter((e) => !/ERR_CONNECTION_RESET|Failed to load resource|status of 422/.test(e)),
    ).toEqual([]);
    await page.close();
  }, 300_000);
});

/**
 * The music player in a real browser (Debian's Chromium, headless) against the real music-api
 * and a real music-worker process, following one artist's track through its life: sign up
 * (field errors in words), upload a tagged 20-second file (title from its tags), see it process,
 * play over HLS, comment at 0:05, the track's context (artist, album, date, genre, counts),
 * profile and trending; the track page viewed 30 times from one address with every part
 * working; search -> artist -> album -> track; my tracks with a private one; edit, hide, delete,
 * add a version and switch (a comment on v1 is not drawn on a shorter v2). On every page: no
 * console error, every control named, 375 px fits; screenshots at 375 and 1280 px. The tests
 * run in order: the later ones use the track (and its comment) the first one uploads.
 * Sessions and interrupted uploads: test/web-player-sessions.test.ts.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from '../src/core/rate-limit/memory-store.js';
import { launchBrowser, listen, screenshots, type TestBrowser } from './helpers/browser.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { analyticsService } from './helpers/music-services.js';
import { generateAudio } from './helpers/music-worker.js';
import {
  accountSteps,
  checkPage,
  MACHINE_TEXT,
  startPlayerFixture,
  type PlayerFixture,
} from './helpers/player-fixture.js';

// Callbacks run inside the page: its DOM globals, typed loosely here (the Node project has no DOM lib).
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const HTMLMediaElement: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

describe('music player in Chromium', () => {
  let f: PlayerFixture;
  let t: MusicTestApp;
  let base: string;
  let browser: TestBrowser;
  let dir: string;
  let webRoot: string;
  const { signUp, logIn } = accountSteps(() => base);
  const handle = `dj_${Date.now().toString(36)}`;
  let trackId = '';
  // Other files share the library: a 404 for something not of this track (another file's track,
  // deleted while a list shows it) is not this page's error.
  const ownErrors = (errors: string[]): string[] =>
    errors.filter((e) => !/status of 404/.test(e) || e.includes(trackId));

  beforeAll(async () => {
    f = await startPlayerFixture({ worker: true });
    ({ t, base, browser, dir, webRoot } = f);
  }, 240_000);

  afterAll(async () => {
    await f?.close();
  });

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
    await page.getByRole('link', { name: 'Upload', exact: true }).click();
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
    await page.locator('.waveform canvas').waitFor({ timeout: 180_000 });
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Twenty seconds of sine');
    await page.getByRole('button', { name: 'Play Twenty seconds of sine' }).click();
    const audio = page.locator('audio[data-engine]');
    await audio.waitFor({ state: 'attached' });
    expect(['native-hls', 'hls.js']).toContain(await audio.getAttribute('data-engine'));
    // One volume control: the player bar's (the one audio element has no controls of its own).
    expect(await page.locator('audio').count()).toBe(1);
    expect(await page.locator('audio[controls]').count()).toBe(0);
    expect(await page.getByRole('slider', { name: 'Volume' }).count()).toBe(1);
    await page.waitForFunction(() => document.querySelector('audio').currentTime >= 2, undefined, {
      timeout: 60_000,
    });
    await page.getByRole('button', { name: 'Pause Twenty seconds of sine' }).click();

    await page.getByLabel('Comment', { exact: true }).fill('The fade starts here');
    await page.getByLabel('At (m:ss)').fill('0:05');
    await page.getByRole('button', { name: 'Post the comment' }).click();
    const marker = page.locator('.waveform .marker[data-comment-ms="5000"]');
    await marker.waitFor();
    // The counts follow what happened on this page, without a reload.
    await page.waitForFunction(() =>
      /· 1 comment$/.test(document.querySelector('[data-testid="counts"]').textContent),
    );
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
    await page.locator(`li[data-track="${trackId}"] a.row-title`).waitFor();
    await checkPage(page, 'player-profile');

    // The play was counted when playback started; a rollup puts the track on trending.
    await analyticsService(t, () => Date.now()).rollup(Date.now());
    await page.getByRole('link', { name: 'Trending' }).click();
    await page.locator(`li[data-track="${trackId}"] a.row-title`).waitFor();
    expect(await page.locator(`li[data-track="${trackId}"] a.row-title`).textContent()).toBe(
      'Twenty seconds of sine',
    );
    await checkPage(page, 'player-trending');

    // The home page: new uploads beside trending.
    await page.getByRole('link', { name: 'Music', exact: true }).click();
    await page.locator(`[data-part="new"] li[data-track="${trackId}"]`).waitFor();
    await page.locator(`[data-part="trending"] li[data-track="${trackId}"]`).waitFor();
    await checkPage(page, 'player-home');
    // The bad sign-up's 400 is the one failed request Chromium logs.
    expect(ownErrors(errors).filter((e) => !/status of 400/.test(e))).toEqual([]);
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
    await second.page.getByRole('button', { name: 'Play Twenty seconds of sine' }).click();
    const player = second.page.locator('audio[data-engine]');
    await player.waitFor({ state: 'attached' });
    expect(await player.getAttribute('data-engine')).toBe('hls.js');
    await second.page.waitForFunction(() => document.querySelector('audio').currentTime >= 2, undefined, {
      timeout: 60_000,
    });
    expect(await second.page.evaluate(() => document.querySelector('audio').src)).toMatch(/^blob:/);
    expect(second.errors).toEqual([]);
    await second.page.close();
  }, 420_000);

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
    await page.getByRole('link', { name: /Night Lines/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Night Lines' }).waitFor();
    await checkPage(page, 'player-album');
    await page.locator('main').getByRole('link', { name: 'Twenty seconds of sine' }).click();
    await page.waitForURL(`${base}/tracks/${trackId}`);
    await page.getByRole('heading', { level: 1, name: 'Twenty seconds of sine' }).waitFor();
    await page.getByTestId('play').waitFor();
    // A page that does not exist says so, as a page.
    await page.goto(`${base}/no/such/page`);
    await page.getByRole('heading', { name: 'No such page' }).waitFor();
    await checkPage(page, 'player-not-found');
    expect(ownErrors(errors)).toEqual([]);
    await page.close();
  }, 120_000);

  it('my tracks with a private one; edit, hide, add a version and switch (v1 comments not on a shorter v2), delete', async () => {
    const short = join(dir, 'short-2s.flac');
    await generateAudio(short, { seconds: 2 });
    const { page, errors } = await browser.page();
    page.on('dialog', (dialog) => void dialog.accept());
    // The artist logs in again (a new session beside the one sign-up started).
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

    // One title everywhere: a version whose file has another title and no date or genre tags.
    const retagged = join(dir, 'retagged-3s.flac');
    await generateAudio(retagged, {
      seconds: 3,
      tags: { title: 'A title from the tags', artist: 'Nina Vale', album: 'Night Lines' },
    });
    await page.getByLabel('New version (audio file)').setInputFiles(retagged);
    await page.getByRole('button', { name: 'Add the version' }).click();
    await current.filter({ hasText: 'Version 3' }).waitFor({ timeout: 180_000 });
    await page.goto(`${base}/search?q=edited`);
    const found = page.locator(`[data-part="tracks"] li[data-track="${trackId}"]`);
    await found.waitFor();
    expect(await found.innerText()).toContain('Twenty seconds, edited');
    expect(await page.locator('main').innerText()).not.toContain('A title from the tags');
    // The album page, from the track page's own link.
    await page.goto(`${base}/tracks/${trackId}`);
    await page.getByRole('heading', { level: 1, name: 'Twenty seconds, edited' }).waitFor();
    await page.locator('main').getByRole('link', { name: 'Night Lines', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Night Lines' }).waitFor();
    await page.locator('main').getByRole('link', { name: 'Twenty seconds, edited' }).waitFor();
    const albumText = await page.locator('main').innerText();
    expect(albumText).not.toContain('A title from the tags');
    // The year (edited to 2020-07-14) and the genre of version 1's tags are not wiped.
    expect(albumText).toMatch(/ · 2020 · Ambient/);

    // Delete the private one, after the confirmation.
    await page.goto(`${base}/tracks/${secretId}`);
    await page.getByRole('button', { name: 'Delete this track' }).click();
    await page.waitForURL(`${base}/me/tracks`);
    await page.locator(`li[data-track="${trackId}"][data-visibility="unlisted"]`).waitFor();
    expect(await secret.count()).toBe(0);
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
    await page.close();
  }, 420_000);
});

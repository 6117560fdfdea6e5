/**
 * The player's live updates in Chromium: upload a file, watch its processing steps appear on
 * the track page as the worker publishes them (no polling while the socket is open), play it;
 * a comment by someone else shows as a notification; with websockets unavailable the track
 * page falls back to polling and still reaches the player.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebApp, launchBrowser, listen, screenshots, type TestBrowser } from './helpers/browser.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, uploadViaApi, type TestUser } from './helpers/music-domain.js';
import { generateAudio, WorkerFleet } from './helpers/music-worker.js';

// Callbacks run inside the page: its DOM globals, typed loosely here (the Node project has no DOM lib).
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
declare const MutationObserver: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const PASSWORD = 'correct horse battery staple 42';

describe('player live updates in Chromium', () => {
  let t: MusicTestApp;
  let fleet: WorkerFleet;
  let base: string;
  let browser: TestBrowser;
  let dir: string;
  let cleanup: () => Promise<void>;
  let fan: TestUser;
  const handle = `live_${Date.now().toString(36)}`;

  beforeAll(async () => {
    const built = await buildWebApp('player');
    cleanup = () => built.cleanup();
    dir = await mkdtemp(join(tmpdir(), 'player-live-'));
    t = await createMusicTestApp({ RATE_LIMITS: 'off' }, { webRoot: built.root });
    base = await listen(t.app);
    fleet = new WorkerFleet(t.config);
    await fleet.launch();
    browser = await launchBrowser();
    fan = await signupUser(t.app, 'fan');
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await fleet?.stopAll();
    await t?.close();
    await cleanup?.();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('upload, watch the steps appear live, play; a comment arrives as a notification', async () => {
    const file = join(dir, 'sine-20s.flac');
    await generateAudio(file, { seconds: 20, cover: true, tags: { title: 'Live sine' } });
    const { page, errors } = await browser.page();
    await page.goto(`${base}/signup`);
    await page.getByLabel('Handle (3–30 letters, digits or _)').fill(handle);
    await page.getByLabel('Email').fill(`${handle}@example.org`);
    await page.getByLabel('Password (at least 10 characters)').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create the account' }).click();
    await page.waitForURL(`${base}/users/${handle}`);
    await page.getByRole('link', { name: 'Upload', exact: true }).click();
    await page.locator('html[data-live="open"]').waitFor();
    // Every step line the page shows, in the order it showed them (the page is one document).
    await page.evaluate(() => {
      window.stepLog = [];
      // A finished step's line that later vanished from a list still shown (each list keeps its lines).
      window.stepsGone = [];
      const done = new Map();
      new MutationObserver(() => {
        for (const list of document.querySelectorAll('[data-testid="live-steps"]')) {
          const had = done.get(list) ?? new Set();
          done.set(list, had);
          const now = new Set([...list.querySelectorAll('li')].map((li) => li.dataset.step));
          for (const step of had) if (!now.has(step)) window.stepsGone.push(step);
          for (const li of list.querySelectorAll('li'))
            if (li.dataset.status === 'done') had.add(li.dataset.step);
        }
        for (const li of document.querySelectorAll('[data-testid="live-steps"] li')) {
          const entry = `${li.dataset.step}:${li.dataset.status}`;
          if (window.stepLog.at(-1) !== entry) window.stepLog.push(entry);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    const trackFetches: string[] = [];
    page.on('request', (r) => {
      if (/\/api\/v1\/tracks\/[0-9a-f-]{36}$/.test(r.url())) trackFetches.push(r.url());
    });
    await page.getByLabel('Audio file').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.waitForURL(/\/tracks\/[0-9a-f-]{36}$/, { timeout: 60_000 });
    const trackId = page.url().split('/').pop()!;
    await page.getByTestId('processing').waitFor();
    await page.locator('[data-testid="live-steps"] li').first().waitFor({ timeout: 60_000 });
    await screenshots(page, 'player-live-steps');
    const started = Date.now();
    // The Play button comes with the ready version.
    await page.getByRole('button', { name: 'Play Live sine' }).waitFor({ timeout: 180_000 });
    const log = (await page.evaluate(() => window.stepLog)) as string[];
    expect(log.at(-1), log.join(' ')).toBe('ready:done');
    for (const step of ['transcoding', 'waveform', 'loudness'])
      expect(
        log.some((e) => e.startsWith(`${step}:`)),
        `${step} in ${log.join(' ')}`,
      ).toBe(true);
    expect(log.filter((e) => e.startsWith('transcoding:')).at(-1)).toBe('transcoding:done');
    expect(await page.evaluate(() => window.stepsGone)).toEqual([]);
    // While live, the page did not poll every 2 s: the first load, the reload at ready, rare checks.
    const seconds = (Date.now() - started) / 1000;
    expect(trackFetches.length).toBeLessThanOrEqual(3 + Math.ceil(seconds / 10));

    await page.getByRole('button', { name: 'Play Live sine' }).click();
    await page.waitForFunction(() => document.querySelector('audio').currentTime >= 1, undefined, {
      timeout: 60_000,
    });

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/comments',
      headers: fan.headers,
      payload: { track_id: trackId, body: 'Lovely fade' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const note = page.locator('[data-testid="notifications"] [data-type="comment.created"]');
    await note.waitFor();
    expect(await note.textContent()).toContain('commented on Live sine: Lovely fade');
    await screenshots(page, 'player-live-notification');
    expect(errors).toEqual([]);
    await page.close();
  }, 300_000);

  it('falls back to polling when the websocket cannot open', async () => {
    const { page, errors } = await browser.page();
    // A browser (or proxy) without websockets: every attempt fails at once.
    await page.addInitScript(() => {
      window.WebSocket = class {
        constructor() {
          throw new Error('websockets are blocked here');
        }
      };
    });
    const cookies = await browser.context.cookies(base);
    const token = cookies.find((c) => c.name === '__Host-music_session')!.value;
    const owner: TestUser = { id: '', handle, token, headers: { authorization: `Bearer ${token}` } };
    const file = join(dir, 'sine-6s.flac');
    await generateAudio(file, { seconds: 6 });
    const assetId = await uploadViaApi(t.app, owner, await readFile(file));
    const track = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tracks',
      headers: owner.headers,
      payload: { title: 'Polled sine' },
    });
    const trackId = track.json<{ id: string }>().id;
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/v1/tracks/${trackId}/versions`,
      headers: owner.headers,
      payload: { asset_id: assetId },
    });
    expect(added.statusCode, added.body).toBe(202);
    await page.goto(`${base}/tracks/${trackId}`);
    await page.getByRole('button', { name: 'Play Polled sine' }).waitFor({ timeout: 180_000 });
    expect(await page.locator('html').getAttribute('data-live')).not.toBe('open');
    expect(errors.filter((e) => !/websockets are blocked/.test(e))).toEqual([]);
    await page.close();
  }, 240_000);
});

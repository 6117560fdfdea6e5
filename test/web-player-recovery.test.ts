/**
 * The player when the network or the server gets in the way, in Chromium against the real
 * music-api: offline for a moment (CDP), the bar says so and the track goes on from where it
 * stopped once the connection is back, and a page opened offline says so in words; a session
 * ended from another device does not stop the music on this one; a queued track deleted by its
 * artist is taken off the queue with a word when its turn comes; a part of a page the rate
 * limiter refused (many listeners behind one address) says when to try again, in a person's
 * words, and its "Try again" loads it.
 */
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from './helpers/browser.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { PASSWORD, signupUser, type TestUser } from './helpers/music-domain.js';
import { checkPage, startPlayerFixture, type PlayerFixture } from './helpers/player-fixture.js';
import { logInAs, playableTrack } from './helpers/playable-tracks.js';

// Callbacks run inside the page: its DOM globals, typed loosely here (the Node project has no DOM lib).
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
declare const PopStateEvent: any;
declare const localStorage: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

let f: PlayerFixture;
let artist: TestUser;
let trackId = '';
let goneId = '';
let stillId = '';

beforeAll(async () => {
  f = await startPlayerFixture({ worker: false });
  artist = await signupUser(f.t.app, 'rec');
  // Long enough that the browser's own HLS still has segments to fetch when the network goes.
  ({ trackId } = await playableTrack(
    f.t,
    artist,
    { title: 'Long Way Round', artist: 'Rec Artist', album: 'Detours' },
    120,
    550,
  ));
  ({ trackId: goneId } = await playableTrack(
    f.t,
    artist,
    { title: 'Soon Gone', artist: 'Rec Artist', album: 'Detours' },
    20,
    660,
  ));
  ({ trackId: stillId } = await playableTrack(
    f.t,
    artist,
    { title: 'Still Here', artist: 'Rec Artist', album: 'Detours' },
    20,
    770,
  ));
}, 240_000);

afterAll(async () => {
  await f?.close();
});

const audioTime = (page: Page): Promise<number> =>
  page.evaluate(() => document.querySelector('audio').currentTime as number);

async function playTrack(page: Page): Promise<void> {
  await page.goto(`${f.base}/tracks/${trackId}`);
  await page.getByRole('button', { name: 'Play Long Way Round', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('audio').currentTime > 1, undefined, {
    timeout: 30_000,
  });
}

/** Waits until the audio plays past `seconds` (it only moves while it plays). */
async function playsPast(page: Page, seconds: number): Promise<void> {
  await page.waitForFunction(
    (t: number) => {
      const audio = document.querySelector('audio');
      return !audio.paused && audio.currentTime > t;
    },
    seconds,
    { timeout: 60_000 },
  );
}

/** A page by the app's own router (the audio plays on), as its links go. */
async function visit(page: Page, path: string): Promise<void> {
  await page.evaluate((to: string) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

const setOffline = (cdp: CDPSession, offline: boolean): Promise<unknown> =>
  cdp.send('Network.emulateNetworkConditions', {
    offline,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });

describe('the player when the network or the server gets in the way', () => {
  it('offline for a moment: the bar says so, a page says so in words, and the track goes on where it stopped', async () => {
    const { page, errors } = await f.browser.page(375);
    await playTrack(page);
    const cdp = await page.context().newCDPSession(page);
    await setOffline(cdp, true);
    const problem = page.getByTestId('player-problem');
    // The next segment the browser fetches fails: the bar says why nothing plays.
    await problem.filter({ hasText: 'Offline: the track goes on when the connection is back.' }).waitFor({
      timeout: 60_000,
    });
    const stoppedAt = await audioTime(page);

    // A page opened now says what happened, not fetch's "Failed to fetch".
    await page.getByTestId('player-bar').getByRole('link', { name: 'Rec Artist' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toBe(
      'The server could not be reached: check your connection, then try again.',
    );
    await checkPage(page, 'recovery-offline');

    await setOffline(cdp, false);
    await playsPast(page, stoppedAt + 1);
    expect(await problem.textContent()).toBe('');
    await cdp.detach();
    // The failed loads while offline are the browser's own console lines; nothing else.
    expect(errors.filter((e) => !/ERR_INTERNET_DISCONNECTED/.test(e))).toEqual([]);
    await page.close();
  }, 180_000);

  it('a session ended from another device: the music on this one plays on', async () => {
    const listener = await signupUser(f.t.app, 'lis');
    const { page } = await f.browser.page();
    await logInAs(page, f.base, listener);
    await playTrack(page);
    // The other device: a login of its own ends every other session of this listener.
    const other = await f.t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { login: listener.handle, password: PASSWORD },
    });
    const headers = { authorization: `Bearer ${other.json<{ token: string }>().token}` };
    const list = await f.t.app.inject({ method: 'GET', url: '/api/v1/me/sessions', headers });
    const { sessions } = list.json<{ sessions: { id: string; current: boolean }[] }>();
    const buffered = await page.evaluate(() => {
      const b = document.querySelector('audio').buffered;
      return b.length ? (b.end(b.length - 1) as number) : 0;
    });
    for (const s of sessions.filter((s) => !s.current)) {
      const ended = await f.t.app.inject({ method: 'DELETE', url: `/api/v1/me/sessions/${s.id}`, headers });
      expect(ended.statusCode, ended.body).toBe(204);
    }
    // Past what was buffered when the session ended: segments fetched after it play too.
    await playsPast(page, buffered + 2);
    await page.close();
  }, 180_000);

  it('a queued track its artist deleted: taken off the queue with a word, the next one plays; its page says so', async () => {
    const { page, errors } = await f.browser.page(375);
    // The browser is shared with the tests above: this queue starts empty.
    await page.goto(`${f.base}/search`);
    await page.evaluate(() => localStorage.removeItem('music.queue'));
    await playTrack(page);
    await visit(page, `/tracks/${goneId}`);
    await page.getByRole('button', { name: 'Play next' }).click();
    await visit(page, `/tracks/${stillId}`);
    await page.getByRole('button', { name: 'Add to queue' }).click();
    const bar = page.getByTestId('player-bar');
    await bar.getByRole('button', { name: 'Queue (3)' }).waitFor();
    const deleted = await f.t.app.inject({
      method: 'DELETE',
      url: `/api/v1/tracks/${goneId}`,
      headers: artist.headers,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);

    await bar.getByRole('button', { name: 'Next track' }).click();
    await page.waitForFunction(
      (id: string) => {
        const audio = document.querySelector('audio');
        return audio.dataset.track === id && !audio.paused && audio.currentTime > 0.2;
      },
      stillId,
      { timeout: 30_000 },
    );
    expect(await page.getByTestId('player-problem').textContent()).toBe(
      '“Soon Gone” is no longer available (deleted or made private): taken off the queue.',
    );
    await bar.getByRole('button', { name: 'Queue (2)' }).click();
    expect(
      await page
        .locator('.queue-list li')
        .evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { track: string } }).dataset.track)),
    ).toEqual([trackId, stillId]);
    await checkPage(page, 'recovery-deleted-in-queue');

    // Its old link: the tab says there is no such track, not the title of the page before.
    await visit(page, `/tracks/${goneId}`);
    await page.getByText('No such track, or it is private.').waitFor();
    expect(await page.title()).toBe('No such track · Music');
    expect(errors.filter((e) => !e.includes(`/api/v1/tracks/${goneId}`))).toEqual([]);
    await page.close();
  }, 120_000);

  describe('behind a rate limiter', () => {
    let limited: MusicTestApp;
    let base = '';

    beforeAll(async () => {
      limited = await createMusicTestApp({ RATE_LIMITS: 'on' }, { webRoot: f.webRoot });
      base = await listen(limited.app);
    });

    afterAll(async () => {
      await limited?.close();
    });

    it('a part the limiter refused says when to try again in words, and "Try again" loads it', async () => {
      const { page } = await f.browser.page();
      // Other listeners behind the same address (the page's, 127.0.0.1) spend the api scope.
      let busy = true;
      let spent: () => void = () => undefined;
      const limitMet = new Promise<void>((resolve) => (spent = resolve));
      const others = (async () => {
        while (busy) {
          const res = await limited.app.inject({ method: 'GET', url: '/api/v1/new?limit=1' });
          if (res.statusCode === 429) spent();
        }
      })();
      await limitMet;
      await page.goto(`${base}/`);
      const failed = page.locator(
        '[data-part="trending"][data-state="failed"], [data-part="new"][data-state="failed"]',
      );
      await failed.first().waitFor();
      busy = false;
      await others;
      const part = failed.first();
      const message = await part.getByRole('alert').innerText();
      expect(message).toMatch(
        /could not be loaded: Too many requests from your network just now: try again in \d+ s\.$/,
      );
      expect(message).not.toMatch(/scope/);
      await checkPage(page, 'recovery-rate-limited');
      const name = (await part.getAttribute('data-part'))!;
      // As a person does: waits the seconds the page names, then tries again.
      await page.waitForTimeout(Number(/in (\d+) s/.exec(message)![1]) * 1000);
      await part.getByRole('button', { name: /^Try again/ }).click();
      await page.locator(`[data-part="${name}"][data-state="ready"]`).waitFor();
      await page.close();
    }, 120_000);
  });
});

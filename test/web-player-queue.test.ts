/**
 * The listening app in Chromium (issue 44), at 375 and 1280 px, against the real music-api with
 * payments on (the provider's stand-in): Play on a track page, then four pages by the app's own
 * links while the same <audio> plays on (currentTime only grows); the media session names the
 * track; space and arrows control it outside text fields; an album of three short tracks plays
 * through the queue in order; the queue survives a reload and bad stored data breaks nothing; a
 * playlist made in the page is the one Subsonic's getPlaylists/getPlaylist answers, in the same
 * order; an artist sets a pay-what-you-want price in the page and a listener sees "$3.00" with no
 * minor units anywhere. Every page: no console error, every control named, nothing sideways.
 */
import { SubsonicAPI } from 'subsonic-api';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebApp, launchBrowser, type TestBrowser } from './helpers/browser.js';
import { clientKeys } from './helpers/library-rows.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';
import { openBrowserPaymentsFixture, type PaymentsFixture } from './helpers/payments-fixture.js';
import { checkPage } from './helpers/player-fixture.js';
import { albumIdByName, logInAs, playableTrack } from './helpers/playable-tracks.js';

// Callbacks run inside the page: its DOM globals, typed loosely here (the Node project has no DOM lib).
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
declare const navigator: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

let f: PaymentsFixture;
let browser: TestBrowser;
let base: string;
let cleanup: () => Promise<void>;
let artist: TestUser;
let listener: TestUser;
let longId = '';
const album: string[] = [];

const logIn = (page: Page, who: TestUser): Promise<void> => logInAs(page, base, who);

/** The app's one audio element, marked so a later check knows it is the same one (not a reload). */
async function audioState(
  page: Page,
): Promise<{ same: boolean; time: number; paused: boolean; track: string }> {
  return page.evaluate(() => {
    const audio = document.querySelector('audio');
    return {
      same: audio === window.__firstAudio && window.__noReload === true,
      time: audio.currentTime,
      paused: audio.paused,
      track: audio.dataset.track,
    };
  });
}

beforeAll(async () => {
  const built = await buildWebApp('player');
  cleanup = () => built.cleanup();
  ({ f, base } = await openBrowserPaymentsFixture(built.root));
  artist = await signupUser(f.t.app, 'ada');
  listener = await signupUser(f.t.app, 'lis');
  longId = (
    await playableTrack(f.t, artist, { title: 'Long Walk', artist: 'Ada Lane', album: 'Walks' }, 90, 330)
  ).trackId;
  for (const [i, title] of ['First Light', 'Second Wind', 'Third Rail'].entries())
    album.push(
      (
        await playableTrack(
          f.t,
          artist,
          { title, artist: 'Ada Lane', album: 'Three Short Ones', trackNumber: i + 1 },
          3,
          440 + i * 110,
        )
      ).trackId,
    );
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await f?.close();
  await cleanup?.();
});

describe('the listening app', () => {
  for (const width of [1280, 375]) {
    it(`${width} px: Play on a track page, four pages by the app's links, the same audio plays on`, async () => {
      const { page, errors } = await browser.page(width);
      await page.goto(`${base}/tracks/${longId}`);
      const play = page.getByRole('button', { name: 'Play Long Walk', exact: true });
      await play.waitFor();
      // On a phone Play is above the fold.
      const box = await play.boundingBox();
      expect(box!.y + box!.height).toBeLessThanOrEqual(900);
      await play.click();
      await page.waitForFunction(() => document.querySelector('audio').currentTime > 0.3, undefined, {
        timeout: 30_000,
      });
      await page.evaluate(() => {
        window.__firstAudio = document.querySelector('audio');
        window.__noReload = true;
      });
      expect(await page.evaluate(() => navigator.mediaSession.metadata?.title)).toBe('Long Walk');
      expect(await page.evaluate(() => navigator.mediaSession.metadata?.artist)).toBe('Ada Lane');
      await checkPage(page, `listening-track-${width}`);

      const bar = page.getByTestId('player-bar');
      const steps: [string, () => Promise<void>][] = [
        [
          'search',
          async () => {
            if (width < 640) await page.getByRole('button', { name: 'Menu' }).click();
            await page.getByRole('link', { name: 'Search', exact: true }).click();
            await page.getByLabel('Search', { exact: true }).fill('Ada');
            await page.getByRole('button', { name: 'Find' }).click();
            await page.locator('[data-part="tracks"][data-state="ready"]').waitFor();
          },
        ],
        [
          'artist',
          async () => {
            await bar.getByRole('link', { name: 'Ada Lane' }).click();
            await page.getByRole('heading', { level: 1, name: 'Ada Lane' }).waitFor();
          },
        ],
        [
          'album',
          async () => {
            await page.getByRole('link', { name: /Three Short Ones/ }).click();
            await page.getByRole('heading', { level: 1, name: 'Three Short Ones' }).waitFor();
          },
        ],
        [
          'home',
          async () => {
            await page.getByRole('link', { name: 'Music', exact: true }).click();
            await page.locator('[data-part="new"][data-state="ready"]').waitFor();
          },
        ],
      ];
      let last = (await audioState(page)).time;
      for (const [name, step] of steps) {
        await step();
        // Wait for playback to move on (an event-driven wait), then compare.
        await page.waitForFunction((t: number) => document.querySelector('audio').currentTime > t, last);
        const now = await audioState(page);
        expect(now, name).toMatchObject({ same: true, paused: false, track: longId });
        expect(now.time, name).toBeGreaterThan(last);
        last = now.time;
        await checkPage(page, `listening-${name}-${width}`);
      }
      // The bar stays on screen at the bottom of a scrolled page.
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      const barBox = await bar.boundingBox();
      expect(barBox!.y + barBox!.height).toBeLessThanOrEqual(900 + 1);
      expect(barBox!.y).toBeGreaterThan(0);

      // Space pauses and plays; typed into a text field it is only a space.
      await page.locator('body').click({ position: { x: 5, y: 120 } });
      await page.keyboard.press(' ');
      await page.waitForFunction(() => document.querySelector('audio').paused);
      await page.keyboard.press(' ');
      await page.waitForFunction(() => !document.querySelector('audio').paused);
      await page.getByLabel('Search', { exact: true }).fill('a b');
      expect(await page.evaluate(() => document.querySelector('audio').paused)).toBe(false);
      await bar.getByRole('button', { name: 'Pause' }).click();
      await page.waitForFunction(() => document.querySelector('audio').paused);
      expect(errors).toEqual([]);
      await page.close();
    }, 180_000);
  }

  it('an album of three short tracks plays through the queue in order; the queue survives a reload', async () => {
    const { page, errors } = await browser.page();
    await page.goto(`${base}/albums/${await albumIdByName(f.t.app, 'Three Short Ones')}`);
    await page.getByRole('heading', { level: 1, name: 'Three Short Ones' }).waitFor();
    await page.evaluate(() => {
      window.__played = [];
      document
        .querySelector('audio')
        .addEventListener('playing', (e: { target: { dataset: { track: string } } }) => {
          const id = e.target.dataset.track;
          if (window.__played.at(-1) !== id) window.__played.push(id);
        });
    });
    await page.getByRole('button', { name: 'Play all: Tracks of Three Short Ones' }).click();
    await page
      .waitForFunction(() => window.__played.length === 3, undefined, { timeout: 60_000 })
      .catch(async (err: Error) => {
        const seen = await page.evaluate(() => [
          window.__played,
          document.querySelector('audio').error?.code,
        ]);
        throw new Error(`${err.message}; played ${JSON.stringify(seen)}`);
      });
    expect(await page.evaluate(() => window.__played)).toEqual(album);
    await page.waitForFunction(() => document.querySelector('audio').ended, undefined, { timeout: 30_000 });

    await page.reload();
    const bar = page.getByTestId('player-bar');
    await bar.getByRole('link', { name: 'Third Rail' }).waitFor();
    await bar.getByRole('button', { name: 'Queue (3)' }).click();
    const queued = page.locator('.queue-list li');
    expect(
      await queued.evaluateAll((els) =>
        els.map((e) => (e as unknown as { dataset: { track: string } }).dataset.track),
      ),
    ).toEqual(album);
    // Reorder and remove in the queue.
    await page.getByRole('button', { name: 'Move Third Rail up' }).click();
    // Removing a track before the current one leaves the current one cued where it was.
    const cuedAt = () =>
      page.evaluate(
        () => (JSON.parse(localStorage.getItem('music.queue')!) as { position: number }).position,
      );
    const before = await cuedAt();
    expect(before).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Remove First Light from the queue' }).click();
    expect(await cuedAt()).toBe(before);
    expect(
      await queued.evaluateAll((els) =>
        els.map((e) => (e as unknown as { dataset: { track: string } }).dataset.track),
      ),
    ).toEqual([album[2], album[1]]);
    await checkPage(page, 'listening-queue');
    expect(errors).toEqual([]);

    // Stored data someone broke: the page starts with an empty queue, no error.
    for (const bad of [
      'not json',
      '{"items":[{"id":"<x>","title":5},null],"index":99}',
      '[1,2]',
      '{"items":7}',
    ]) {
      await page.evaluate((value: string) => localStorage.setItem('music.queue', value), bad);
      await page.goto(`${base}/`);
      await page.locator('[data-part="new"][data-state="ready"]').waitFor();
      expect(await page.getByTestId('player-bar').isHidden(), bad).toBe(true);
    }
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('a playlist made in the page is the one Subsonic lists, with the same songs in the same order', async () => {
    const { page, errors } = await browser.page();
    await logIn(page, listener);
    const add = async (id: string, to: string): Promise<void> => {
      await page.goto(`${base}/tracks/${id}`);
      const select = page.getByRole('combobox', { name: /^Playlist to add/ });
      await select.locator(`option:text-is("${to}")`).waitFor({ state: 'attached' });
      await select.selectOption({ label: to });
      await page.getByRole('button', { name: 'Add to playlist' }).click();
      await page.getByRole('status').filter({ hasText: 'Added to' }).waitFor();
    };
    await add(album[0]!, 'A new playlist');
    const link = page.getByRole('status').getByRole('link');
    await link.click();
    await page.waitForURL(/\/playlists\/[0-9a-f-]{36}$/);
    const playlistId = page.url().split('/').pop()!;
    await page.getByLabel('Name').fill('Road trip');
    await page.getByLabel('Public (anyone can listen)').check();
    await page.getByRole('button', { name: 'Save the playlist' }).click();
    await page.getByRole('heading', { level: 1, name: 'Road trip' }).waitFor();
    await add(album[2]!, 'Road trip');
    await add(album[1]!, 'Road trip');
    await add(longId, 'Road trip');
    await page.goto(`${base}/playlists/${playlistId}`);
    await page.getByRole('button', { name: 'Move Second Wind up' }).click();
    await page.locator(`main li[data-track="${album[1]}"]:nth-child(2)`).waitFor();
    await page.getByRole('button', { name: 'Remove Long Walk from the playlist' }).click();
    await page.locator(`main li[data-track="${longId}"]`).waitFor({ state: 'detached' });
    const shown = await page
      .locator('main li[data-track]')
      .evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { track: string } }).dataset.track));
    expect(shown).toEqual(album);
    await checkPage(page, 'listening-playlist');
    await page.goto(`${base}/playlists`);
    await page.locator(`li[data-playlist="${playlistId}"]`).waitFor();
    await checkPage(page, 'listening-playlists');

    const key = (await clientKeys(f.t.app, [listener])).get(listener.id)!;
    const api = new SubsonicAPI({ url: base, auth: { apiKey: key } });
    const lists = await api.getPlaylists();
    expect(lists.playlists.playlist?.map((p) => [p.id, p.name, p.public])).toEqual([
      [playlistId, 'Road trip', true],
    ]);
    const one = await api.getPlaylist({ id: playlistId });
    expect(one.playlist.entry?.map((s) => s.id)).toEqual(album);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('the artist sets pay what you want in the page; a listener sees "$3.00", never minor units', async () => {
    const owner = await browser.page();
    await logIn(owner.page, artist);
    await owner.page.goto(`${base}/tracks/${longId}`);
    const sell = owner.page.locator('[data-part="selling"][data-state="ready"]');
    await sell.waitFor();
    await owner.page.getByLabel('Pay what you want, with a minimum').check();
    await owner.page.getByLabel('Currency').selectOption('usd');
    await owner.page.getByLabel('Minimum price').fill('0.20');
    await owner.page.getByRole('button', { name: 'Save the price' }).click();
    expect(await owner.page.getByTestId('selling-status').textContent()).toBe(
      'The amount must be at least $0.50.',
    );
    await owner.page.getByLabel('Minimum price').fill('3');
    await owner.page.getByLabel('Accept tips').check();
    await owner.page.getByRole('button', { name: 'Save the price' }).click();
    await owner.page.getByTestId('selling-status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await owner.page.getByTestId('selling-status').textContent()).toBe(
      'Saved. Pay what you want, at least $3.00. Tips are on.',
    );
    await checkPage(owner.page, 'listening-manage-price');
    expect(owner.errors).toEqual([]);
    await owner.page.close();

    const { page, errors } = await browser.page(375);
    await logIn(page, listener);
    await page.goto(`${base}/tracks/${longId}`);
    await page.locator('[data-part="payments"][data-state="ready"]').waitFor({ state: 'attached' });
    await page.getByText('at least $3.00').waitFor();
    const field = page.getByLabel('Pay what you want (USD)');
    expect(await field.inputValue()).toBe('3.00');
    await field.fill('2.5');
    await page.getByRole('button', { name: 'Buy' }).click();
    expect(await page.getByTestId('payment-status').textContent()).toBe('The amount must be at least $3.00.');
    const text = await page.locator('body').innerText();
    expect(text).toContain('$3.00');
    expect(text).not.toMatch(/\b300\b|minor units/);
    await checkPage(page, 'listening-buy-pwyw');

    // "3" is three dollars: the checkout charges 300 cents; once paid the page says "You own this".
    await field.fill('3');
    await page.getByRole('button', { name: 'Buy' }).click();
    await page.waitForURL(new RegExp(`^${f.provider.origin}/pay/cs_test_`));
    const session = [...f.provider.sessions.values()].at(-1)!;
    expect([session.amount_total, session.currency]).toEqual([300, 'usd']);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(new RegExp(`^${base}/purchases/[0-9a-f-]{36}\\?outcome=success$`));
    await page.locator('[data-status="paid"]').waitFor({ timeout: 30_000 });
    await page.goto(`${base}/tracks/${longId}`);
    await page.getByTestId('owned').waitFor();
    expect(await page.getByTestId('owned').innerText()).toBe('You own this · Download');
    await checkPage(page, 'listening-owned');
    expect(errors).toEqual([]);
    await page.close();

    // The artist's Sales page: the sale (track, buyer, amount, date) beside the totals, and
    // 24 older tips (paid in 2024) a page at a time.
    await f.t.connections.prisma.purchase.createMany({
      data: Array.from({ length: 24 }, (_, i) => ({
        kind: 'tip' as const,
        status: 'paid' as const,
        buyerUserId: listener.id,
        trackId: longId,
        artistUserId: artist.id,
        currency: 'usd',
        amountMinor: 150,
        paidAt: new Date(Date.UTC(2024, 0, 1 + i)),
      })),
    });
    const sales = await browser.page();
    await logIn(sales.page, artist);
    await sales.page.getByRole('link', { name: 'Sales' }).click();
    await sales.page.locator('[data-part="sale-items"][data-state="ready"]').waitFor();
    const itemRows = sales.page.locator('[data-part="sale-items"] tbody tr');
    expect(await itemRows.count()).toBe(20);
    await sales.page.getByRole('button', { name: 'Older sales and tips' }).click();
    await sales.page.getByText('That is every sale and tip.').waitFor();
    expect(await itemRows.count()).toBe(25);
    expect(await sales.page.locator('tr[data-kind="tip"] [data-testid="amount"]').allInnerTexts()).toEqual(
      Array.from({ length: 24 }, () => '$1.50'),
    );
    expect(await sales.page.getByRole('button', { name: 'Older sales and tips' }).isVisible()).toBe(false);
    const row = sales.page.locator('tr[data-kind="purchase"]');
    expect(await row.innerText()).toMatch(
      new RegExp(`Long Walk\\s+@${listener.handle}\\s+Purchase\\s+\\$3\\.00`),
    );
    expect(await sales.page.locator('tr[data-currency="usd"] [data-testid="net"]').innerText()).toBe('$3.00');
    expect(await sales.page.locator('body').innerText()).not.toMatch(/\b300\b/);
    await checkPage(sales.page, 'listening-sales');
    expect(sales.errors).toEqual([]);
    await sales.page.close();
  }, 120_000);
});

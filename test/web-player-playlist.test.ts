/**
 * A long playlist in the player (Chromium, the real music-api): 600 entries, every tenth a track
 * its artist made private. The page shows the first 100 songs and "More tracks" the next 100,
 * never a hidden one; Play all reads the pages the queue needs (500 songs, the queue's size) and
 * plays the first; Play on a row past that queues from that row. The owner moves and removes rows
 * that "More" loaded, by their positions, and the page keeps as many rows; a row another window
 * moved meanwhile is refused and the page drawn anew, saying so.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupUser, type TestUser } from './helpers/music-domain.js';
import { addReadyVersion } from './helpers/library-rows.js';
import { checkPage, startPlayerFixture, type PlayerFixture } from './helpers/player-fixture.js';
import { logInAs, playableTrack } from './helpers/playable-tracks.js';

// Callbacks run inside the page: its DOM globals, typed loosely here (the Node project has no DOM lib).
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
declare const localStorage: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

interface StoredQueue {
  items: { id: string }[];
  index: number;
}

let f: PlayerFixture;
let artist: TestUser;
let owner: TestUser;
let playlistId = '';
let hiddenId = '';
const tones: string[] = [];
const TITLES = ['Alpha Tone', 'Beta Tone', 'Gamma Tone'];
/** The 600 entries: every tenth the hidden track, the others the three tones in turn. */
const ENTRIES = Array.from({ length: 600 }, (_, i) => i);
const isHidden = (i: number): boolean => i % 10 === 9;
/** The songs the page shows, in order. */
let visible: string[] = [];

const rowIds = (page: Page): Promise<string[]> =>
  page
    .locator('main li[data-track]')
    .evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { track: string } }).dataset.track));
const rowCount = (page: Page, n: number) =>
  page.waitForFunction(
    (count: number) => document.querySelectorAll('main li[data-track]').length === count,
    n,
  );
const storedQueue = (page: Page): Promise<StoredQueue | null> =>
  page.evaluate(() => JSON.parse(localStorage.getItem('music.queue') ?? 'null'));
const titleOf = (id: string): string => TITLES[tones.indexOf(id)]!;

/** The songs the owner's pages show now (the API's walk, 500 a page). */
async function shownByApi(): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = '';
  while (cursor !== null) {
    const res = await f.t.app.inject({
      method: 'GET',
      url: `/api/v1/playlists/${playlistId}/tracks?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      headers: owner.headers,
    });
    const page: { items: { id: string }[]; next_cursor: string | null } = res.json();
    ids.push(...page.items.map((i) => i.id));
    cursor = page.next_cursor;
  }
  return ids;
}

beforeAll(async () => {
  f = await startPlayerFixture({ worker: false });
  artist = await signupUser(f.t.app, 'lpa');
  owner = await signupUser(f.t.app, 'lpo');
  for (const [i, title] of TITLES.entries())
    tones.push(
      (await playableTrack(f.t, artist, { title, artist: 'Tone Band', album: 'Tones' }, 3, 500 + i * 120))
        .trackId,
    );
  const hidden = await f.t.app.inject({
    method: 'POST',
    url: '/api/v1/tracks',
    headers: artist.headers,
    payload: { title: 'Soon Hidden', visibility: 'public' },
  });
  hiddenId = hidden.json<{ id: string }>().id;
  await addReadyVersion(f.t.connections, hiddenId, artist.id, {
    title: 'Soon Hidden',
    artist: 'Tone Band',
    album: 'Tones',
  });
  const made = await f.t.app.inject({
    method: 'POST',
    url: '/api/v1/playlists',
    headers: owner.headers,
    payload: {
      name: 'Long list',
      public: true,
      track_ids: ENTRIES.map((i) => (isHidden(i) ? hiddenId : tones[i % 3]!)),
    },
  });
  expect(made.statusCode, made.body).toBe(201);
  playlistId = made.json<{ id: string }>().id;
  await f.t.connections.prisma.track.update({ where: { id: hiddenId }, data: { visibility: 'private' } });
  visible = ENTRIES.filter((i) => !isHidden(i)).map((i) => tones[i % 3]!);
}, 240_000);

afterAll(async () => {
  await f?.close();
});

describe('a long playlist in the player', () => {
  it('shows a page at a time; Play all queues as much as the queue holds; Play on a later row queues from it', async () => {
    const { page, errors } = await f.browser.page();
    await page.goto(`${f.base}/playlists/${playlistId}`);
    await page.getByRole('heading', { level: 1, name: 'Long list' }).waitFor();
    await page.getByText('540 tracks', { exact: false }).waitFor();
    expect(await rowIds(page)).toEqual(visible.slice(0, 100));
    await checkPage(page, 'listening-long-playlist');

    await page.getByRole('button', { name: 'More tracks' }).click();
    await rowCount(page, 200);
    expect(await rowIds(page)).toEqual(visible.slice(0, 200));

    await page.evaluate(() => {
      window.__played = [];
      document
        .querySelector('audio')
        .addEventListener('playing', (e: { target: { dataset: { track: string } } }) => {
          window.__played.push(e.target.dataset.track);
        });
    });
    await page.getByRole('button', { name: 'Play all: Tracks of Long list' }).click();
    await page.waitForFunction(() => window.__played.length > 0, undefined, { timeout: 30_000 });
    expect(await page.evaluate(() => window.__played[0])).toBe(visible[0]);
    // The rows Play read are shown too: 500, the queue's size, never the hidden track.
    await rowCount(page, 500);
    const queued = await storedQueue(page);
    expect(queued?.items.map((i) => i.id)).toEqual(visible.slice(0, 500));
    expect(queued?.index).toBe(0);
    expect(await rowIds(page)).not.toContain(hiddenId);

    const more = page.getByRole('button', { name: 'More tracks' });
    await more.click();
    await rowCount(page, 540);
    await page.getByRole('status').filter({ hasText: 'That is every track.' }).waitFor();
    expect(await more.isHidden()).toBe(true);
    expect(await rowIds(page)).toEqual(visible);

    // Row 520 is past the queue's 500: the queue holds the last 500 rows, playing row 520.
    const row = page.locator('main li[data-track]').nth(520);
    await row.getByRole('button', { name: `Play ${titleOf(visible[520]!)}`, exact: true }).click();
    await page.waitForFunction(
      () => JSON.parse(localStorage.getItem('music.queue') ?? 'null')?.index === 480,
    );
    const from520 = await storedQueue(page);
    expect(from520?.items.map((i) => i.id)).toEqual(visible.slice(40));
    expect(from520?.items[480]?.id).toBe(visible[520]);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('the owner moves and removes rows "More" loaded; a row moved meanwhile is refused, the page drawn anew', async () => {
    const { page, errors } = await f.browser.page();
    await logInAs(page, f.base, owner);
    await page.goto(`${f.base}/playlists/${playlistId}`);
    await page.getByRole('button', { name: 'More tracks' }).click();
    await rowCount(page, 200);
    const rows = page.locator('main li[data-track]');

    // Row 150 up: the page comes back with 200 rows, row 150 now at 149.
    const up = visible[150]!;
    await rows
      .nth(150)
      .getByRole('button', { name: `Move ${titleOf(up)} up` })
      .click();
    await page.waitForFunction(
      (id: string) => document.querySelectorAll('main li[data-track]')[149]?.dataset.track === id,
      up,
    );
    await rowCount(page, 200);
    const moved = [...visible];
    moved.splice(149, 0, ...moved.splice(150, 1));
    expect(await shownByApi()).toEqual(moved);

    // Row 199 removed: 539 songs, 200 rows shown still.
    await rows
      .nth(199)
      .getByRole('button', { name: `Remove ${titleOf(moved[199]!)} from the playlist` })
      .click();
    await page.getByText('539 tracks', { exact: false }).waitFor();
    await rowCount(page, 200);
    const removed = moved.filter((_, i) => i !== 199);
    expect(await shownByApi()).toEqual(removed);
    expect(await rowIds(page)).toEqual(removed.slice(0, 200));
    // The hidden entries are all still there.
    expect(
      await f.t.connections.prisma.playlistEntry.count({ where: { playlistId, trackId: hiddenId } }),
    ).toBe(60);

    // Another window removes the first song; this page's row 5 is no longer the song at position 5.
    const other = await f.t.app.inject({
      method: 'PATCH',
      url: `/api/v1/playlists/${playlistId}`,
      headers: owner.headers,
      payload: { remove: [{ position: 0, track_id: removed[0] }] },
    });
    expect(other.statusCode, other.body).toBe(200);
    await rows
      .nth(5)
      .getByRole('button', { name: `Move ${titleOf(removed[5]!)} down` })
      .click();
    await page.getByTestId('playlist-status').filter({ hasText: 'The playlist changed meanwhile' }).waitFor();
    expect(await rowIds(page)).toEqual(removed.slice(1, 201));
    expect(await shownByApi()).toEqual(removed.slice(1));
    await checkPage(page, 'listening-long-playlist-owner');
    // The browser logs the refusal it was given; nothing else went wrong.
    expect(errors).toEqual([
      expect.stringMatching(new RegExp(`status of 409 .*/api/v1/playlists/${playlistId}$`)),
    ]);
    await page.close();
  }, 120_000);
});

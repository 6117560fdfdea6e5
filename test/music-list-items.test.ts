/**
 * Every track list the player shows carries what a list plays from: title, artist (name, id,
 * owner's handle), album (id, title), duration in seconds and a cover URL served as covers are;
 * my tracks carry duration and cover; a track's page says whether the caller owns it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, spreadAddress, type TestUser } from './helpers/music-domain.js';
import { addReadyVersion } from './helpers/library-rows.js';
import { uniqueSuffix } from './helpers/music-env.js';

describe('track list items and owned', () => {
  let t: MusicTestApp;
  let artist: TestUser;
  let listener: TestUser;
  let trackId: string;
  let word: string;
  let cover: string;

  const call = (url: string, who?: TestUser) =>
    t.app.inject({
      url,
      remoteAddress: spreadAddress('10.4'),
      ...(who ? { headers: who.headers } : {}),
    });

  beforeAll(async () => {
    t = await createMusicTestApp();
    artist = await signupUser(t.app, 'li');
    listener = await signupUser(t.app, 'lil');
    word = `Zq${uniqueSuffix().replace(/[^a-z0-9]/gi, '')}`;
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tracks',
      headers: artist.headers,
      payload: { title: `${word} Song`, visibility: 'public' },
    });
    trackId = made.json<{ id: string }>().id;
    const versionId = await addReadyVersion(t.connections, trackId, artist.id, {
      title: `${word} Song`,
      artist: `${word} Band`,
      album: `${word} Album`,
    });
    cover = `${versionId}/cover.jpg`;
    await t.connections.prisma.trackVersion.update({ where: { id: versionId }, data: { artworkKey: cover } });
  });
  afterAll(async () => t.close());

  const expectItem = (item: unknown) =>
    expect(item).toMatchObject({
      id: trackId,
      title: `${word} Song`,
      artist_ref: { id: expect.stringMatching(/^ar-/), name: `${word} Band`, handle: artist.handle },
      album_ref: { id: expect.stringMatching(/^al-/), title: `${word} Album` },
      owner: { handle: artist.handle, display_name: expect.any(String) },
      duration_seconds: 60,
      cover_url: `/images/${cover}`,
    });

  it('new uploads, search, artist and album list the same item, with cover and duration', async () => {
    const newest = (await call('/api/v1/new?limit=100')).json<{ items: { id: string }[] }>();
    expectItem(newest.items.find((i) => i.id === trackId));
    const found = (await call(`/api/v1/search?q=${word}`, listener)).json<{ tracks: unknown[] }>();
    expect(found.tracks).toHaveLength(1);
    expectItem(found.tracks[0]);
    const item = found.tracks[0] as { artist_ref: { id: string }; album_ref: { id: string } };
    expectItem((await call(`/api/v1/artists/${item.artist_ref.id}`)).json<{ tracks: unknown[] }>().tracks[0]);
    expectItem((await call(`/api/v1/albums/${item.album_ref.id}`)).json<{ tracks: unknown[] }>().tracks[0]);
    // The cover URL is answered by the covers' route (404 here: the test wrote no bytes, only the key).
    expect((await call(`/images/${cover}`)).statusCode).toBe(404);
  });

  it('my tracks carry duration and cover', async () => {
    const mine = (await call('/api/v1/me/tracks', artist)).json<{ items: { id: string }[] }>();
    expect(mine.items.find((i) => i.id === trackId)).toMatchObject({
      duration_seconds: 60,
      cover_url: `/images/${cover}`,
    });
  });

  it('owned: the artist and a buyer with a paid purchase, not anyone else nor a refunded buyer', async () => {
    const owned = async (who?: TestUser) =>
      (await call(`/api/v1/tracks/${trackId}`, who)).json<{ owned: boolean }>().owned;
    expect(await owned()).toBe(false);
    expect(await owned(artist)).toBe(true);
    expect(await owned(listener)).toBe(false);
    const purchase = await t.connections.prisma.purchase.create({
      data: {
        kind: 'sale',
        status: 'pending',
        buyerUserId: listener.id,
        trackId,
        artistUserId: artist.id,
        currency: 'usd',
        amountMinor: 300,
      },
    });
    expect(await owned(listener)).toBe(false);
    await t.connections.prisma.purchase.update({ where: { id: purchase.id }, data: { status: 'paid' } });
    expect(await owned(listener)).toBe(true);
    await t.connections.prisma.purchase.update({ where: { id: purchase.id }, data: { status: 'refunded' } });
    expect(await owned(listener)).toBe(false);
  });
});

/**
 * One title everywhere (issue 44, item 5): the track's own title is what every list, search and
 * Subsonic answer shows; a new version's tags fill only what the track does not have (a file
 * without date or genre tags never wipes the year or genre); a rename shows on every surface at
 * once. Versions are added through the API from real tagged uploads; the finalize step's
 * "ready and current" is written as the worker writes it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, uploadViaApi, type TestUser } from './helpers/music-domain.js';
import { clientKeys } from './helpers/library-rows.js';
import { uniqueSuffix } from './helpers/music-env.js';
import { taggedSong } from './helpers/subsonic-fixture.js';

interface Item {
  id: string;
  title: string;
  year: number | null;
  genre: string | null;
  album_id: string;
}

describe('one title everywhere', () => {
  let t: MusicTestApp;
  let dir: string;
  let artist: TestUser;
  let key: string;
  const started: string[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'one-title-'));
    t = await createMusicTestApp(
      { RATE_LIMITS: 'off' },
      {
        flowStarter: {
          start: (d) => Promise.resolve(void started.push(d.versionId)),
          startMany: (ds) => Promise.resolve(void started.push(...ds.map((d) => d.versionId))),
          close: () => Promise.resolve(),
        },
      },
    );
    artist = await signupUser(t.app, 'ttl');
    key = (await clientKeys(t.app, [artist])).get(artist.id)!;
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: artist.headers,
      ...(payload ? { payload: payload } : {}),
    });

  /** Uploads a file with these tags as a new version, and finishes it as the worker's finalize does. */
  async function addVersion(trackId: string, tags: Record<string, string>): Promise<string> {
    const assetId = await uploadViaApi(
      t.app,
      artist,
      await taggedSong(dir, `v${uniqueSuffix()}`, tags, false),
    );
    const added = await call('POST', `/api/v1/tracks/${trackId}/versions`, { asset_id: assetId });
    expect(added.statusCode, added.body).toBe(202);
    const versionId = added.json<{ id: string }>().id;
    expect(started).toContain(versionId);
    await t.connections.prisma.trackVersion.update({ where: { id: versionId }, data: { status: 'ready' } });
    await t.connections.prisma.track.update({
      where: { id: trackId },
      data: { currentVersionId: versionId },
    });
    return versionId;
  }

  async function search3(query: string) {
    const url = `/rest/search3.view?apiKey=${encodeURIComponent(key)}&f=json&query=${encodeURIComponent(query)}&albumCount=0&artistCount=0`;
    const body = (await t.app.inject({ url })).json()['subsonic-response'];
    expect(body.status).toBe('ok');
    return (body.searchResult3.song ?? []) as { id: string; title: string; year?: number; genre?: string }[];
  }

  it('rename, then a version with other tags and no date or genre: every surface shows the track’s title, year and genre', async () => {
    const word = `qx${uniqueSuffix()}`;
    const made = await call('POST', '/api/v1/tracks', { title: `First ${word}`, visibility: 'public' });
    const trackId = made.json<{ id: string }>().id;
    const band = `Band ${word}`;
    await addVersion(trackId, {
      title: `Tagged ${word}`,
      artist: band,
      album: `LP ${word}`,
      genre: 'Ambient',
      date: '2019-04-02',
    });

    const renamed = `Renamed ${word}`;
    expect((await call('PATCH', `/api/v1/tracks/${trackId}`, { title: renamed })).statusCode).toBe(200);
    // The new file names another title, and has no date and no genre.
    const second = await addVersion(trackId, {
      title: `Other tag ${word}`,
      artist: band,
      album: `LP ${word}`,
    });

    const page = (await call('GET', `/api/v1/tracks/${trackId}`)).json();
    expect(page.title).toBe(renamed);
    expect(page.current_version.id).toBe(second);
    expect(page.tags).toMatchObject({ year: 2019, genre: 'Ambient', artist: band, album: `LP ${word}` });

    const expected = { id: trackId, title: renamed, year: 2019, genre: 'Ambient' };
    const found = (await call('GET', `/api/v1/search?q=${word}`)).json<{ tracks: Item[] }>().tracks;
    expect(found).toEqual([expect.objectContaining(expected)]);
    expect(
      (await call('GET', `/api/v1/search?q=renamed%20${word}`)).json<{ tracks: Item[] }>().tracks,
    ).toEqual([expect.objectContaining(expected)]);
    const album = (await call('GET', `/api/v1/albums/${found[0]!.album_id}`)).json<{
      tracks: Item[];
      year: number;
      genre: string;
    }>();
    expect(album.tracks).toEqual([expect.objectContaining(expected)]);
    expect(album).toMatchObject({ year: 2019, genre: 'Ambient' });
    const newest = (await call('GET', '/api/v1/new?limit=100')).json<{ items: Item[] }>().items;
    expect(newest.find((i) => i.id === trackId)).toMatchObject(expected);
    const sub = await search3(word);
    expect(sub).toEqual([
      expect.objectContaining({ id: trackId, title: renamed, year: 2019, genre: 'Ambient' }),
    ]);

    // A rename shows at once everywhere, search included (the old title no longer finds it by title).
    const again = `Again ${word}`;
    await call('PATCH', `/api/v1/tracks/${trackId}`, { title: again });
    expect((await search3(`again ${word}`)).map((s) => s.title)).toEqual([again]);
    expect(
      (await call('GET', `/api/v1/search?q=again%20${word}`))
        .json<{ tracks: Item[] }>()
        .tracks.map((s) => s.title),
    ).toEqual([again]);
    expect(await search3(`renamed ${word}`)).toEqual([]);
  });

  it('the first version fills what the track does not have: its tags, but never the title', async () => {
    const word = `qy${uniqueSuffix()}`;
    const made = await call('POST', '/api/v1/tracks', { title: `Mine ${word}`, visibility: 'public' });
    const trackId = made.json<{ id: string }>().id;
    await addVersion(trackId, {
      title: `Theirs ${word}`,
      artist: `Who ${word}`,
      genre: 'Drone',
      date: '2001',
    });
    const [song] = await search3(word);
    expect(song).toMatchObject({ title: `Mine ${word}`, genre: 'Drone', year: 2001 });
  });
});

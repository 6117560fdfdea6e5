/**
 * Playlists of the web player (/api/v1/playlists) are the Subsonic playlists: one data model,
 * the same songs in the same order both ways; the visibility rule of tracks for playlists and for
 * each song in one; bounds and bad inputs answered with a 4xx that names them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubsonicStateRepository } from '../src/music/repositories/subsonic/state-repository.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { apiCaller, signupUser, spreadAddress, type TestUser } from './helpers/music-domain.js';
import { addReadyVersion, clientKeys } from './helpers/library-rows.js';

/** The parts of Subsonic answers these tests read. */
interface SubsonicDoc {
  status: string;
  error?: { code: number };
  playlist: { id: string; entry: { id: string }[] };
  playlists: { playlist: unknown[] };
}

describe('playlists over REST and Subsonic', () => {
  let t: MusicTestApp;
  let owner: TestUser;
  let other: TestUser;
  let keys: Map<string, string>;
  const songs: Record<'a' | 'b' | 'hidden' | 'theirs', string> = { a: '', b: '', hidden: '', theirs: '' };

  beforeAll(async () => {
    t = await createMusicTestApp();
    owner = await signupUser(t.app, 'pl');
    other = await signupUser(t.app, 'plo');
    keys = await clientKeys(t.app, [owner, other]);
    const make = async (who: TestUser, title: string, visibility: string) => {
      const res = await call('POST', '/api/v1/tracks', who, { title, visibility });
      const id = res.json<{ id: string }>().id;
      await addReadyVersion(t.connections, id, who.id, { title, artist: `Band ${title}`, album: 'Mix LP' });
      return id;
    };
    songs.a = await make(owner, 'Alpha', 'public');
    songs.b = await make(owner, 'Beta', 'unlisted');
    songs.hidden = await make(owner, 'Hidden', 'private');
    songs.theirs = await make(other, 'Theirs', 'public');
    const b = await t.connections.prisma.track.findUniqueOrThrow({ where: { id: songs.b } });
    await t.connections.prisma.trackVersion.update({
      where: { id: b.currentVersionId! },
      data: { artworkKey: `${b.currentVersionId!}/cover.jpg` },
    });
  });
  afterAll(async () => t.close());

  // Each call from its own address: this file is about playlists, not the api scope's limit.
  const call = apiCaller(() => t.app, '10.2');

  async function rest(who: TestUser, endpoint: string, params: Record<string, string | string[]> = {}) {
    const url = new URL(`http://localhost/rest/${endpoint}.view`);
    url.searchParams.set('apiKey', keys.get(who.id)!);
    url.searchParams.set('f', 'json');
    for (const [k, v] of Object.entries(params))
      for (const one of Array.isArray(v) ? v : [v]) url.searchParams.append(k, one);
    const res = await t.app.inject({
      method: 'GET',
      url: url.pathname + url.search,
      remoteAddress: spreadAddress('10.3'),
    });
    return res.json<{ 'subsonic-response': SubsonicDoc }>()['subsonic-response'];
  }

  it('a playlist made over REST is the one getPlaylists/getPlaylist list: same songs, same order', async () => {
    const made = await call('POST', '/api/v1/playlists', owner, {
      name: '  Road trip ',
      public: true,
      track_ids: [songs.b, songs.theirs, songs.a, songs.b],
    });
    expect(made.statusCode, made.body).toBe(201);
    const p = made.json();
    expect(p).toMatchObject({
      name: 'Road trip',
      public: true,
      owner: { handle: owner.handle },
      track_count: 4,
      duration_seconds: 240,
      cover_url: expect.stringMatching(/^\/images\/.+\/cover\.jpg$/),
    });
    expect(p.tracks.items.map((x: { id: string }) => x.id)).toEqual([
      songs.b,
      songs.theirs,
      songs.a,
      songs.b,
    ]);
    expect(p.tracks.items[1]).toMatchObject({
      title: 'Theirs',
      artist_ref: { name: 'Band Theirs', handle: other.handle, id: expect.stringMatching(/^ar-/) },
      album_ref: { id: expect.stringMatching(/^al-/), title: 'Mix LP' },
      owner: { handle: other.handle },
      duration_seconds: 60,
      cover_url: null,
    });
    expect(p.tracks.items[0].cover_url).toMatch(/^\/images\//);

    const listed = await rest(owner, 'getPlaylists');
    expect(listed.status).toBe('ok');
    expect(listed.playlists.playlist).toContainEqual(
      expect.objectContaining({ id: p.id, name: 'Road trip', songCount: 4, duration: 240, public: true }),
    );
    const one = await rest(owner, 'getPlaylist', { id: p.id });
    expect(one.playlist.entry.map((e: { id: string }) => e.id)).toEqual([
      songs.b,
      songs.theirs,
      songs.a,
      songs.b,
    ]);

    const mine = (await call('GET', '/api/v1/me/playlists', owner)).json();
    expect(mine.items).toContainEqual(
      expect.objectContaining({
        id: p.id,
        name: 'Road trip',
        track_count: 4,
        duration_seconds: 240,
        public: true,
      }),
    );
    expect(mine.items.find((x: { id: string }) => x.id === p.id).cover_url).toMatch(/^\/images\//);
  });

  it('a playlist made by a Subsonic client is listed and read over REST in its order, and edits go both ways', async () => {
    const made = await rest(owner, 'createPlaylist', {
      name: 'From a phone',
      songId: [songs.a, songs.hidden],
    });
    expect(made.status).toBe('ok');
    const id = made.playlist.id;
    const mine = (await call('GET', '/api/v1/me/playlists', owner)).json();
    expect(mine.items.map((x: { id: string }) => x.id)).toContain(id);
    const read = (await call('GET', `/api/v1/playlists/${id}`, owner)).json();
    expect(read.tracks.items.map((x: { id: string }) => x.id)).toEqual([songs.a, songs.hidden]);
    expect(read.public).toBe(false);

    // Reorder, remove and add in one PATCH; rename and publish.
    const patched = await call('PATCH', `/api/v1/playlists/${id}`, owner, {
      name: 'Renamed',
      public: true,
      track_ids: [songs.theirs, songs.hidden, songs.a],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const sub = await rest(owner, 'getPlaylist', { id });
    expect(sub.playlist).toMatchObject({ name: 'Renamed', public: true, songCount: 3 });
    expect(sub.playlist.entry.map((e: { id: string }) => e.id)).toEqual([
      songs.theirs,
      songs.hidden,
      songs.a,
    ]);

    // Subsonic removes the first entry: REST reads the same.
    expect((await rest(owner, 'updatePlaylist', { playlistId: id, songIndexToRemove: '0' })).status).toBe(
      'ok',
    );
    expect(
      (await call('GET', `/api/v1/playlists/${id}`, owner))
        .json()
        .tracks.items.map((x: { id: string }) => x.id),
    ).toEqual([songs.hidden, songs.a]);

    // The owner's private song in a public playlist stays hidden from everyone else.
    const seen = (await call('GET', `/api/v1/playlists/${id}`, other)).json();
    expect(seen.tracks.items.map((x: { id: string }) => x.id)).toEqual([songs.a]);
    expect(seen.mine).toBe(false);
    const anonymous = await call('GET', `/api/v1/playlists/${id}`);
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json().tracks.items.map((x: { id: string }) => x.id)).toEqual([songs.a]);
    const theirSubsonic = await rest(other, 'getPlaylist', { id });
    expect(theirSubsonic.playlist.entry.map((e: { id: string }) => e.id)).toEqual([songs.a]);

    expect((await call('DELETE', `/api/v1/playlists/${id}`, owner)).statusCode).toBe(204);
    expect((await call('GET', `/api/v1/playlists/${id}`, owner)).statusCode).toBe(404);
    expect(await rest(owner, 'getPlaylist', { id })).toMatchObject({ error: { code: 70 } });
  });

  it('a private playlist is a 404 to others, like every hidden thing; only the owner changes a public one', async () => {
    const priv = (
      await call('POST', '/api/v1/playlists', owner, { name: 'Secret', track_ids: [songs.a] })
    ).json();
    expect(priv.public).toBe(false);
    for (const [method, who] of [
      ['GET', other],
      ['GET', undefined],
      ['PATCH', other],
      ['DELETE', other],
    ] as const) {
      const res = await call(
        method,
        `/api/v1/playlists/${priv.id}`,
        who,
        method === 'PATCH' ? { name: 'x' } : undefined,
      );
      expect(res.statusCode, `${method} ${res.body}`).toBe(404);
      expect(res.json().detail).toBe('No playlist with this id (or it is private).');
    }
    expect(await rest(other, 'getPlaylist', { id: priv.id })).toMatchObject({ error: { code: 70 } });
    expect(
      (await call('GET', '/api/v1/me/playlists', other)).json().items.map((x: { id: string }) => x.id),
    ).not.toContain(priv.id);
    const pub = (await call('POST', '/api/v1/playlists', owner, { name: 'Open', public: true })).json();
    expect(pub).toMatchObject({
      track_count: 0,
      tracks: { items: [], next_cursor: null },
      duration_seconds: 0,
      cover_url: null,
    });
    const forbidden = await call('PATCH', `/api/v1/playlists/${pub.id}`, other, { track_ids: [] });
    expect(forbidden.statusCode).toBe(403);
    expect((await call('DELETE', `/api/v1/playlists/${pub.id}`, other)).statusCode).toBe(403);
    expect(await rest(other, 'deletePlaylist', { id: pub.id })).toMatchObject({ error: { code: 50 } });
    expect((await call('GET', '/api/v1/playlists/not-a-uuid', owner)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/playlists/${randomUUID()}`, owner)).statusCode).toBe(404);
    expect((await call('GET', '/api/v1/me/playlists')).statusCode).toBe(401);
    expect((await call('POST', '/api/v1/playlists', undefined, { name: 'x' })).statusCode).toBe(401);
  });

  it('refuses bad names and tracks one cannot play, naming them; nothing is stored', async () => {
    const before = await t.connections.prisma.playlist.count({ where: { ownerUserId: owner.id } });
    const bad = async (payload: unknown, status: number) => {
      const res = await call('POST', '/api/v1/playlists', owner, payload);
      expect(res.statusCode, res.body).toBe(status);
      return res.json();
    };
    expect((await bad({ name: '   ' }, 400)).errors).toEqual([
      { path: '/name', message: 'must not be blank' },
    ]);
    expect((await bad({ name: 'tab\there' }, 400)).errors[0].path).toBe('/name');
    expect((await bad({ name: 'bell\u0007' }, 400)).errors[0].path).toBe('/name');
    expect((await bad({ name: 'x'.repeat(201) }, 400)).errors[0].path).toBe('/name');
    await bad({ name: '' }, 400);
    await bad({}, 400);
    await bad({ name: 'x', owner: other.id }, 400);
    const missing = randomUUID();
    const unknown = await bad({ name: 'x', track_ids: [songs.a, missing, 'nope'] }, 422);
    expect(unknown.detail).toBe(`These track ids name no track you can play: ${missing}, nope.`);
    expect(unknown.unknown_track_ids).toEqual([missing, 'nope']);
    // Another user's private track is not told apart from one that does not exist.
    const foreign = await call('POST', '/api/v1/playlists', other, { name: 'x', track_ids: [songs.hidden] });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().detail).toBe(`This track id names no track you can play: ${songs.hidden}.`);
    await bad({ name: 'x', track_ids: Array.from({ length: 10_001 }, () => songs.a) }, 400);
    expect(await t.connections.prisma.playlist.count({ where: { ownerUserId: owner.id } })).toBe(before);

    const p = (await call('POST', '/api/v1/playlists', owner, { name: 'Keep', track_ids: [songs.a] })).json();
    const patch = await call('PATCH', `/api/v1/playlists/${p.id}`, owner, { track_ids: [songs.a, missing] });
    expect(patch.statusCode).toBe(422);
    expect((await call('PATCH', `/api/v1/playlists/${p.id}`, owner, {})).statusCode).toBe(400);
    expect(
      (await call('GET', `/api/v1/playlists/${p.id}`, owner))
        .json()
        .tracks.items.map((x: { id: string }) => x.id),
    ).toEqual([songs.a]);
  });

  it('an edit keeps, in place, the entries the owner can no longer see (a track its owner made private)', async () => {
    const res = await call('POST', '/api/v1/tracks', other, { title: 'Soon private', visibility: 'public' });
    const gone = res.json<{ id: string }>().id;
    await addReadyVersion(t.connections, gone, other.id, {
      title: 'Soon private',
      artist: 'Band X',
      album: 'Mix LP',
    });
    const p = (
      await call('POST', '/api/v1/playlists', owner, {
        name: 'Keeps what it hides',
        track_ids: [songs.a, gone, songs.b, songs.a],
      })
    ).json<{ id: string }>();
    const setVisibility = async (visibility: string) =>
      expect((await call('PATCH', `/api/v1/tracks/${gone}`, other, { visibility })).statusCode).toBe(200);
    const stored = async () =>
      (
        await t.connections.prisma.playlistEntry.findMany({
          where: { playlistId: p.id },
          orderBy: { position: 'asc' },
        })
      ).map((e) => e.trackId);
    await setVisibility('private');
    const shown = (await call('GET', `/api/v1/playlists/${p.id}`, owner)).json();
    expect(shown.tracks.items.map((x: { id: string }) => x.id)).toEqual([songs.a, songs.b, songs.a]);

    // The page sends the order of what it shows: moved and one removed.
    const patched = await call('PATCH', `/api/v1/playlists/${p.id}`, owner, {
      track_ids: [songs.b, songs.a],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().tracks.items.map((x: { id: string }) => x.id)).toEqual([songs.b, songs.a]);
    expect(await stored()).toEqual([songs.b, songs.a, gone]);

    // Subsonic's indexes count the songs the client was shown: index 0 is songs.b, not the hidden one.
    expect((await rest(owner, 'getPlaylist', { id: p.id })).playlist.entry.map((e) => e.id)).toEqual([
      songs.b,
      songs.a,
    ]);
    const removed = await rest(owner, 'updatePlaylist', {
      playlistId: p.id,
      songIndexToRemove: '0',
      songIdToAdd: songs.theirs,
    });
    expect(removed.status).toBe('ok');
    expect(await stored()).toEqual([songs.a, gone, songs.theirs]);
    expect((await rest(owner, 'updatePlaylist', { playlistId: p.id, songIndexToRemove: '2' })).error).toEqual(
      {
        code: 0,
        message:
          'Parameter songIndexToRemove: must be a whole number from 0 to 1 in plain decimal digits: no plus sign, spaces, hexadecimal or exponent (got "2")',
      },
    );

    // The entry it followed removed: it comes first.
    expect(
      (await call('PATCH', `/api/v1/playlists/${p.id}`, owner, { track_ids: [songs.theirs] })).statusCode,
    ).toBe(200);
    expect(await stored()).toEqual([gone, songs.theirs]);

    // Public again: back in its place for the playlist's owner.
    await setVisibility('public');
    const back = (await call('GET', `/api/v1/playlists/${p.id}`, owner)).json();
    expect(back.tracks.items.map((x: { id: string }) => x.id)).toEqual([gone, songs.theirs]);
  });

  it('bounds playlists per owner even for creations at the same instant, and concurrent reorders never collide', async () => {
    const state = new SubsonicStateRepository(t.connections.prisma, t.connections.redis, 'unused:');
    const user = await signupUser(t.app, 'plb');
    const made = await Promise.all(
      Array.from({ length: 6 }, (_, i) => state.createPlaylist(user.id, { name: `n${i}`, trackIds: [] }, 3)),
    );
    expect(made.filter((id) => id !== undefined)).toHaveLength(3);
    expect(await t.connections.prisma.playlist.count({ where: { ownerUserId: user.id } })).toBe(3);

    const id = made.find((x) => x !== undefined)!;
    const orders = [
      [songs.a, songs.b],
      [songs.b, songs.a, songs.theirs],
      [songs.theirs],
      [songs.a, songs.a, songs.a, songs.b],
    ];
    await Promise.all(orders.map((trackIds) => state.updatePlaylist(id, { trackIds })));
    const entries = await t.connections.prisma.playlistEntry.findMany({
      where: { playlistId: id },
      orderBy: { position: 'asc' },
    });
    expect(orders.map((o) => o.join())).toContain(entries.map((e) => e.trackId).join());
  });
});

/**
 * The OpenSubsonic API end to end (test/helpers/subsonic-fixture.ts: a real app, the worker as a
 * real process, the npm `subsonic-api` client): a tagged, generated song with a cover goes upload
 * -> ready and is found, streamed, seeked, starred, scrobbled and listed by a client
 * authenticating once with apiKey and once with username + token/salt; every XML answer carries
 * the same data as its JSON twin; the other endpoints; another user's private song stays unseen.
 * Client keys and credentials, which need no song: music-subsonic-keys.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MusicTestApp } from './helpers/music-app.js';
import type { TestUser } from './helpers/music-domain.js';
import {
  TAGS,
  decodedSeconds,
  normalise,
  probe,
  subsonicFixture,
  xmlParser,
} from './helpers/subsonic-fixture.js';

describe('OpenSubsonic API', () => {
  const f = subsonicFixture();
  const { call, client, raw, jsonOf } = f;
  let t: MusicTestApp;
  let base: string;
  let dir: string;
  let owner: TestUser;
  let other: TestUser;
  let key: string;
  let songId: string;
  let privateSongId: string;
  beforeAll(() => {
    ({ t, base, dir, owner, other, key, songId, privateSongId } = f.state());
  });

  it('a client with apiKey and one with username + token find, stream, seek, star, scrobble and list the song', async () => {
    for (const api of [client({ apiKey: key }), client({ username: owner.handle, password: key })]) {
      expect((await api.ping()).status).toBe('ok');

      const found = await api.search3({ query: 'subsonic sin' });
      expect(found.searchResult3.song?.map((s) => s.id)).toEqual([songId]);
      const song = found.searchResult3.song![0]!;
      expect(song).toMatchObject({
        title: TAGS.title,
        artist: TAGS.artist,
        album: TAGS.album,
        genre: TAGS.genre,
        track: 2,
        year: 2024,
        duration: 8,
        coverArt: songId,
      });
      expect(song.replayGain?.trackGain).toEqual(expect.any(Number));

      const artists = await api.getArtists();
      const artist = artists.artists.index
        ?.flatMap((i) => i.artist)
        .find((a) => a?.name === TAGS.album_artist);
      expect(artist).toBeDefined();
      expect((await api.getArtist({ id: artist!.id })).artist.album?.map((a) => a.name)).toEqual([
        TAGS.album,
      ]);

      const album = await api.getAlbum({ id: song.albumId! });
      expect(album.album).toMatchObject({ name: TAGS.album, artist: TAGS.album_artist, songCount: 1 });
      expect(album.album.song?.map((s) => s.id)).toEqual([songId]);

      const newest = await api.getAlbumList2({ type: 'newest' });
      expect(newest.albumList2.album?.[0]?.id).toBe(song.albumId);

      const streamed = await api.stream({ id: songId });
      expect(streamed.status).toBe(200);
      const bytes = Buffer.from(await streamed.arrayBuffer());
      expect(Number(streamed.headers.get('content-length'))).toBe(bytes.length);
      expect(await decodedSeconds(dir, bytes, 'stream.m4a')).toBeCloseTo(8, 0);

      const seeked = await api.stream({ id: songId, timeOffset: 5 });
      expect(seeked.status).toBe(200);
      expect(await decodedSeconds(dir, Buffer.from(await seeked.arrayBuffer()), 'seek.aac')).toBeCloseTo(
        3,
        0,
      );

      const cover = await api.getCoverArt({ id: songId, size: 300 });
      expect(cover.status).toBe(200);
      const image = await probe(dir, Buffer.from(await cover.arrayBuffer()), 'cover.jpg');
      expect(image.streams[0]).toMatchObject({ codec_name: 'mjpeg', width: 300, height: 300 });

      await api.star({ id: songId });
      expect((await api.getStarred2()).starred2.song?.map((s) => s.id)).toEqual([songId]);

      const playlist = await api.createPlaylist({
        name: `Mix ${api === undefined ? '' : 'one'}`,
        songId: [songId],
      });
      expect(playlist.playlist).toMatchObject({ songCount: 1, owner: owner.handle });
      expect((await api.getPlaylist({ id: playlist.playlist.id })).playlist.entry?.map((s) => s.id)).toEqual([
        songId,
      ]);
      expect((await api.getPlaylists()).playlists.playlist?.map((p) => p.id)).toContain(playlist.playlist.id);

      expect((await api.scrobble({ id: songId, submission: true })).status).toBe('ok');
    }
    // Two scrobbles from one address within 30 minutes: the platform's dedup counts one play.
    expect(await t.connections.prisma.playEvent.count({ where: { trackId: songId } })).toBe(1);
  });

  it('stream caps the bitrate (transcoded once, kept), serves the original raw, answers ranges, redirects HLS', async () => {
    const api = client({ apiKey: key });
    const capped = await api.stream({ id: songId, maxBitRate: 32 });
    const bytes = Buffer.from(await capped.arrayBuffer());
    expect(Number(capped.headers.get('content-length'))).toBe(bytes.length);
    expect(await decodedSeconds(dir, bytes, 'capped.m4a')).toBeCloseTo(8, 0);
    const versionId = (await t.connections.prisma.track.findUniqueOrThrow({ where: { id: songId } }))
      .currentVersionId!;
    expect(await t.connections.stores.transcodes.head(`${versionId}/subsonic/aac-32k.m4a`)).toBeDefined();

    const original = await api.stream({ id: songId, format: 'raw' });
    expect(original.headers.get('content-type')).toBe('audio/flac');
    const rawBytes = Buffer.from(await original.arrayBuffer());
    expect(rawBytes.subarray(0, 4).toString('latin1')).toBe('fLaC');

    const ranged = await raw(
      'stream.view',
      { apiKey: key, id: songId },
      { headers: { range: 'bytes=10-19' } },
    );
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-length')).toBe('10');
    const whole = Buffer.from(await (await api.stream({ id: songId })).arrayBuffer());
    expect(ranged.headers.get('content-range')).toBe(`bytes 10-19/${whole.length}`);
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(whole.subarray(10, 20));

    // A seek is transcoded on the fly: estimateContentLength declares a length the body keeps.
    const estimated = await raw('stream.view', {
      apiKey: key,
      id: songId,
      timeOffset: '5',
      estimateContentLength: 'true',
    });
    const estimatedBytes = Buffer.from(await estimated.arrayBuffer());
    expect(Number(estimated.headers.get('content-length'))).toBe(estimatedBytes.length);
    expect(await decodedSeconds(dir, estimatedBytes, 'estimated.aac')).toBeCloseTo(3, 0);

    const download = await api.download({ id: songId });
    expect(download.headers.get('content-disposition')).toContain('attachment');

    const hls = await raw('hls.m3u8', { apiKey: key, id: songId }, { redirect: 'manual' });
    expect(hls.status).toBe(302);
    const location = hls.headers.get('location')!;
    expect(location).toMatch(/^\/media\/hls\/.+master\.m3u8\?sig=/);
    expect((await fetch(new URL(location, base))).status).toBe(200);

    // Streaming is not a play.
    expect(await t.connections.prisma.playEvent.count({ where: { trackId: songId } })).toBe(1);
  });

  it('XML and JSON answers carry the same data for every endpoint used', async () => {
    const api = client({ apiKey: key });
    const song = (await api.getSong({ id: songId })).song;
    // A playlist of its own: the run's other files add and change playlists in the same library.
    const playlistId = (await api.createPlaylist({ name: 'XML and JSON', songId: [songId] })).playlist.id;
    const calls: [string, Record<string, string>][] = [
      ['ping', {}],
      ['getLicense', {}],
      ['getOpenSubsonicExtensions', {}],
      ['getMusicFolders', {}],
      ['getArtists', {}],
      ['getArtist', { id: song.artistId! }],
      ['getAlbum', { id: song.albumId! }],
      ['getSong', { id: songId }],
      ['getAlbumList2', { type: 'alphabeticalByName' }],
      ['search3', { query: 'sine' }],
      ['getStarred2', {}],
      ['getPlaylists', {}],
      ['getPlaylist', { id: playlistId }],
      ['getGenres', {}],
      ['getSong', { id: privateSongId }],
    ];
    for (const [name, params] of calls) {
      const json = await jsonOf(await api.custom(`${name}.view`, params));
      const xmlText = await (await api.custom(name, { ...params, f: 'xml' })).text();
      expect(xmlText, name).toContain('xmlns="http://subsonic.org/restapi"');
      const xml = xmlParser.parse(xmlText)['subsonic-response'][0];
      expect(normalise(xml), name).toEqual(normalise(json));
    }
    const jsonp = await raw('ping.view', { apiKey: key, f: 'jsonp', callback: 'cb' });
    expect(await jsonp.text()).toMatch(/^cb\(\{"subsonic-response":\{"status":"ok".*\}\);$/);
  });

  it('the other endpoints: user, folders, ratings, bookmarks, play queues, playlists, scan, lyrics', async () => {
    const api = client({ apiKey: key });
    const song = (await api.getSong({ id: songId })).song;
    expect(await api.customJSON<unknown>('tokenInfo', {})).toMatchObject({
      tokenInfo: { username: owner.handle },
    });
    expect((await api.getUser({ username: owner.handle })).user).toMatchObject({
      username: owner.handle,
      streamRole: true,
    });
    expect(await api.getUser({ username: other.handle })).toMatchObject({ error: { code: 50 } });
    const dir = await api.getMusicDirectory({ id: song.albumId! });
    expect(dir.directory.child?.map((c) => c.id)).toEqual([songId]);
    // recent: from raw plays (one was scrobbled); frequent: from daily stats (no rollup ran); starred: no album starred yet.
    // Exact lists in the owner's folder ("Mine": their one album), whatever other tests add to the shared library.
    const listed = async (
      type:
        | 'random'
        | 'newest'
        | 'alphabeticalByName'
        | 'alphabeticalByArtist'
        | 'starred'
        | 'frequent'
        | 'recent',
    ) => (await api.getAlbumList({ type, musicFolderId: '2' })).albumList.album?.map((a) => a.id) ?? [];
    for (const type of ['random', 'newest', 'alphabeticalByName', 'alphabeticalByArtist', 'recent'] as const)
      expect(await listed(type), type).toEqual([song.albumId]);
    expect(await listed('starred')).toEqual([]);
    expect(await listed('frequent')).toEqual([]);
    expect(
      (await api.getAlbumList2({ type: 'byYear', fromYear: 2020, toYear: 2025, musicFolderId: '2' }))
        .albumList2.album,
    ).toHaveLength(1);
    expect(
      (await api.getAlbumList2({ type: 'byGenre', genre: TAGS.genre, musicFolderId: '2' })).albumList2.album,
    ).toHaveLength(1);
    expect(await api.getAlbumList2({ type: 'nonsense' as 'newest' })).toMatchObject({ error: { code: 0 } });
    expect(await api.getAlbumList2({} as { type: 'newest' })).toMatchObject({ error: { code: 10 } });
    expect((await api.getSongsByGenre({ genre: TAGS.genre })).songsByGenre.song?.map((s) => s.id)).toEqual([
      songId,
    ]);
    expect((await api.getTopSongs({ artist: TAGS.artist })).topSongs.song?.map((s) => s.id)).toEqual([
      songId,
    ]);

    await api.setRating({ id: songId, rating: 4 });
    expect((await api.getSong({ id: songId })).song.userRating).toBe(4);
    await api.setRating({ id: song.albumId!, rating: 5 });
    expect((await api.getAlbumList2({ type: 'highest' })).albumList2.album?.[0]).toMatchObject({
      id: song.albumId,
      userRating: 5,
    });
    await api.star({ albumId: song.albumId! });
    expect((await api.getStarred()).starred.album?.map((a) => a.id)).toEqual([song.albumId]);
    expect(await listed('starred')).toEqual([song.albumId]);
    await api.unstar({ id: songId, albumId: song.albumId! });
    expect((await api.getStarred2()).starred2.song ?? []).toEqual([]);

    await api.createBookmark({ id: songId, position: 4200, comment: 'chorus' });
    expect((await api.getBookmarks()).bookmarks.bookmark).toEqual([
      expect.objectContaining({
        position: 4200,
        comment: 'chorus',
        entry: expect.objectContaining({ id: songId }),
      }),
    ]);
    await api.deleteBookmark({ id: songId });
    expect((await api.getBookmarks()).bookmarks.bookmark ?? []).toEqual([]);

    await api.savePlayQueue({ id: [songId, songId], current: songId, position: 1500 });
    expect((await api.getPlayQueue()).playQueue).toMatchObject({
      current: songId,
      position: 1500,
      username: owner.handle,
    });
    await api.custom('savePlayQueueByIndex', { id: songId, currentIndex: 0, position: 700 });
    const byIndex = await jsonOf(await api.custom('getPlayQueueByIndex', {}));
    expect(byIndex.playQueueByIndex).toMatchObject({ currentIndex: 0, position: 700 });
    expect(byIndex.playQueueByIndex.entry.map((e: { id: string }) => e.id)).toEqual([songId]);

    const made = (await api.createPlaylist({ name: 'To edit', songId: [songId, songId] })).playlist;
    await api.updatePlaylist({
      playlistId: made.id,
      name: 'Edited',
      comment: 'two',
      public: true,
      songIndexToRemove: [0],
    });
    expect((await api.getPlaylist({ id: made.id })).playlist).toMatchObject({
      name: 'Edited',
      comment: 'two',
      public: true,
      songCount: 1,
    });
    const otherApi = client({
      apiKey: (await call('POST', '/api/v1/me/client-keys', other, { name: 'x' })).json().key,
    });
    expect((await otherApi.getPlaylist({ id: made.id })).playlist.songCount).toBe(1);
    expect(await otherApi.deletePlaylist({ id: made.id })).toMatchObject({ error: { code: 50 } });
    await api.deletePlaylist({ id: made.id });
    expect(await api.getPlaylist({ id: made.id })).toMatchObject({ error: { code: 70 } });

    await api.scrobble({ id: songId, submission: false });
    expect((await otherApi.getNowPlaying()).nowPlaying.entry).toEqual([
      expect.objectContaining({ id: songId, username: owner.handle }),
    ]);
    // The library is every public song of the run's shared database: other files add songs and
    // versions in processing at any moment, so only this file's own song is certain.
    const scan = (await api.getScanStatus()).scanStatus;
    expect(scan).toMatchObject({ scanning: expect.any(Boolean), count: expect.any(Number) });
    expect(scan.count).toBeGreaterThanOrEqual(1);
    expect((await api.startScan()).scanStatus.count).toBeGreaterThanOrEqual(1);
    // A version of the owner's in processing is a scan in progress, whatever the rest holds.
    const { prisma } = t.connections;
    const { currentVersionId } = await prisma.track.findUniqueOrThrow({ where: { id: songId } });
    await prisma.trackVersion.update({ where: { id: currentVersionId! }, data: { status: 'processing' } });
    try {
      expect((await api.getScanStatus()).scanStatus.scanning).toBe(true);
    } finally {
      await prisma.trackVersion.update({ where: { id: currentVersionId! }, data: { status: 'ready' } });
    }
    expect(await jsonOf(await api.custom('getLyricsBySongId', { id: songId }))).toMatchObject({
      status: 'ok',
      lyricsList: {},
    });
    expect(await api.getAvatar({ username: owner.handle }).then((r) => r.json())).toMatchObject({
      'subsonic-response': { error: { code: 70 } },
    });
    expect((await api.search2({ query: 'pure' })).searchResult2.song?.map((s) => s.id)).toEqual([songId]);
  });

  it('POST form bodies work like query strings (formPost)', async () => {
    const res = await fetch(new URL('/rest/search3.view', base), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ apiKey: key, f: 'json', query: 'pure tones' }).toString(),
    });
    const body = await jsonOf(res);
    expect(body.searchResult3.song.map((s: { id: string }) => s.id)).toEqual([songId]);
  });

  it("another user's private song is not found and absent from every list and search", async () => {
    const api = client({ apiKey: key });
    for (const attempt of [
      () => api.getSong({ id: privateSongId }),
      () => api.customJSON('stream', { id: privateSongId }),
      () => api.customJSON('getCoverArt', { id: privateSongId }),
      () => api.star({ id: privateSongId }),
      () => api.scrobble({ id: privateSongId }),
      () => api.createPlaylist({ name: 'x', songId: [privateSongId] }),
    ]) {
      const res: unknown = await attempt();
      expect(res).toMatchObject({ status: 'failed', error: { code: 70 } });
    }
    // The run's other files add public songs at any moment: this file's own are what is certain.
    const everything = await api.search3({ query: '', songCount: 500, albumCount: 500, artistCount: 500 });
    const found = everything.searchResult3.song?.map((s) => s.id) ?? [];
    expect(found).toContain(songId);
    expect(found).not.toContain(privateSongId);
    const names = JSON.stringify([
      everything,
      await api.getArtists(),
      await api.getAlbumList2({ type: 'alphabeticalByName', size: 500 }),
      await api.getRandomSongs({ size: 500 }),
      await api.getGenres(),
      await api.getIndexes(),
    ]);
    expect(names).not.toContain(privateSongId);
    expect(names).not.toContain('Hidden');
    expect(names).not.toContain('Secret');
    // Its owner sees it, in both folders; "Mine" holds only their own.
    const theirs = await call('POST', '/api/v1/me/client-keys', other, { name: 'phone' });
    const otherApi = client({ apiKey: theirs.json().key });
    expect((await otherApi.getSong({ id: privateSongId })).song.title).toBe('Secret Sine');
    const mine = await otherApi.search3({ query: '', musicFolderId: 2 });
    expect(mine.searchResult3.song?.map((s) => s.id)).toEqual([privateSongId]);
  });
});

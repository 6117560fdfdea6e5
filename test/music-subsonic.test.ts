/**
 * The OpenSubsonic API end to end: a real app (PostgreSQL, Redis, ffmpeg), the music-worker
 * as a real process, and the npm `subsonic-api` client. A tagged, generated song with a cover
 * goes upload -> ready and is found, streamed, seeked, starred, scrobbled and listed by a
 * client authenticating once with apiKey and once with username + token/salt; every XML
 * answer carries the same data as its JSON twin. Media lives in the S3 store (the run's s3rver).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { XMLParser } from 'fast-xml-parser';
import { SubsonicAPI } from 'subsonic-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionJobId } from '../src/music/jobs/queues.js';
import type { FlowEvents } from './helpers/flow-events.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { s3StoreEnv, uniqueSuffix } from './helpers/music-env.js';
import { PASSWORD, signupUser, uploadViaApi, type TestUser } from './helpers/music-domain.js';
import { startPipelineApp, stopWorkerProcess, type WorkerProcess } from './helpers/music-worker.js';

const run = promisify(execFile);

const TAGS = {
  title: 'Subsonic Sine',
  artist: 'Sine Players',
  album_artist: 'The Sine Collective',
  album: 'Pure Tones',
  genre: 'Test Tones',
  track: '2/9',
  date: '2024-03-01',
};

/** An 8 s stereo sine, tagged, with an attached cover picture (FLAC). */
async function taggedSong(
  dir: string,
  name: string,
  tags: Record<string, string>,
  cover: boolean,
): Promise<Buffer> {
  const file = join(dir, `${name}.flac`);
  const args = ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=8:sample_rate=44100'];
  if (cover) args.push('-f', 'lavfi', '-i', 'color=c=red:s=640x480:d=1');
  args.push('-map', '0:a', '-ac', '2');
  if (cover) args.push('-map', '1:v', '-frames:v', '1', '-c:v', 'mjpeg', '-disposition:v', 'attached_pic');
  for (const [k, v] of Object.entries(tags)) args.push('-metadata', `${k}=${v}`);
  args.push('-c:a', 'flac', file);
  await run('ffmpeg', args);
  return readFile(file);
}

/** ffprobe's reading of bytes: duration and the first stream's codec and size. */
async function probe(dir: string, bytes: Buffer, name: string) {
  const file = join(dir, name);
  await writeFile(file, bytes);
  // Decode every sample (not the header's duration): the bytes must be playable audio.
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_name,width,height',
    '-of',
    'json',
    file,
  ]);
  const streams = (
    JSON.parse(stdout) as { streams: { codec_name: string; width?: number; height?: number }[] }
  ).streams;
  return { streams };
}

async function decodedSeconds(dir: string, bytes: Buffer, name: string): Promise<number> {
  const file = join(dir, name);
  await writeFile(file, bytes);
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-map', '0:a:0', '-ac', '1', '-ar', '8000', '-f', 's16le', 'pipe:1'],
    {
      encoding: 'buffer',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return stdout.length / 2 / 8000;
}

/** XML and JSON answers reduced to one shape: every value a string, every element a list, empty lists dropped. */
function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === 'xmlns') continue;
      const key = k === '#text' ? 'value' : k;
      if (Array.isArray(v)) {
        if (v.length > 0) out[key] = v.map(normalise);
      } else if (typeof v === 'object' && v !== null) out[key] = [normalise(v)];
      else out[key] = String(v);
    }
    return out;
  }
  return String(value);
}

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  ignoreDeclaration: true,
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
});

describe('OpenSubsonic API', () => {
  let t: MusicTestApp;
  let base: string;
  let worker: WorkerProcess;
  let flow: FlowEvents;
  let dir: string;
  let owner: TestUser;
  let other: TestUser;
  let key: string;
  let keyId: string;
  let songId: string;
  let privateSongId: string;

  const call = (method: string, url: string, who?: TestUser, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      ...(who ? { headers: who.headers } : {}),
      ...(payload ? { payload } : {}),
    });

  /** Upload, track, version; resolves once the pipeline made the version ready. */
  async function publish(who: TestUser, audio: Buffer, visibility: string, title: string): Promise<string> {
    const assetId = await uploadViaApi(t.app, who, audio);
    const track = await call('POST', '/api/v1/tracks', who, { title, visibility });
    expect(track.statusCode, track.body).toBe(201);
    const trackId = track.json().id as string;
    const added = await call('POST', `/api/v1/tracks/${trackId}/versions`, who, { asset_id: assetId });
    expect(added.statusCode, added.body).toBe(202);
    const id = versionJobId('version-finalize', added.json().id as string);
    await new Promise<void>((resolve, reject) => {
      flow.completed('version-finalize', id).then(resolve, reject);
      // Finished before we listened: read the state once.
      void call('GET', `/api/v1/tracks/${trackId}`, who).then((r) => {
        if (r.json().current_version?.status === 'ready') resolve();
      });
    });
    return trackId;
  }

  const client = (auth: { apiKey: string } | { username: string; password: string }) =>
    new SubsonicAPI({ url: base, auth });

  const raw = async (path: string, params: Record<string, string | string[]>, init: RequestInit = {}) => {
    const url = new URL(`/rest/${path}`, base);
    for (const [k, v] of Object.entries(params))
      for (const one of [v].flat()) url.searchParams.append(k, one);
    return fetch(url, init);
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are checked field by field
  const jsonOf = async (res: Response): Promise<any> =>
    ((await res.json()) as Record<string, unknown>)['subsonic-response'];

  beforeAll(async () => {
    const store = s3StoreEnv(`sub${uniqueSuffix()}-`);
    ({ t, base, flow, worker } = await startPipelineApp({ RATE_LIMITS: 'off', ...store }, store));
    dir = await mkdtemp(join(tmpdir(), 'subsonic-'));
    owner = await signupUser(t.app, 'sub');
    other = await signupUser(t.app, 'oth');
    const created = await call('POST', '/api/v1/me/client-keys', owner, { name: 'Feishin on my laptop' });
    expect(created.statusCode, created.body).toBe(201);
    ({ key, id: keyId } = created.json());
    [songId, privateSongId] = await Promise.all([
      publish(owner, await taggedSong(dir, 'tagged', TAGS, true), 'public', 'Upload title'),
      publish(
        other,
        await taggedSong(
          dir,
          'secret',
          { title: 'Secret Sine', artist: 'Hidden Artist', album: 'Hidden Album' },
          false,
        ),
        'private',
        'Secret',
      ),
    ]);
  }, 300_000);

  afterAll(async () => {
    if (worker) expect(await stopWorkerProcess(worker)).toBe(0);
    await flow?.close();
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('client keys: shown once, listed by name, prefix and use, never readable again', async () => {
    expect(key).toMatch(/^ssk_[A-Za-z0-9_-]{43}$/);
    const list = await call('GET', '/api/v1/me/client-keys', owner);
    expect(list.statusCode).toBe(200);
    expect(list.json().items).toEqual([
      {
        id: keyId,
        name: 'Feishin on my laptop',
        prefix: key.slice(0, 8),
        created_at: expect.any(String),
        last_used_at: null,
      },
    ]);
    expect(list.body).not.toContain(key);
    const row = await t.connections.prisma.clientKey.findUniqueOrThrow({ where: { id: keyId } });
    expect(Buffer.from(row.keyCiphertext).includes(Buffer.from(key))).toBe(false);
    expect((await call('GET', '/api/v1/me/client-keys')).statusCode).toBe(401);
    expect((await call('POST', '/api/v1/me/client-keys', owner, { name: 'bad\u0007name' })).statusCode).toBe(
      400,
    );
    expect((await call('DELETE', `/api/v1/me/client-keys/${keyId}`, other)).statusCode).toBe(404);
  });

  it('getOpenSubsonicExtensions answers without credentials; unknown endpoints answer the spec error', async () => {
    const res = await raw('getOpenSubsonicExtensions.view', { f: 'json', v: '1.16.1', c: 'test' });
    expect(res.status).toBe(200);
    const body = await jsonOf(res);
    expect(body).toMatchObject({
      status: 'ok',
      version: '1.16.1',
      openSubsonic: true,
      type: expect.any(String),
      serverVersion: expect.any(String),
    });
    expect(body.openSubsonicExtensions.map((e: { name: string }) => e.name).sort()).toEqual([
      'apiKeyAuthentication',
      'formPost',
      'indexBasedQueue',
      'songLyrics',
      'transcodeOffset',
    ]);
    for (const path of ['getVideos.view', 'getVideos', 'jukeboxControl', 'no/such/thing']) {
      const unknown = await raw(path, { apiKey: key });
      expect(unknown.status, path).toBe(404);
      expect(unknown.headers.get('content-type')).toContain('xml');
      const xml = xmlParser.parse(await unknown.text())['subsonic-response'][0];
      expect(xml).toMatchObject({ status: 'failed', openSubsonic: 'true', error: [{ code: '0' }] });
      expect(xml.error[0].message).toMatch(/unsupported endpoint/i);
    }
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
    const playlistId = (await api.getPlaylists()).playlists.playlist![0]!.id;
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
    const listed = async (
      type:
        | 'random'
        | 'newest'
        | 'alphabeticalByName'
        | 'alphabeticalByArtist'
        | 'starred'
        | 'frequent'
        | 'recent',
    ) => (await api.getAlbumList({ type })).albumList.album?.map((a) => a.id) ?? [];
    for (const type of ['random', 'newest', 'alphabeticalByName', 'alphabeticalByArtist', 'recent'] as const)
      expect(await listed(type), type).toEqual([song.albumId]);
    expect(await listed('starred')).toEqual([]);
    expect(await listed('frequent')).toEqual([]);
    expect(
      (await api.getAlbumList2({ type: 'byYear', fromYear: 2020, toYear: 2025 })).albumList2.album,
    ).toHaveLength(1);
    expect((await api.getAlbumList2({ type: 'byGenre', genre: TAGS.genre })).albumList2.album).toHaveLength(
      1,
    );
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
    expect((await api.getScanStatus()).scanStatus).toMatchObject({ scanning: false, count: 1 });
    expect((await api.startScan()).scanStatus).toMatchObject({ count: 1 });
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
    const everything = await api.search3({ query: '', songCount: 500, albumCount: 500, artistCount: 500 });
    expect(everything.searchResult3.song?.map((s) => s.id)).toEqual([songId]);
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

  it('the account password is refused (40); apiKey with u is 43; a revoked key is 44 / 40', async () => {
    const byPassword = await client({ username: owner.handle, password: PASSWORD }).ping();
    expect(byPassword).toMatchObject({ status: 'failed', error: { code: 40 } });
    const legacy = await raw('ping.view', {
      u: owner.handle,
      p: `enc:${Buffer.from(PASSWORD).toString('hex')}`,
      f: 'json',
    });
    expect(legacy.status).toBe(200);
    expect((await jsonOf(legacy)).error.code).toBe(40);
    const plainKey = await raw('ping.view', { u: owner.handle, p: key, f: 'json' });
    expect((await jsonOf(plainKey)).status).toBe('ok');
    const both = await raw('ping.view', { u: owner.handle, apiKey: key, f: 'json' });
    expect((await jsonOf(both)).error.code).toBe(43);
    const missing = await raw('ping.view', { f: 'json' });
    expect((await jsonOf(missing)).error.code).toBe(10);

    const spare = (await call('POST', '/api/v1/me/client-keys', owner, { name: 'spare' })).json();
    expect((await client({ apiKey: spare.key }).ping()).status).toBe('ok');
    // Remembered lookups (5 s) learn of a new key at once and forget a revoked one at once.
    expect((await client({ username: owner.handle, password: spare.key }).ping()).status).toBe('ok');
    expect((await call('DELETE', `/api/v1/me/client-keys/${spare.id}`, owner)).statusCode).toBe(204);
    expect(await client({ apiKey: spare.key }).ping()).toMatchObject({ error: { code: 44 } });
    expect(await client({ username: owner.handle, password: spare.key }).ping()).toMatchObject({
      error: { code: 40 },
    });
    // The other key still works and its last use is recorded.
    expect((await client({ apiKey: key }).ping()).status).toBe('ok');
    const listed = (await call('GET', '/api/v1/me/client-keys', owner)).json().items;
    expect(listed.find((k: { id: string }) => k.id === keyId).last_used_at).toEqual(expect.any(String));
  });
});

describe('OpenSubsonic API rate limits', () => {
  it('failed /rest/ logins spend the auth scope per address: the burst is refused with 429', async () => {
    const t = await createMusicTestApp({});
    try {
      const send = (remoteAddress: string, p: string) =>
        t.app.inject({ url: `/rest/ping.view?u=nobody&p=${p}&f=json`, remoteAddress });
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await send('203.0.113.7', 'wrong')).statusCode);
      // The seed's auth scope (5/min, burst 3, nginx semantics): 4 attempts answered, the 5th refused.
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
      const refused = await send('203.0.113.7', 'wrong');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()['subsonic-response']).toMatchObject({ status: 'failed', error: { code: 0 } });
      // The login endpoint shares the scope: this address is refused there too.
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        remoteAddress: '203.0.113.7',
        payload: { login: 'nobody', password: 'whatever-password' },
      });
      expect(login.statusCode).toBe(429);
      // Another address is unaffected; /rest/ spelled with %-escapes is the same route.
      expect((await send('203.0.113.8', 'wrong')).statusCode).toBe(200);
      expect(
        (await t.app.inject({ url: '/%72est/ping.view?u=nobody&p=x&f=json', remoteAddress: '203.0.113.7' }))
          .statusCode,
      ).toBe(429);
    } finally {
      await t.close();
    }
  });
});

/**
 * The Subsonic endpoints: each takes the authenticated caller and the request's parameters
 * and answers a payload (rendered by the route as XML/JSON/JSONP), a binary body or a
 * redirect. Visibility is the library repository's: public songs and the caller's own.
 */
import type { AuthContext } from '../auth-context.js';
import { isUuid } from '../uuid.js';
import type { AnalyticsService } from '../services/analytics-service.js';
import type { SubsonicUser } from './client-key-service.js';
import type { AlbumOrder, SongRow, SubsonicLibraryRepository, Viewer } from './library-repository.js';
import { FOLDER_EVERYONE, FOLDER_MINE } from './library-repository.js';
import type { BinaryAnswer, RedirectAnswer, SubsonicMedia } from './media.js';
import type { Params } from './params.js';
import { ERROR_CODES, SubsonicError, badParameter, notFound, type Payload } from './response.js';
import type { PlaylistRecord, SubsonicStateRepository } from './state-repository.js';
import { albumDirectoryView, albumView, artistView, byIndex, songView } from './views.js';

export interface Call {
  user: SubsonicUser;
  params: Params;
  /** The client address (for the play analytics' listener hash). */
  address: string;
  range: string | undefined;
  signal: AbortSignal;
  /** How the caller authenticated: tokenInfo answers for API keys only. */
  viaApiKey: boolean;
}

export type Answer = Payload | BinaryAnswer | RedirectAnswer;
export type Handler = (call: Call) => Answer | Promise<Answer>;

export const EXTENSIONS = [
  { name: 'formPost', versions: [1] },
  { name: 'apiKeyAuthentication', versions: [1] },
  { name: 'transcodeOffset', versions: [1] },
  { name: 'songLyrics', versions: [1] },
  { name: 'indexBasedQueue', versions: [1] },
];

export const MUSIC_FOLDERS = [
  { id: FOLDER_EVERYONE, name: 'Everyone' },
  { id: FOLDER_MINE, name: 'Mine' },
];

const ALBUM_ORDERS: readonly AlbumOrder[] = [
  'random',
  'newest',
  'highest',
  'frequent',
  'recent',
  'alphabeticalByName',
  'alphabeticalByArtist',
  'starred',
  'byYear',
  'byGenre',
];

const ALBUM_ID = /^al-[0-9a-f]{24}$/;
const ARTIST_ID = /^ar-[0-9a-f]{24}$/;
const MAX_PAGE = 500;

function viewer(call: Call): Viewer {
  const folder = call.params.optionalInt('musicFolderId', 1, 2);
  return { userId: call.user.userId, ...(folder !== undefined ? { folder } : {}) };
}

const songId = (id: string): string => {
  if (!isUuid(id)) throw notFound('Song');
  return id.toLowerCase();
};

export function authContext(user: SubsonicUser): AuthContext {
  return { userId: user.userId, handle: user.handle, role: user.role, jti: 'subsonic', exp: 0 };
}

export class SubsonicEndpoints {
  readonly handlers: Record<string, Handler>;

  constructor(
    private readonly library: SubsonicLibraryRepository,
    private readonly state: SubsonicStateRepository,
    private readonly media: SubsonicMedia,
    private readonly analytics: AnalyticsService,
    private readonly nowMs: () => number = Date.now,
  ) {
    this.handlers = {
      ping: () => ({}),
      getLicense: () => ({ license: { valid: true } }),
      getOpenSubsonicExtensions: () => ({ openSubsonicExtensions: EXTENSIONS }),
      tokenInfo: (c) => {
        if (!c.viaApiKey)
          throw new SubsonicError(
            ERROR_CODES.mechanismNotSupported,
            'tokenInfo answers for apiKey authentication only',
          );
        return { tokenInfo: { username: c.user.handle } };
      },
      getUser: (c) => this.getUser(c),
      getMusicFolders: () => ({ musicFolders: { musicFolder: MUSIC_FOLDERS } }),
      getIndexes: (c) => this.getIndexes(c),
      getMusicDirectory: (c) => this.getMusicDirectory(c),
      getGenres: async (c) => ({
        genres: {
          genre: (await this.library.genres(viewer(c))).map((g) => ({
            value: g.value,
            songCount: g.song_count,
            albumCount: g.album_count,
          })),
        },
      }),
      getArtists: (c) => this.getArtists(c),
      getArtist: (c) => this.getArtist(c),
      getAlbum: (c) => this.getAlbum(c),
      getSong: async (c) => ({ song: songView(await this.visibleSong(c, c.params.required('id'))) }),
      getArtistInfo2: (c) => this.artistInfo(c),
      getAlbumInfo2: (c) => this.albumInfo(c),
      getAlbumList: async (c) => ({
        albumList: { album: (await this.albumList(c)).map(albumDirectoryView) },
      }),
      getAlbumList2: async (c) => ({ albumList2: { album: (await this.albumList(c)).map(albumView) } }),
      getRandomSongs: async (c) => ({
        randomSongs: {
          song: (
            await this.library.randomSongs(viewer(c), c.params.int('size', 10, 1, MAX_PAGE), {
              ...optional('genre', c.params.get('genre')),
              ...optional('fromYear', c.params.optionalInt('fromYear', 0, 9999)),
              ...optional('toYear', c.params.optionalInt('toYear', 0, 9999)),
            })
          ).map(songView),
        },
      }),
      getSongsByGenre: async (c) => ({
        songsByGenre: {
          song: (
            await this.library.songsByGenre(
              viewer(c),
              c.params.required('genre'),
              c.params.int('count', 10, 1, MAX_PAGE),
              c.params.int('offset', 0, 0, 1_000_000),
            )
          ).map(songView),
        },
      }),
      getStarred: (c) => this.starred(c, false),
      getStarred2: (c) => this.starred(c, true),
      getNowPlaying: (c) => this.nowPlaying(c),
      getTopSongs: async (c) => ({
        topSongs: {
          song: (
            await this.library.topSongs(
              viewer(c),
              c.params.required('artist'),
              c.params.int('count', 50, 1, MAX_PAGE),
            )
          ).map(songView),
        },
      }),
      search2: (c) => this.search(c, false),
      search3: (c) => this.search(c, true),
      getPlaylists: (c) => this.getPlaylists(c),
      getPlaylist: (c) => this.getPlaylist(c),
      createPlaylist: (c) => this.createPlaylist(c),
      updatePlaylist: (c) => this.updatePlaylist(c),
      deletePlaylist: async (c) => {
        const p = await this.ownPlaylist(c, c.params.required('id'));
        await this.state.deletePlaylist(p.id);
        return {};
      },
      star: (c) => this.star(c, true),
      unstar: (c) => this.star(c, false),
      setRating: (c) => this.setRating(c),
      scrobble: (c) => this.scrobble(c),
      getBookmarks: (c) => this.getBookmarks(c),
      createBookmark: async (c) => {
        const song = await this.visibleSong(c, c.params.required('id'));
        const position = c.params.int('position', 0, 0, 1e12);
        if (!c.params.has('position')) throw badParameter('position', 'is required (milliseconds)');
        await this.state.saveBookmark(
          c.user.userId,
          song.id,
          position,
          (c.params.get('comment') ?? '').slice(0, 2000),
        );
        return {};
      },
      deleteBookmark: async (c) => {
        if (!(await this.state.deleteBookmark(c.user.userId, songId(c.params.required('id')))))
          throw notFound('Bookmark');
        return {};
      },
      getPlayQueue: (c) => this.getPlayQueue(c, false),
      getPlayQueueByIndex: (c) => this.getPlayQueue(c, true),
      savePlayQueue: (c) => this.savePlayQueue(c, false),
      savePlayQueueByIndex: (c) => this.savePlayQueue(c, true),
      getScanStatus: (c) => this.scanStatus(c),
      startScan: (c) => this.scanStatus(c),
      getLyricsBySongId: async (c) => {
        await this.visibleSong(c, c.params.required('id'));
        // The platform keeps no lyrics: the spec's empty list.
        return { lyricsList: { structuredLyrics: [] } };
      },
      getAvatar: (c) => {
        c.params.required('username');
        throw notFound('Avatar');
      },
      stream: async (c) => {
        const song = await this.visibleSong(c, c.params.required('id'));
        return this.media.stream(
          song,
          {
            maxBitRateKbps: c.params.int('maxBitRate', 0, 0, 100_000),
            raw: c.params.get('format') === 'raw',
            timeOffsetSeconds: c.params.int('timeOffset', 0, 0, 86_400),
            estimateContentLength: c.params.get('estimateContentLength') === 'true',
          },
          c.range,
          c.signal,
        );
      },
      download: async (c) => this.media.original(await this.visibleSong(c, c.params.required('id')), c.range),
      'hls.m3u8': async (c) => this.media.hls(await this.visibleSong(c, c.params.required('id'))),
      getCoverArt: (c) => this.coverArt(c),
    };
  }

  private async visibleSong(c: Call, id: string): Promise<SongRow> {
    const song = await this.library.song(viewerOf(c), songId(id));
    if (!song) throw notFound('Song');
    return song;
  }

  private getUser(c: Call): Payload {
    const name = c.params.required('username').toLowerCase();
    if (name !== c.user.handle && c.user.role !== 'admin')
      throw new SubsonicError(ERROR_CODES.notAuthorized, 'You may only read your own user');
    if (name !== c.user.handle) throw notFound('User');
    return {
      user: {
        username: c.user.handle,
        scrobblingEnabled: true,
        adminRole: c.user.role === 'admin',
        settingsRole: false,
        downloadRole: true,
        uploadRole: false,
        playlistRole: true,
        coverArtRole: false,
        commentRole: false,
        podcastRole: false,
        streamRole: true,
        jukeboxRole: false,
        shareRole: false,
        videoConversionRole: false,
        folder: MUSIC_FOLDERS.map((f) => f.id),
      },
    };
  }

  private async getArtists(c: Call): Promise<Payload> {
    const artists = (await this.library.artists(viewer(c))).map(artistView);
    return {
      artists: {
        ignoredArticles: '',
        index: byIndex(artists).map((g) => ({ name: g.name, artist: g.items })),
      },
    };
  }

  private async getIndexes(c: Call): Promise<Payload> {
    const artists = (await this.library.artists(viewer(c))).map(artistView);
    return {
      indexes: {
        ignoredArticles: '',
        lastModified: this.nowMs(),
        index: byIndex(artists).map((g) => ({
          name: g.name,
          artist: g.items.map((a) => ({ id: a.id, name: a.name, starred: a.starred })),
        })),
      },
    };
  }

  private async getArtist(c: Call): Promise<Payload> {
    const id = c.params.required('id');
    const v = viewerOf(c);
    const artist = ARTIST_ID.test(id) ? await this.library.artist(v, id) : undefined;
    if (!artist) throw notFound('Artist');
    const albums = await this.library.albumsOfArtist(v, id);
    return { artist: { ...artistView(artist), album: albums.map(albumView) } };
  }

  private async getAlbum(c: Call): Promise<Payload> {
    const id = c.params.required('id');
    const v = viewerOf(c);
    const found = ALBUM_ID.test(id) ? await this.library.albumWithSongs(v, id) : undefined;
    if (!found) throw notFound('Album');
    return { album: { ...albumView(found.album), song: found.songs.map(songView) } };
  }

  private async getMusicDirectory(c: Call): Promise<Payload> {
    const id = c.params.required('id');
    const v = viewerOf(c);
    if (ARTIST_ID.test(id)) {
      const artist = await this.library.artist(v, id);
      if (!artist) throw notFound('Directory');
      const albums = await this.library.albumsOfArtist(v, id);
      return {
        directory: {
          id,
          name: artist.name,
          starred: artist.starred_at ?? undefined,
          child: albums.map(albumDirectoryView),
        },
      };
    }
    if (ALBUM_ID.test(id)) {
      const found = await this.library.albumWithSongs(v, id);
      if (!found) throw notFound('Directory');
      const { album, songs } = found;
      return {
        directory: {
          id,
          parent: album.artist_id,
          name: album.name,
          starred: album.starred_at ?? undefined,
          child: songs.map(songView),
        },
      };
    }
    throw notFound('Directory');
  }

  private async artistInfo(c: Call): Promise<Payload> {
    const id = c.params.required('id');
    if (!ARTIST_ID.test(id) || !(await this.library.artist(viewerOf(c), id))) throw notFound('Artist');
    // No biography source is wired: the element is answered empty, as the spec allows.
    return { artistInfo2: {} };
  }

  private async albumInfo(c: Call): Promise<Payload> {
    const id = c.params.required('id');
    if (!ALBUM_ID.test(id) || !(await this.library.album(viewerOf(c), id))) throw notFound('Album');
    return { albumInfo: {} };
  }

  private albumList(c: Call) {
    const type = c.params.required('type') as AlbumOrder;
    if (!ALBUM_ORDERS.includes(type)) throw badParameter('type', `must be one of ${ALBUM_ORDERS.join(', ')}`);
    if (type === 'byYear') {
      c.params.required('fromYear');
      c.params.required('toYear');
    }
    return this.library.albumList(viewer(c), {
      type,
      size: c.params.int('size', 10, 1, MAX_PAGE),
      offset: c.params.int('offset', 0, 0, 1_000_000),
      ...optional('fromYear', c.params.optionalInt('fromYear', 0, 9999)),
      ...optional('toYear', c.params.optionalInt('toYear', 0, 9999)),
      ...optional('genre', type === 'byGenre' ? c.params.required('genre') : undefined),
    });
  }

  private async search(c: Call, id3: boolean): Promise<Payload> {
    const p = c.params;
    const result = await this.library.search(viewer(c), (p.get('query') ?? '').replace(/^"(.*)"$/, '$1'), {
      artistCount: p.int('artistCount', 20, 0, MAX_PAGE),
      artistOffset: p.int('artistOffset', 0, 0, 1_000_000),
      albumCount: p.int('albumCount', 20, 0, MAX_PAGE),
      albumOffset: p.int('albumOffset', 0, 0, 1_000_000),
      songCount: p.int('songCount', 20, 0, MAX_PAGE),
      songOffset: p.int('songOffset', 0, 0, 1_000_000),
    });
    const body = id3
      ? {
          artist: result.artists.map(artistView),
          album: result.albums.map(albumView),
          song: result.songs.map(songView),
        }
      : {
          artist: result.artists.map((a) => ({ id: a.id, name: a.name, starred: a.starred_at ?? undefined })),
          album: result.albums.map(albumDirectoryView),
          song: result.songs.map(songView),
        };
    return id3 ? { searchResult3: body } : { searchResult2: body };
  }

  private async starred(c: Call, id3: boolean): Promise<Payload> {
    const v = viewer(c);
    const [songs, albumIds, artistIds] = await Promise.all([
      this.library.starredSongs(v),
      this.library.starredIds(c.user.userId, 'album'),
      this.library.starredIds(c.user.userId, 'artist'),
    ]);
    const [albums, artists] = await Promise.all([
      this.library.albumsByIds(v, albumIds),
      this.library.artistsByIds(v, artistIds),
    ]);
    const body = id3
      ? { artist: artists.map(artistView), album: albums.map(albumView), song: songs.map(songView) }
      : {
          artist: artists.map((a) => ({ id: a.id, name: a.name, starred: a.starred_at ?? undefined })),
          album: albums.map(albumDirectoryView),
          song: songs.map(songView),
        };
    return id3 ? { starred2: body } : { starred: body };
  }

  private async star(c: Call, on: boolean): Promise<Payload> {
    const v = viewerOf(c);
    const items: { id: string; kind: 'song' | 'album' | 'artist' }[] = [];
    for (const id of [...c.params.all('id'), ...c.params.all('albumId'), ...c.params.all('artistId')]) {
      if (ALBUM_ID.test(id)) items.push({ id, kind: 'album' });
      else if (ARTIST_ID.test(id)) items.push({ id, kind: 'artist' });
      else items.push({ id: songId(id), kind: 'song' });
    }
    if (items.length === 0)
      throw badParameter('id', 'name at least one song (id), album (albumId) or artist (artistId)');
    if (!on) {
      await this.library.unstar(
        c.user.userId,
        items.map((i) => i.id),
      );
      return {};
    }
    // Only what the caller can see may be starred.
    const songs = await this.library.songsByIds(
      v,
      items.filter((i) => i.kind === 'song').map((i) => i.id),
    );
    const albums = await this.library.albumsByIds(
      v,
      items.filter((i) => i.kind === 'album').map((i) => i.id),
    );
    const artists = await this.library.artistsByIds(
      v,
      items.filter((i) => i.kind === 'artist').map((i) => i.id),
    );
    const seen = new Set([...songs, ...albums, ...artists].map((x) => x.id));
    const missing = items.find((i) => !seen.has(i.id));
    if (missing)
      throw notFound(missing.kind === 'song' ? 'Song' : missing.kind === 'album' ? 'Album' : 'Artist');
    await this.library.star(c.user.userId, items);
    return {};
  }

  private async setRating(c: Call): Promise<Payload> {
    const id = c.params.required('id');
    const rating = c.params.int('rating', -1, 0, 5);
    if (rating < 0) throw badParameter('rating', 'is required: 0 (remove) to 5');
    const v = viewerOf(c);
    const found = ALBUM_ID.test(id)
      ? await this.library.album(v, id)
      : ARTIST_ID.test(id)
        ? await this.library.artist(v, id)
        : await this.library.song(v, songId(id));
    if (!found) throw notFound('Item');
    await this.library.setRating(c.user.userId, found.id, rating);
    return {};
  }

  /** submission=false: now playing; true (default): a play through the platform's analytics and its dedup rule. */
  private async scrobble(c: Call): Promise<Payload> {
    const ids = c.params.all('id');
    if (ids.length === 0) throw badParameter('id', 'is required');
    const submission = c.params.bool('submission', true);
    const songs = await this.library.songsByIds(viewerOf(c), ids.map(songId));
    if (songs.length !== new Set(ids.map((i) => i.toLowerCase())).size) throw notFound('Song');
    for (const id of ids.map((i) => i.toLowerCase())) {
      if (submission) await this.analytics.recordPlay(authContext(c.user), c.address, { track_id: id });
      else
        await this.state.setNowPlaying(c.user.userId, {
          trackId: id,
          handle: c.user.handle,
          client: (c.params.get('c') ?? '').slice(0, 100),
          atMs: this.nowMs(),
        });
    }
    return {};
  }

  private async nowPlaying(c: Call): Promise<Payload> {
    const now = this.nowMs();
    const entries = await this.state.nowPlaying(now);
    const songs = new Map(
      (await this.library.songsByIds(viewerOf(c), [...new Set(entries.map((e) => e.trackId))])).map((s) => [
        s.id,
        s,
      ]),
    );
    return {
      nowPlaying: {
        entry: entries.flatMap((e) => {
          const song = songs.get(e.trackId);
          return song
            ? [
                {
                  ...songView(song),
                  username: e.handle,
                  minutesAgo: Math.floor((now - e.atMs) / 60_000),
                  playerId: 0,
                  playerName: e.client,
                },
              ]
            : [];
        }),
      },
    };
  }

  private playlistView(p: PlaylistRecord, songs: SongRow[]) {
    return {
      id: p.id,
      name: p.name,
      comment: p.comment || undefined,
      owner: p.ownerHandle,
      public: p.public,
      songCount: songs.length,
      duration: Math.round(songs.reduce((sum, s) => sum + (s.duration_ms ?? 0), 0) / 1000),
      created: p.createdAt,
      changed: p.updatedAt,
      coverArt: songs.find((s) => s.artwork_key)?.id,
    };
  }

  /** A playlist's songs the caller can see, in playlist order (others are left out). */
  private async playlistSongs(c: Call, p: PlaylistRecord): Promise<SongRow[]> {
    const byId = new Map(
      (await this.library.songsByIds(viewerOf(c), [...new Set(p.trackIds)])).map((s) => [s.id, s]),
    );
    return p.trackIds.flatMap((id) => byId.get(id) ?? []);
  }

  private async readablePlaylist(c: Call, id: string): Promise<PlaylistRecord> {
    const p = isUuid(id) ? await this.state.findPlaylist(id.toLowerCase()) : undefined;
    if (!p || (p.ownerUserId !== c.user.userId && !p.public)) throw notFound('Playlist');
    return p;
  }

  private async ownPlaylist(c: Call, id: string): Promise<PlaylistRecord> {
    const p = await this.readablePlaylist(c, id);
    if (p.ownerUserId !== c.user.userId)
      throw new SubsonicError(ERROR_CODES.notAuthorized, 'Only the owner may change this playlist');
    return p;
  }

  private async getPlaylists(c: Call): Promise<Payload> {
    const lists = await this.state.listPlaylists(c.user.userId);
    const views = [];
    for (const p of lists) views.push(this.playlistView(p, await this.playlistSongs(c, p)));
    return { playlists: { playlist: views } };
  }

  private async getPlaylist(c: Call): Promise<Payload> {
    const p = await this.readablePlaylist(c, c.params.required('id'));
    const songs = await this.playlistSongs(c, p);
    return { playlist: { ...this.playlistView(p, songs), entry: songs.map(songView) } };
  }

  /** Song ids a playlist may hold: each must be visible to the caller. */
  private async checkedSongIds(c: Call, ids: string[]): Promise<string[]> {
    const normalised = ids.map(songId);
    const found = new Set(
      (await this.library.songsByIds(viewerOf(c), [...new Set(normalised)])).map((s) => s.id),
    );
    if (normalised.some((id) => !found.has(id))) throw notFound('Song');
    if (normalised.length > 10_000) throw badParameter('songId', 'a playlist holds at most 10000 songs');
    return normalised;
  }

  private async createPlaylist(c: Call): Promise<Payload> {
    const songIds = await this.checkedSongIds(c, c.params.all('songId'));
    const existing = c.params.get('playlistId');
    let id: string;
    if (existing !== undefined) {
      id = (await this.ownPlaylist(c, existing)).id;
      await this.state.updatePlaylist(id, { trackIds: songIds, ...optional('name', c.params.get('name')) });
    } else {
      id = await this.state.createPlaylist(c.user.userId, playlistName(c.params.required('name')), songIds);
    }
    const p = await this.readablePlaylist(c, id);
    const songs = await this.playlistSongs(c, p);
    return { playlist: { ...this.playlistView(p, songs), entry: songs.map(songView) } };
  }

  private async updatePlaylist(c: Call): Promise<Payload> {
    const p = await this.ownPlaylist(c, c.params.required('playlistId'));
    const remove = new Set(
      c.params.all('songIndexToRemove').map((v) => {
        const n = Number(v);
        if (!/^\d{1,6}$/.test(v) || n >= p.trackIds.length)
          throw badParameter('songIndexToRemove', `must be 0 to ${p.trackIds.length - 1}`);
        return n;
      }),
    );
    const add = await this.checkedSongIds(c, c.params.all('songIdToAdd'));
    const trackIds = [...p.trackIds.filter((_, i) => !remove.has(i)), ...add];
    const name = c.params.get('name');
    await this.state.updatePlaylist(p.id, {
      trackIds,
      ...optional('name', name === undefined ? undefined : playlistName(name)),
      ...optional('comment', c.params.get('comment')?.slice(0, 2000)),
      ...optional('public', c.params.has('public') ? c.params.bool('public', false) : undefined),
    });
    return {};
  }

  private async getBookmarks(c: Call): Promise<Payload> {
    const rows = await this.state.bookmarks(c.user.userId);
    const songs = new Map(
      (
        await this.library.songsByIds(
          viewerOf(c),
          rows.map((r) => r.trackId),
        )
      ).map((s) => [s.id, s]),
    );
    return {
      bookmarks: {
        bookmark: rows.flatMap((b) => {
          const song = songs.get(b.trackId);
          return song
            ? [
                {
                  position: Number(b.positionMs),
                  username: c.user.handle,
                  comment: b.comment || undefined,
                  created: b.createdAt,
                  changed: b.updatedAt,
                  entry: songView(song),
                },
              ]
            : [];
        }),
      },
    };
  }

  private async getPlayQueue(c: Call, byIndex: boolean): Promise<Payload> {
    const q = await this.state.playQueue(c.user.userId);
    if (!q) return {};
    const songs = new Map(
      (await this.library.songsByIds(viewerOf(c), [...new Set(q.trackIds)])).map((s) => [s.id, s]),
    );
    const entry = q.trackIds.flatMap((id) => {
      const s = songs.get(id);
      return s ? [songView(s)] : [];
    });
    const common = {
      position: Number(q.positionMs),
      username: c.user.handle,
      changed: q.updatedAt,
      changedBy: q.changedBy,
      entry,
    };
    if (byIndex) return { playQueueByIndex: { currentIndex: q.currentIndex ?? undefined, ...common } };
    const current = q.currentIndex === null ? undefined : q.trackIds[q.currentIndex];
    return { playQueue: { current, ...common } };
  }

  private async savePlayQueue(c: Call, byIndex: boolean): Promise<Payload> {
    const ids = await this.checkedSongIds(c, c.params.all('id'));
    if (ids.length === 0) {
      await this.state.clearPlayQueue(c.user.userId);
      return {};
    }
    let currentIndex: number | null = null;
    if (byIndex) {
      currentIndex = c.params.optionalInt('currentIndex', 0, ids.length - 1) ?? null;
    } else {
      const current = c.params.get('current');
      if (current !== undefined) {
        currentIndex = ids.indexOf(songId(current));
        if (currentIndex < 0) throw badParameter('current', 'must be one of the queued ids');
      }
    }
    await this.state.savePlayQueue(c.user.userId, {
      trackIds: ids,
      currentIndex,
      positionMs: c.params.int('position', 0, 0, 1e12),
      changedBy: (c.params.get('c') ?? '').slice(0, 200),
    });
    return {};
  }

  private async scanStatus(c: Call): Promise<Payload> {
    const { pending, ready } = await this.library.scanState(viewerOf(c));
    return { scanStatus: { scanning: pending > 0, count: ready } };
  }

  private async coverArt(c: Call): Promise<BinaryAnswer> {
    const id = c.params.required('id');
    const size = c.params.optionalInt('size', 1, 10_000);
    const v = viewerOf(c);
    let coverSong: string | null | undefined;
    if (ALBUM_ID.test(id)) coverSong = (await this.library.album(v, id))?.cover_song;
    else if (ARTIST_ID.test(id)) coverSong = (await this.library.artist(v, id))?.cover_song;
    else coverSong = songId(id);
    const song = coverSong ? await this.library.song(v, coverSong) : undefined;
    if (!song?.artwork_key) throw notFound('Cover art');
    return this.media.cover(song.artwork_key, size);
  }
}

/** The caller as the library's viewer: who, and with which role (the visibility policy reads both). */
function viewerOf(c: Call): Viewer {
  return { userId: c.user.userId, role: c.user.role };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function playlistName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > 200) throw badParameter('name', 'must be 1 to 200 characters');
  return trimmed;
}

/** Album and song lists: getAlbumList(2) by order, random songs, songs by genre, now playing, starred. */
import type { AlbumOrder } from '../../repositories/subsonic/library-model.js';
import { badParameter } from '../errors.js';
import { type Payload } from '../response.js';
import { albumDirectoryView, albumView, artistView, songView } from '../views.js';
import { MAX_PAGE, optional, viewer, viewerOf, type Call, type EndpointDeps } from './call.js';

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

export function listEndpoints(d: EndpointDeps) {
  const lib = d.library;

  const albumList = (c: Call) => {
    const type = c.params.required('type') as AlbumOrder;
    if (!ALBUM_ORDERS.includes(type)) throw badParameter('type', `must be one of ${ALBUM_ORDERS.join(', ')}`);
    if (type === 'byYear') {
      c.params.required('fromYear');
      c.params.required('toYear');
    }
    return lib.albumList(viewer(c), {
      type,
      size: c.params.int('size', 10, 1, MAX_PAGE),
      offset: c.params.int('offset', 0, 0, 1_000_000),
      ...optional('fromYear', c.params.optionalInt('fromYear', 0, 9999)),
      ...optional('toYear', c.params.optionalInt('toYear', 0, 9999)),
      ...optional('genre', type === 'byGenre' ? c.params.required('genre') : undefined),
    });
  };

  const starred = async (c: Call, id3: boolean): Promise<Payload> => {
    const v = viewer(c);
    const [songs, albumIds, artistIds] = await Promise.all([
      lib.starredSongs(v),
      d.annotations.starredIds(c.user.userId, 'album'),
      d.annotations.starredIds(c.user.userId, 'artist'),
    ]);
    const [albums, artists] = await Promise.all([
      lib.albumsByIds(v, albumIds),
      lib.artistsByIds(v, artistIds),
    ]);
    const body = id3
      ? { artist: artists.map(artistView), album: albums.map(albumView), song: songs.map(songView) }
      : {
          artist: artists.map((a) => ({ id: a.id, name: a.name, starred: a.starred_at ?? undefined })),
          album: albums.map(albumDirectoryView),
          song: songs.map(songView),
        };
    return id3 ? { starred2: body } : { starred: body };
  };

  return {
    getAlbumList: async (c: Call): Promise<Payload> => ({
      albumList: { album: (await albumList(c)).map(albumDirectoryView) },
    }),

    getAlbumList2: async (c: Call): Promise<Payload> => ({
      albumList2: { album: (await albumList(c)).map(albumView) },
    }),

    getRandomSongs: async (c: Call): Promise<Payload> => ({
      randomSongs: {
        song: (
          await lib.randomSongs(viewer(c), c.params.int('size', 10, 1, MAX_PAGE), {
            ...optional('genre', c.params.get('genre')),
            ...optional('fromYear', c.params.optionalInt('fromYear', 0, 9999)),
            ...optional('toYear', c.params.optionalInt('toYear', 0, 9999)),
          })
        ).map(songView),
      },
    }),

    getSongsByGenre: async (c: Call): Promise<Payload> => ({
      songsByGenre: {
        song: (
          await lib.songsByGenre(
            viewer(c),
            c.params.required('genre'),
            c.params.int('count', 10, 1, MAX_PAGE),
            c.params.int('offset', 0, 0, 1_000_000),
          )
        ).map(songView),
      },
    }),

    getNowPlaying: async (c: Call): Promise<Payload> => {
      const now = d.nowMs();
      const entries = await d.state.nowPlaying(now);
      const songs = new Map(
        (await lib.songsByIds(viewerOf(c), [...new Set(entries.map((e) => e.trackId))])).map((s) => [
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
    },

    getStarred: (c: Call) => starred(c, false),
    getStarred2: (c: Call) => starred(c, true),
  };
}

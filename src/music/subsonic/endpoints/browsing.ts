/**
 * Browsing: music folders, the artist index (ID3 and folder-based), directories, genres, one
 * artist, album or song, their (empty) info, and an artist's top songs.
 */
import { FOLDER_EVERYONE, FOLDER_MINE } from '../../repositories/subsonic/library-model.js';
import { notFound } from '../errors.js';
import { type Payload } from '../response.js';
import { albumDirectoryView, albumView, artistView, byIndex, songView } from '../views.js';
import {
  ALBUM_ID,
  ARTIST_ID,
  MAX_PAGE,
  viewer,
  viewerOf,
  visibleSong,
  type Call,
  type EndpointDeps,
} from './call.js';

export const MUSIC_FOLDERS = [
  { id: FOLDER_EVERYONE, name: 'Everyone' },
  { id: FOLDER_MINE, name: 'Mine' },
];

export function browsingEndpoints(d: EndpointDeps) {
  const lib = d.library;
  return {
    getMusicFolders: (): Payload => ({ musicFolders: { musicFolder: MUSIC_FOLDERS } }),

    getIndexes: async (c: Call): Promise<Payload> => {
      const artists = (await lib.artists(viewer(c))).map(artistView);
      return {
        indexes: {
          ignoredArticles: '',
          lastModified: d.nowMs(),
          index: byIndex(artists).map((g) => ({
            name: g.name,
            artist: g.items.map((a) => ({ id: a.id, name: a.name, starred: a.starred })),
          })),
        },
      };
    },

    getMusicDirectory: async (c: Call): Promise<Payload> => {
      const id = c.params.required('id');
      const v = viewerOf(c);
      if (ARTIST_ID.test(id)) {
        const artist = await lib.artist(v, id);
        if (!artist) throw notFound('Directory');
        const albums = await lib.albumsOfArtist(v, id);
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
        const found = await lib.albumWithSongs(v, id);
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
    },

    getGenres: async (c: Call): Promise<Payload> => ({
      genres: {
        genre: (await lib.genres(viewer(c))).map((g) => ({
          value: g.value,
          songCount: g.song_count,
          albumCount: g.album_count,
        })),
      },
    }),

    getArtists: async (c: Call): Promise<Payload> => {
      const artists = (await lib.artists(viewer(c))).map(artistView);
      return {
        artists: {
          ignoredArticles: '',
          index: byIndex(artists).map((g) => ({ name: g.name, artist: g.items })),
        },
      };
    },

    getArtist: async (c: Call): Promise<Payload> => {
      const id = c.params.required('id');
      const v = viewerOf(c);
      const artist = ARTIST_ID.test(id) ? await lib.artist(v, id) : undefined;
      if (!artist) throw notFound('Artist');
      const albums = await lib.albumsOfArtist(v, id);
      return { artist: { ...artistView(artist), album: albums.map(albumView) } };
    },

    getAlbum: async (c: Call): Promise<Payload> => {
      const id = c.params.required('id');
      const found = ALBUM_ID.test(id) ? await lib.albumWithSongs(viewerOf(c), id) : undefined;
      if (!found) throw notFound('Album');
      return { album: { ...albumView(found.album), song: found.songs.map(songView) } };
    },

    getSong: async (c: Call): Promise<Payload> => ({
      song: songView(await visibleSong(d, c, c.params.required('id'))),
    }),

    getArtistInfo2: async (c: Call): Promise<Payload> => {
      const id = c.params.required('id');
      if (!ARTIST_ID.test(id) || !(await lib.artist(viewerOf(c), id))) throw notFound('Artist');
      // No biography source is wired: the element is answered empty, as the spec allows.
      return { artistInfo2: {} };
    },

    getAlbumInfo2: async (c: Call): Promise<Payload> => {
      const id = c.params.required('id');
      if (!ALBUM_ID.test(id) || !(await lib.album(viewerOf(c), id))) throw notFound('Album');
      return { albumInfo: {} };
    },

    getTopSongs: async (c: Call): Promise<Payload> => ({
      topSongs: {
        song: (
          await lib.topSongs(viewer(c), c.params.required('artist'), c.params.int('count', 50, 1, MAX_PAGE))
        ).map(songView),
      },
    }),
  };
}

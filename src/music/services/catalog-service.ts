/**
 * Finding music in the player: search over titles, artists and albums, artist and album pages,
 * and new uploads. Reads the Subsonic library (the same full-text search and grouping as
 * search3, getArtist and getAlbum), so both APIs find the same things: public songs plus the
 * caller's own.
 */
import type { AuthContext } from '../auth-context.js';
import {
  NIL_UUID,
  prefixQuery,
  type AlbumRow,
  type ArtistRow,
  type Viewer,
} from '../repositories/subsonic/library-model.js';
import type { SubsonicLibraryRepository } from '../repositories/subsonic/library-repository.js';
import { albumNotFound, artistNotFound } from '../errors/catalog.js';
import { trackListItem } from './track-list-item.js';

const songView = trackListItem;

function albumView(a: AlbumRow) {
  return {
    id: a.id,
    name: a.name,
    artist: a.artist,
    artist_id: a.artist_id,
    year: a.year,
    genre: a.genre,
    track_count: a.song_count,
    duration_ms: a.duration_ms,
  };
}

function artistView(a: ArtistRow) {
  return { id: a.id, name: a.name, album_count: a.album_count };
}

const viewer = (auth: AuthContext | undefined): Viewer => ({ userId: auth?.userId ?? NIL_UUID });

export class CatalogService {
  constructor(private readonly library: SubsonicLibraryRepository) {}

  async search(auth: AuthContext | undefined, q: string, limit: number) {
    // Text without a letter or digit finds nothing (search3 would list everything).
    if (prefixQuery(q) === undefined) return { tracks: [], albums: [], artists: [] };
    const page = { songOffset: 0, albumOffset: 0, artistOffset: 0 };
    const found = await this.library.search(viewer(auth), q, {
      ...page,
      songCount: limit,
      albumCount: limit,
      artistCount: limit,
    });
    return {
      tracks: found.songs.map(songView),
      albums: found.albums.map(albumView),
      artists: found.artists.map(artistView),
    };
  }

  async artist(auth: AuthContext | undefined, id: string) {
    const v = viewer(auth);
    const artist = await this.library.artist(v, id);
    if (!artist) throw artistNotFound();
    const [albums, tracks] = await Promise.all([
      this.library.albumsOfArtist(v, id),
      this.library.songsOfArtist(v, id, 500),
    ]);
    return { ...artistView(artist), albums: albums.map(albumView), tracks: tracks.map(songView) };
  }

  async album(auth: AuthContext | undefined, id: string) {
    const found = await this.library.albumWithSongs(viewer(auth), id);
    if (!found) throw albumNotFound();
    return { ...albumView(found.album), tracks: found.songs.map(songView) };
  }

  /** New uploads: public tracks with a ready version, newest first (the same list for everyone). */
  async newest(limit: number) {
    return { items: (await this.library.newestSongs(viewer(undefined), limit)).map(songView) };
  }
}

/** Searching: search2 (folder-based views) and search3 (ID3), over songs, albums and artists. */
import {} from '../errors.js';
import { type Payload } from '../response.js';
import { albumDirectoryView, albumView, artistView, songView } from '../views.js';
import { MAX_PAGE, viewer, type Call, type EndpointDeps } from './call.js';

export function searchEndpoints(d: EndpointDeps) {
  const search = async (c: Call, id3: boolean): Promise<Payload> => {
    const p = c.params;
    const result = await d.library.search(viewer(c), (p.get('query') ?? '').replace(/^"(.*)"$/, '$1'), {
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
  };
  return {
    search2: (c: Call) => search(c, false),
    search3: (c: Call) => search(c, true),
  };
}

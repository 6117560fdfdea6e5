/** For bench/health-under-load.ts: the music routes without a row of their own by design, and why. */

export function musicReason(method: string, path: string): string | undefined {
  if (path === '/api/v1/health') return 'the polled route itself (each row measures it)';
  if (method === 'POST' && path.startsWith('/rest/'))
    return `the GET ${path} handler with the parameters in a form body`;
  return undefined;
}

export const SUBSONIC_NOTE =
  'Subsonic: every endpoint is the one route `GET /rest/:endpoint` (and its `.view` twin, `GET /rest/*`); the rows drive the heavy ones, and the lighter ones (ping, getLicense, getMusicFolders, getAlbum, getArtist, getSong, getGenres, getStarred, playlists, star/unstar, scrobble, bookmarks, the play queue, …) share that path, its authentication and its answer writer.';

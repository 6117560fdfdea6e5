/**
 * For bench/health-under-load.ts: which of the music app's routes (as the serve child lists
 * them) have a row, and for each that has none, why — in one line.
 */

/** Routes without a row of their own, by design: the reason. */
function reasonWithoutRow(route: string, all: Set<string>, driven: Set<string>): string | undefined {
  const [method, path] = route.split(' ') as [string, string];
  if (route === 'GET /api/v1/health' || route === 'HEAD /api/v1/health')
    return 'the polled route itself (each row measures it)';
  if (method === 'HEAD' && all.has(`GET ${path}`))
    return `HEAD twin of GET ${path} (same handler, the body not sent)${driven.has(`GET ${path}`) ? '' : '; the GET has no row either'}`;
  if (method === 'POST' && path.startsWith('/rest/'))
    return `the GET ${path} handler with the parameters in a form body`;
  return undefined;
}

export interface Coverage {
  /** `route — reason` for each route with no row but a reason. */
  explained: string[];
  /** Routes with no row and no reason. */
  missing: string[];
}

export function coverage(routes: string[], driven: Iterable<string>): Coverage {
  const all = new Set(routes);
  const rows = new Set(driven);
  const explained: string[] = [];
  const missing: string[] = [];
  for (const route of routes) {
    if (rows.has(route)) continue;
    const why = reasonWithoutRow(route, all, rows);
    if (why) explained.push(`\`${route}\`: ${why}`);
    else missing.push(`\`${route}\``);
  }
  return { explained, missing };
}

export const SUBSONIC_NOTE =
  'Subsonic: every endpoint is the one route `GET /rest/:endpoint` (and its `.view` twin, `GET /rest/*`); the rows drive the heavy ones, and the lighter ones (ping, getLicense, getMusicFolders, getAlbum, getArtist, getSong, getGenres, getStarred, playlists, star/unstar, scrobble, bookmarks, the play queue, …) share that path, its authentication and its answer writer.';

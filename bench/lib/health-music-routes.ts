/**
 * For bench/health-under-load.ts: which of the music app's routes (as the serve child lists
 * them) have a row, and for each that has none, why — in one line (HEAD twins in one line).
 */

/** Routes without a row of their own, by design: the reason. */
function reasonWithoutRow(route: string, all: Set<string>, driven: Set<string>): string | undefined {
  const [method, path] = route.split(' ') as [string, string];
  if (path === '/api/v1/health') return 'the polled route itself (each row measures it)';
  if (method === 'HEAD' && all.has(`GET ${path}`) && !driven.has(`GET ${path}`))
    return `HEAD twin of GET ${path}, which has no row either`;
  if (method === 'POST' && path.startsWith('/rest/'))
    return `the GET ${path} handler with the parameters in a form body`;
  return undefined;
}

interface Coverage {
  /** One line per route with no row but a reason (HEAD twins of driven GETs: one line for all). */
  explained: string[];
  /** Routes with no row and no reason. */
  missing: string[];
  /** Routes with a row. */
  driven: number;
}

export function coverage(routes: string[], driven: Iterable<string>): Coverage {
  const all = new Set(routes);
  const rows = new Set(driven);
  const explained: string[] = [];
  const missing: string[] = [];
  const twins: string[] = [];
  let covered = 0;
  for (const route of routes) {
    const [method, path] = route.split(' ') as [string, string];
    if (rows.has(route)) covered++;
    else if (method === 'HEAD' && rows.has(`GET ${path}`)) twins.push(`\`${path}\``);
    else {
      const why = reasonWithoutRow(route, all, rows);
      if (why) explained.push(`\`${route}\`: ${why}`);
      else missing.push(`\`${route}\``);
    }
  }
  if (twins.length)
    explained.unshift(
      `HEAD of ${twins.length} paths whose GET has a row (the GET's handler, the body not sent): ${twins.join(', ')}`,
    );
  return { explained, missing, driven: covered };
}

export const SUBSONIC_NOTE =
  'Subsonic: every endpoint is the one route `GET /rest/:endpoint` (and its `.view` twin, `GET /rest/*`); the rows drive the heavy ones, and the lighter ones (ping, getLicense, getMusicFolders, getAlbum, getArtist, getSong, getGenres, getStarred, playlists, star/unstar, scrobble, bookmarks, the play queue, …) share that path, its authentication and its answer writer.';

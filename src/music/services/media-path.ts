/**
 * Request paths as nginx sees them (`$uri`): percent-decoded, slashes merged, `.` and `..`
 * resolved. A path whose `..` would climb above the root is refused, as nginx refuses it.
 */

export type NormalisedPath =
  { ok: true; path: string } | { ok: false; reason: 'bad-encoding' | 'escapes-root' | 'nul' };

export function pathOfUrl(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

export function normaliseRequestPath(rawPath: string): NormalisedPath {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return { ok: false, reason: 'bad-encoding' };
  }
  if (decoded.includes('\0')) return { ok: false, reason: 'nul' };
  const out: string[] = [];
  for (const segment of decoded.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return { ok: false, reason: 'escapes-root' };
      out.pop();
      continue;
    }
    out.push(segment);
  }
  const trailing = decoded.endsWith('/') && out.length > 0 ? '/' : '';
  return { ok: true, path: '/' + out.join('/') + trailing };
}

/**
 * The object key a normalised path names inside a mount such as "/images/", or undefined
 * when the path is not inside the mount (after normalisation nothing can climb out).
 */
export function keyUnderMount(path: string, mount: string): string | undefined {
  if (!path.startsWith(mount)) return undefined;
  const key = path.slice(mount.length);
  return key === '' || key.endsWith('/') ? undefined : key;
}

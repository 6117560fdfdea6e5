/**
 * Request paths as nginx sees them (`$uri`): percent-decoded, slashes merged, `.` and `..`
 * resolved. A path whose `..` would climb above the root is refused, as nginx refuses it.
 */
import type { FastifyRequest } from 'fastify';

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
 * The path a policy (rate-limit scope, auth rule) must be decided on: the URL template of the
 * route the router chose (already decoded, e.g. `/api/v1/users/:handle`), or for a request no
 * route claims, its normalised path. Never the raw URL, which `%61pi` or `//` would disguise.
 */
export function policyPath(request: FastifyRequest): string {
  const template = request.routeOptions.url;
  if (template !== undefined) return template;
  const normalised = normaliseRequestPath(pathOfUrl(request.url));
  // An undecodable or root-escaping path is still an attempt on whatever it names: keep the raw
  // text with slashes merged so /api/... stays under /api/.
  return normalised.ok ? normalised.path : pathOfUrl(request.url).replace(/\/{2,}/g, '/');
}

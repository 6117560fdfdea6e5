/**
 * HLS playlists are rewritten as they are served: a player fetches segments and media
 * playlists by relative URL, which drops the playlist's own query string, so every URI inside
 * (URI lines and URI="…" attributes of tags such as EXT-X-MAP and EXT-X-MEDIA) gets its own
 * signature with the same expiry. URIs that resolve outside the signed mount (or to another
 * origin) are left as they are.
 */
import { normaliseRequestPath } from './media-path.js';
import { signUri } from './secure-link.js';

const BASE = 'http://origin.invalid';
const URI_ATTRIBUTE = /URI="([^"]*)"/g;

export interface RewriteOptions {
  /** Normalised path of the playlist being served, e.g. /media/hls/<version>/master.m3u8 */
  playlistPath: string;
  /** Only URIs resolving under this prefix are signed, e.g. /media/hls/ */
  mount: string;
  secret: string;
  expires: number;
}

function signReference(ref: string, options: RewriteOptions): string {
  if (ref === '') return ref;
  let resolved: URL;
  try {
    resolved = new URL(ref, BASE + options.playlistPath);
  } catch {
    return ref;
  }
  if (resolved.origin !== BASE) return ref;
  const normalised = normaliseRequestPath(resolved.pathname);
  if (!normalised.ok || !normalised.path.startsWith(options.mount)) return ref;
  const { sig, expires } = signUri(normalised.path, options.secret, options.expires);
  const hash = ref.indexOf('#');
  const withoutHash = hash === -1 ? ref : ref.slice(0, hash);
  const q = withoutHash.indexOf('?');
  const pathPart = q === -1 ? withoutHash : withoutHash.slice(0, q);
  const kept =
    q === -1
      ? []
      : withoutHash
          .slice(q + 1)
          .split('&')
          .filter((p) => p && !/^(sig|expires)=/.test(p));
  return `${pathPart}?${[...kept, `sig=${sig}`, `expires=${expires}`].join('&')}`;
}

export function isPlaylistKey(key: string): boolean {
  return key.toLowerCase().endsWith('.m3u8');
}

export function rewritePlaylist(text: string, options: RewriteOptions): string {
  return text
    .split(/(\r?\n)/)
    .map((line) => {
      if (line === '\n' || line === '\r\n') return line;
      const trimmed = line.trim();
      if (trimmed === '') return line;
      if (trimmed.startsWith('#')) {
        return line.replace(URI_ATTRIBUTE, (_m, ref: string) => `URI="${signReference(ref, options)}"`);
      }
      return signReference(trimmed, options);
    })
    .join('');
}

/** Request paths under the media mounts (the normalisation itself lives in core/request-path.ts). */

export { normaliseRequestPath, pathOfUrl } from '../../core/request-path.js';

/**
 * The object key a normalised path names inside a mount such as "/images/", or undefined
 * when the path is not inside the mount (after normalisation nothing can climb out).
 */
export function keyUnderMount(path: string, mount: string): string | undefined {
  if (!path.startsWith(mount)) return undefined;
  const key = path.slice(mount.length);
  return key === '' || key.endsWith('/') ? undefined : key;
}

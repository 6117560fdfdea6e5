/**
 * LIBRARY_IMPORT_ROOTS, the folders music processes may read a library from: the one check that a
 * real path (symlinks resolved) lies inside one of them, for the admin API, `--in-place` and the
 * originals store's reads of files imported in place.
 */
import { realpath } from 'node:fs/promises';

/** `path` is `root` or lies under it (absolute paths; a root of "/" holds every path). */
export function isUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);
}

/** True when `realPath` is inside the real path of one of the roots (a root that does not exist holds nothing). */
export async function insideLibraryRoots(realPath: string, roots: readonly string[]): Promise<boolean> {
  const real = await Promise.all(roots.map((r) => realpath(r).catch(() => undefined)));
  return real.some((r) => r !== undefined && isUnder(realPath, r));
}

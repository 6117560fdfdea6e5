/**
 * LIBRARY_IMPORT_ROOTS, the folders music processes may read a library from: the one check that a
 * real path (symlinks resolved) lies inside one of them, for the admin API, `--in-place` and the
 * originals store's reads of files imported in place.
 */
import { constants, type Stats } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';

/** `path` is `root` or lies under it (absolute paths; a root of "/" holds every path). */
export function isUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);
}

/** True when `realPath` is inside the real path of one of the roots (a root that does not exist holds nothing). */
export async function insideLibraryRoots(realPath: string, roots: readonly string[]): Promise<boolean> {
  const real = await Promise.all(roots.map((r) => realpath(r).catch(() => undefined)));
  return real.some((r) => r !== undefined && isUnder(realPath, r));
}

/**
 * The file at `realPath` opened for reading, when it is a regular file reached by no symlink: the
 * open file must be the one the path names (device and inode), so a file swapped for a link after
 * it was checked (walked, imported) is never read through. Undefined otherwise; a missing file throws.
 */
export async function openRealFile(
  realPath: string,
): Promise<{ handle: FileHandle; stats: Stats } | undefined> {
  // O_NOFOLLOW: no link as the last part; O_NONBLOCK: a FIFO put there opens at once (refused below).
  const handle = await open(realPath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const real = await realpath(realPath);
    const [opened, named] = await Promise.all([handle.stat(), stat(real)]);
    if (real === realPath && opened.isFile() && opened.dev === named.dev && opened.ino === named.ino)
      return { handle, stats: opened };
  } catch (err) {
    await handle.close();
    throw err;
  }
  await handle.close();
  return undefined;
}

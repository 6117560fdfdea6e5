/**
 * Originals read in place: a library imported with `--in-place` is not copied into the store;
 * its assets name the file itself (`in-place:<owner>/<sha256>/<inode>:<real path>`), and the
 * originals store reads such keys from the file system, only inside LIBRARY_IMPORT_ROOTS and only
 * while the path holds that inode or those bytes, and never writes or deletes them (the files are
 * the owner's). Every other key goes to the store underneath.
 */
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type {
  AssembledObject,
  ByteRange,
  CompletedPart,
  ObjectBody,
  ObjectData,
  ObjectInfo,
  ObjectSource,
  ObjectStore,
  UploadedPart,
} from './object-store.js';
import { inPlaceNotWritable } from '../../errors/storage.js';
import { insideLibraryRoots, openRealFile } from '../library-roots.js';

const PREFIX = 'in-place:';
/**
 * `<owner uuid>/<sha256>/<inode>:`: each owner's content is its own asset, as copies are under
 * `<owner>/library/`; the inode is the file read at import, so a hard link to another file put
 * at its path later is not served.
 */
const ID =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/[0-9a-f]{64}\/(0|[1-9][0-9]{0,19}):/;

/** The key of a library file read in place: its owner, content hash (one asset a content), inode and real path. */
export function inPlaceKey(owner: string, sha256: string, ino: number, realPath: string): string {
  return `${PREFIX}${owner}/${sha256}/${ino}:${realPath}`;
}

/** The real path, content hash and inode an in-place key names, or undefined for a store key. */
export function inPlaceFile(key: string): { path: string; sha256: string; ino: number } | undefined {
  if (!key.startsWith(PREFIX)) return undefined;
  const id = ID.exec(key.slice(PREFIX.length, PREFIX.length + 128));
  if (!id) return undefined;
  const path = key.slice(PREFIX.length + id[0].length);
  const sha256 = key.slice(PREFIX.length + 37, PREFIX.length + 37 + 64);
  // A NUL names no file (the file system calls would throw): no such object.
  return path.startsWith('/') && !path.includes('\0') ? { path, sha256, ino: Number(id[1]) } : undefined;
}

/** Files found under another inode whose bytes were checked against their key's hash, remembered this long. */
const CHECKED_MAX = 10_000;

/** The real path an in-place key names, or undefined for a store key. */
export function inPlacePath(key: string): string | undefined {
  return inPlaceFile(key)?.path;
}

export function isInPlaceKey(key: string): boolean {
  return key.startsWith(PREFIX);
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP';
}

export class InPlaceOriginals implements ObjectStore {
  readonly name;
  readonly directPartUploads;
  /** Key -> the file (inode, size, time) found under another inode, and whether its bytes are the key's. */
  private readonly checked = new Map<string, { file: string; same: Promise<boolean> }>();

  constructor(
    private readonly store: ObjectStore,
    /** LIBRARY_IMPORT_ROOTS: the only folders a key may name a file in (their real paths, resolved per read). */
    private readonly roots: readonly string[],
  ) {
    this.name = store.name;
    this.directPartUploads = store.directPartUploads;
  }

  /**
   * The file a key names, opened, when it is a regular file inside the roots and reached by no
   * symlink (the importer records real paths: a link put there later, even to a file inside the
   * roots, is refused). Opened first, then checked: the open file must be the one the real path
   * names (device and inode), so a swap between the check and the read serves nothing. And it
   * must be the inode the import read, or hold the bytes the key names (saved by rename, restored
   * from a backup): a file put there since, such as a hard link to one outside, is not served.
   */
  private async file(key: string): Promise<{ handle: FileHandle; info: ObjectInfo } | undefined> {
    const named = inPlaceFile(key);
    if (named === undefined) return undefined;
    const { path, ino } = named;
    try {
      const found = await openRealFile(path);
      if (!found) return undefined;
      const { handle, stats } = found;
      let served: boolean;
      try {
        const inside = await insideLibraryRoots(path, this.roots);
        served = inside && (stats.ino === ino || (await this.sameBytes(key, named.sha256, handle, stats)));
      } catch (err) {
        await handle.close();
        throw err;
      }
      if (!served) {
        await handle.close();
        return undefined;
      }
      return {
        handle,
        info: { size: stats.size, contentType: undefined, etag: undefined, lastModified: stats.mtime },
      };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  /**
   * The open file holds the bytes `sha256` names. Hashed once per inode, size and time (ctime too:
   * `utimes` cannot put it back), the answer kept either way, and shared by requests meanwhile.
   */
  private sameBytes(key: string, sha256: string, handle: FileHandle, stats: Stats): Promise<boolean> {
    const file = `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
    const known = this.checked.get(key);
    if (known?.file === file) return known.same;
    const same = (async () => {
      const hash = createHash('sha256');
      for await (const chunk of handle.createReadStream({
        start: 0,
        autoClose: false,
        highWaterMark: 1 << 20,
      }))
        hash.update(chunk as Buffer);
      return hash.digest('hex') === sha256;
    })();
    // A read that failed is not an answer: the next request tries again.
    same.catch(() => this.checked.delete(key));
    if (this.checked.size >= CHECKED_MAX) this.checked.delete(this.checked.keys().next().value as string);
    this.checked.set(key, { file, same });
    return same;
  }

  /** Info only: the file is closed again. */
  private async info(key: string): Promise<ObjectInfo | undefined> {
    const found = await this.file(key);
    if (!found) return undefined;
    await found.handle.close();
    return found.info;
  }

  ensure(): Promise<void> {
    return this.store.ensure();
  }

  ping(): Promise<void> {
    return this.store.ping();
  }

  put(
    key: string,
    data: ObjectData,
    options?: { contentType?: string },
  ): Promise<{ etag: string | undefined }> {
    if (isInPlaceKey(key)) throw inPlaceNotWritable();
    return this.store.put(key, data, options);
  }

  async get(key: string, range?: ByteRange): Promise<ObjectBody | undefined> {
    if (!isInPlaceKey(key)) return this.store.get(key, range);
    const found = await this.file(key);
    if (!found) return undefined;
    const { handle, info } = found;
    if (!range || info.size === 0)
      return { ...info, body: handle.createReadStream({ start: 0 }), range: undefined };
    const clamped = { start: range.start, end: Math.min(range.end, info.size - 1) };
    return { ...info, body: handle.createReadStream(clamped), range: clamped };
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    if (!isInPlaceKey(key)) return this.store.head(key);
    return this.info(key);
  }

  async readSource(key: string): Promise<ObjectSource | undefined> {
    if (!isInPlaceKey(key)) return this.store.readSource(key);
    // The opened file's bytes, not its path: a path handed on (to ffmpeg) could be swapped before it is opened.
    const found = await this.file(key);
    return found ? { body: found.handle.createReadStream({ start: 0 }) } : undefined;
  }

  /** The owner's file stays: deleting its track forgets it, as deleting a store object would. */
  async delete(key: string): Promise<void> {
    if (!isInPlaceKey(key)) await this.store.delete(key);
  }

  list(prefix: string): Promise<string[]> {
    return this.store.list(prefix);
  }

  move(from: string, to: string): Promise<void> {
    if (isInPlaceKey(from) || isInPlaceKey(to)) throw inPlaceNotWritable();
    return this.store.move(from, to);
  }

  createMultipartUpload(key: string, contentType: string): Promise<string> {
    return this.store.createMultipartUpload(key, contentType);
  }

  uploadPart(
    key: string,
    uploadId: string,
    partNumber: number,
    data: ObjectData,
    size?: number,
  ): Promise<string> {
    return this.store.uploadPart(key, uploadId, partNumber, data, size);
  }

  listParts(key: string, uploadId: string): Promise<UploadedPart[]> {
    return this.store.listParts(key, uploadId);
  }

  presignUploadPart(
    key: string,
    uploadId: string,
    partNumber: number,
    expiresInSeconds: number,
  ): Promise<string | undefined> {
    return this.store.presignUploadPart(key, uploadId, partNumber, expiresInSeconds);
  }

  completeMultipartUpload(key: string, uploadId: string, parts: CompletedPart[]): Promise<AssembledObject> {
    return this.store.completeMultipartUpload(key, uploadId, parts);
  }

  abortMultipartUpload(key: string, uploadId: string): Promise<void> {
    return this.store.abortMultipartUpload(key, uploadId);
  }
}

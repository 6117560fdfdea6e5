/**
 * A library folder on this machine: the walk (symlinks followed while they stay inside the
 * folder; links out of it, loops, unreadable folders and names that are not UTF-8 reported),
 * and each file read once for both what it is (music-metadata, by content) and its sha256. The
 * rules (what is imported) are in services/library/.
 */
import { createHash } from 'node:crypto';
import { constants, openAsBlob, type Dirent } from 'node:fs';
import { access, readdir, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import {
  CouldNotDetermineFileTypeError,
  UnsupportedFileTypeError,
  parseBlob,
  parseBuffer,
  type IAudioMetadata,
} from 'music-metadata';
import type { ReadMetadata } from '../services/library/audio-facts.js';
import { isUnder, openRealFile } from './library-roots.js';

/** A regular file found by the walk, with the cover image beside it if its folder has one. */
export interface LibraryCandidate {
  kind: 'file';
  /** Relative to the root, "/"-separated. */
  path: string;
  abs: string;
  size: number;
  mtimeMs: number;
  /** Its inode: a file imported in place is read only while it is still this one. */
  ino: number;
  cover: string | undefined;
}

export interface WalkProblem {
  kind: 'problem';
  path: string;
  reason: string;
}

export type WalkEntry = LibraryCandidate | WalkProblem;

/** cover.jpg, folder.png, front.webp…: the side-by-side artwork of a folder, in this order of preference. */
const COVER_NAME = /^(cover|folder|front|album)\.(jpe?g|png|webp)$/i;
const COVER_ORDER = ['cover', 'folder', 'front', 'album'];

export function isCoverName(name: string): boolean {
  return COVER_NAME.test(name);
}

/** A name's bytes as text a person can read: invalid UTF-8 bytes become \xNN. */
function shownName(name: Buffer): string {
  let out = '';
  for (const byte of name)
    out +=
      byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, '0')}`;
  return out;
}

function isUtf8(name: Buffer): boolean {
  return Buffer.from(name.toString('utf8'), 'utf8').equals(name);
}

function errorReason(err: unknown): string {
  const code = (err as { code?: string }).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'symlink loop';
  if (code === 'ENOENT') return 'broken symlink or removed during the walk';
  return (err as Error).message;
}

const LOOP = 'symlink loop: a folder already walked';
const SWAPPED = 'replaced by a symlink or another file since the walk listed it; not read';
export const LINK_OUTSIDE =
  'symlink leads outside the imported folder; not followed (import the folder it leads to itself)';

/**
 * The real path a link inside the walk leads to, or why it is not followed: a link out of the
 * folder is never read through (an admin choosing a folder under LIBRARY_IMPORT_ROOTS would
 * otherwise read anything a link inside it names).
 */
async function followLink(abs: string, root: string): Promise<{ real: string } | { reason: string }> {
  let real: string;
  try {
    real = await realpath(abs);
  } catch (err) {
    // Broken or looping: a link spelled outside gets the same answer whether its target exists or not.
    const spelled = await readlink(abs).then(
      (to) => resolve(dirname(abs), to),
      () => abs,
    );
    return { reason: isUnder(spelled, root) ? errorReason(err) : LINK_OUTSIDE };
  }
  // A link to the folder or one of its parents would walk it again.
  if (isUnder(root, real)) return { reason: LOOP };
  return isUnder(real, root) ? { real } : { reason: LINK_OUTSIDE };
}

/**
 * Every file under `folder`, sorted by name within each folder; problems in place. Folders are
 * walked by their real paths, so every file read lies under the folder's.
 */
export async function* walkLibrary(folder: string): AsyncGenerator<WalkEntry> {
  // Recorded as a real path; resolved again so a link to a parent of it is compared as one.
  const root = await realpath(folder).catch(() => folder);
  const seen = new Set<string>([root]);
  const stack: { abs: string; rel: string }[] = [{ abs: root, rel: '' }];
  while (stack.length > 0) {
    const dir = stack.pop() as { abs: string; rel: string };
    let entries: Dirent<Buffer>[];
    try {
      entries = await readdir(dir.abs, { encoding: 'buffer', withFileTypes: true });
    } catch (err) {
      yield { kind: 'problem', path: dir.rel || '.', reason: `cannot read the folder: ${errorReason(err)}` };
      continue;
    }
    entries.sort((a, b) => Buffer.compare(a.name, b.name));
    const files: { name: string; abs: string; rel: string; size: number; mtimeMs: number; ino: number }[] =
      [];
    const subdirs: { abs: string; rel: string }[] = [];
    for (const entry of entries) {
      const raw = entry.name;
      const relOf = (name: string): string => (dir.rel ? `${dir.rel}/${name}` : name);
      if (!isUtf8(raw)) {
        yield {
          kind: 'problem',
          path: relOf(shownName(raw)),
          reason: 'the name is not valid UTF-8; rename it',
        };
        continue;
      }
      const name = raw.toString('utf8');
      // dir.abs is a real path, so only a link makes `abs` other than real.
      let abs = join(dir.abs, name);
      try {
        if (entry.isSymbolicLink()) {
          const link = await followLink(abs, root);
          if ('reason' in link) {
            yield { kind: 'problem', path: relOf(name), reason: link.reason };
            continue;
          }
          abs = link.real;
        }
        const info = await stat(abs);
        if (info.isDirectory()) {
          if (seen.has(abs)) {
            yield { kind: 'problem', path: relOf(name), reason: LOOP };
            continue;
          }
          seen.add(abs);
          subdirs.push({ abs, rel: relOf(name) });
        } else if (info.isFile()) {
          files.push({ name, abs, rel: relOf(name), size: info.size, mtimeMs: info.mtimeMs, ino: info.ino });
        }
      } catch (err) {
        yield { kind: 'problem', path: relOf(name), reason: errorReason(err) };
      }
    }
    const covers = files.filter((f) => isCoverName(f.name));
    covers.sort(
      (a, b) =>
        COVER_ORDER.indexOf(a.name.split('.')[0]?.toLowerCase() ?? '') -
        COVER_ORDER.indexOf(b.name.split('.')[0]?.toLowerCase() ?? ''),
    );
    const cover = covers[0]?.abs;
    for (const f of files) {
      if (isCoverName(f.name)) continue;
      yield { kind: 'file', path: f.rel, abs: f.abs, size: f.size, mtimeMs: f.mtimeMs, ino: f.ino, cover };
    }
    // Depth first, in name order.
    for (const sub of subdirs.reverse()) stack.push(sub);
  }
}

/** `not-audio`: the content is something else (a picture, text); `unreadable`: audio or not, it could not be read. */
export type ReadOutcome =
  { ok: true; meta: ReadMetadata } | { ok: false; reason: string; kind: 'not-audio' | 'unreadable' };

/** Files up to this size are read once into memory for both their tags and their hash. */
const ONE_PASS_BYTES = 64 * 1024 * 1024;
const PARSE_OPTIONS = { skipCovers: false, duration: false } as const;

function readFailure(err: unknown): ReadOutcome & { ok: false } {
  if (err instanceof CouldNotDetermineFileTypeError)
    return { ok: false, reason: 'not audio: its content is no known audio format', kind: 'not-audio' };
  if (err instanceof UnsupportedFileTypeError) {
    const type = /: (\S+)$/.exec(err.message)?.[1] ?? 'an unsupported type';
    return { ok: false, reason: `not audio: its content is ${type}`, kind: 'not-audio' };
  }
  const code = (err as { code?: string }).code;
  if (code !== undefined) return { ok: false, reason: errorReason(err), kind: 'unreadable' };
  const message = (err as Error).message;
  // A box or tag whose declared size runs past the end of the file: the file was cut short.
  if (/exceeds (remaining|file)/i.test(message))
    return { ok: false, reason: `truncated: ${message}`, kind: 'unreadable' };
  return { ok: false, reason: `unreadable tags or header: ${message}`, kind: 'unreadable' };
}

/** music-metadata on the file's bytes (random access, type found by content, not by name). */
export async function readAudioMetadata(abs: string): Promise<ReadOutcome> {
  try {
    // A Blob that cannot be read says only "could not be read": ask the file system first.
    await access(abs, constants.R_OK);
    const meta = await parseBlob(await openAsBlob(abs), PARSE_OPTIONS);
    return { ok: true, meta: meta as unknown as ReadMetadata };
  } catch (err) {
    return readFailure(err);
  }
}

/** What one file is and its sha256 (set when it could be read; not when the outcome is not ok). */
export type Inspection = ReadOutcome & { sha256?: string };

/** Buffers files are read into, reused (allocating one a file kept the garbage collector busy). */
const spare: Buffer[] = [];
const SPARE_BUFFERS = 16;
const SPARE_BYTES = 16 * 1024 * 1024;

function takeBuffer(size: number): Buffer {
  const i = spare.findIndex((b) => b.length >= size);
  if (i >= 0) return spare.splice(i, 1)[0] as Buffer;
  return Buffer.allocUnsafeSlow(Math.max(size, 4 * 1024 * 1024));
}

function giveBuffer(buffer: Buffer): void {
  if (buffer.length <= SPARE_BYTES && spare.length < SPARE_BUFFERS) spare.push(buffer);
}

/** A file as the walk listed it: read only while its path still holds that inode. */
export type WalkedFile = Pick<LibraryCandidate, 'abs' | 'size' | 'ino'>;

/** The file's first `size` bytes (fewer if it shrank since the walk) into `buffer`: one read request. */
async function readInto({ abs, size, ino }: WalkedFile, buffer: Buffer): Promise<Buffer> {
  const file = await openWalked(abs, ino);
  try {
    let at = 0;
    while (at < size) {
      const { bytesRead } = await file.read(buffer, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return buffer.subarray(0, at);
  } finally {
    await file.close();
  }
}

/**
 * Reads the file once (files up to ONE_PASS_BYTES into memory) and hands `use` what it is, its
 * sha256 and its bytes; both are valid until `use` resolves (the buffer is then reused). A larger
 * file is parsed in place (random access) and hashed by a stream, so memory stays bounded; `use`
 * gets no bytes for it.
 */
export async function inspectFile<T>(
  file: WalkedFile,
  use: (found: Inspection, bytes: Buffer | undefined) => Promise<T>,
): Promise<T> {
  if (file.size > ONE_PASS_BYTES) return use(await inspectInPlace(file), undefined);
  const buffer = takeBuffer(file.size);
  try {
    let bytes: Buffer;
    try {
      bytes = await readInto(file, buffer);
    } catch (err) {
      return await use(readFailure(err), undefined);
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    let found: Inspection;
    try {
      const meta: IAudioMetadata = await parseBuffer(bytes, { size: bytes.length }, PARSE_OPTIONS);
      found = { ok: true, meta: meta as unknown as ReadMetadata, sha256 };
    } catch (err) {
      found = readFailure(err);
    }
    return await use(found, found.ok ? bytes : undefined);
  } finally {
    giveBuffer(buffer);
  }
}

async function inspectInPlace({ abs, ino }: WalkedFile): Promise<Inspection> {
  const read = await readAudioMetadata(abs);
  if (!read.ok) return read;
  try {
    return { ...read, sha256: await sha256OfFile(abs, ino) };
  } catch (err) {
    return { ok: false, reason: `cannot read it: ${errorReason(err)}`, kind: 'unreadable' };
  }
}

/** `ino`: the inode the walk saw there, when the hash names that file (an in-place key). */
export async function sha256OfFile(abs: string, ino?: number): Promise<string> {
  const hash = createHash('sha256');
  const file = await openWalked(abs, ino);
  for await (const chunk of file.createReadStream({ highWaterMark: 1024 * 1024 }))
    hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The file's path with every symlink resolved (what an in-place import records). */
export function realPathOf(abs: string): Promise<string> {
  return realpath(abs);
}

/**
 * A file the walk listed (a real path under the folder), opened only if it is still that file:
 * one swapped for a symlink since (to anything on the machine), or for another inode when `ino`
 * is given, is refused, never read through.
 */
async function openWalked(abs: string, ino?: number): Promise<FileHandle> {
  const swapped = () => Object.assign(new Error(SWAPPED), { code: 'ESWAPPED' });
  // `abs` is a real path, so ELOOP (O_NOFOLLOW) means a link was put there since.
  const found = await openRealFile(abs).catch((err: unknown) => {
    throw (err as NodeJS.ErrnoException).code === 'ELOOP' ? swapped() : err;
  });
  if (found && (ino === undefined || found.stats.ino === ino)) return found.handle;
  await found?.handle.close();
  throw swapped();
}

export function openFile(abs: string): Readable {
  // Opened when first read, as the walk's check says (openWalked): the bytes stored are the file listed.
  return Readable.from(
    (async function* () {
      const file = await openWalked(abs);
      try {
        yield* file.createReadStream({ highWaterMark: 1024 * 1024, autoClose: false });
      } finally {
        await file.close();
      }
    })(),
    { objectMode: false },
  );
}

/** The folder's real path, or why it cannot be imported. */
export async function resolveFolder(path: string): Promise<{ root: string } | { reason: string }> {
  try {
    const root = await realpath(path);
    return (await stat(root)).isDirectory() ? { root } : { reason: 'it is not a folder' };
  } catch (err) {
    return {
      reason:
        errorReason(err) === 'broken symlink or removed during the walk'
          ? 'no such folder'
          : errorReason(err),
    };
  }
}

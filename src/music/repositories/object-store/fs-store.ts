/**
 * Filesystem object store (the embedded default): `<root>/<store>/<key>`. Writes go to a
 * temporary file and are renamed into place, so a reader never sees half an object. Multipart
 * uploads keep their parts under `<root>/<store>/.multipart/<upload id>/` (a dot folder, which
 * no valid key can name). A part's ETag is its MD5 hex digest, as S3 gives; a whole object has
 * none (no reader uses it, and hashing every stored original cost a core's worth of MD5).
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { concatenateFiles, SizeMismatchError, spoolToFile } from '../../../core/repositories/spool-file.js';
import {
  type AssembledObject,
  assertParts,
  assertValidKey,
  assertWritableKey,
  assertValidPrefix,
  contentTypeFor,
  type ByteRange,
  type CompletedPart,
  type ObjectBody,
  type ObjectData,
  type ObjectInfo,
  type ObjectSource,
  type ObjectStore,
  type StoreName,
  type UploadedPart,
} from './object-store.js';
import {
  malformedMultipartUpload,
  multipartUploadNotFound,
  multipartUploadOfOtherKey,
  objectNotFound,
  partEtagMismatch,
  partNeverUploaded,
  partSizeMismatch,
} from '../../errors/storage.js';

const UPLOAD_ID = /^[0-9a-f-]{36}$/;

function toReadable(data: ObjectData): Readable {
  if (data instanceof Readable) return data;
  return Readable.from([
    typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength),
  ]);
}

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}

export class FilesystemObjectStore implements ObjectStore {
  readonly directPartUploads = false;
  private readonly dir: string;

  constructor(
    root: string,
    readonly name: StoreName,
  ) {
    this.dir = join(root, name);
  }

  private path(key: string): string {
    assertValidKey(key);
    return join(this.dir, ...key.split('/'));
  }

  async ensure(): Promise<void> {
    await mkdir(join(this.dir, '.tmp'), { recursive: true });
    await mkdir(join(this.dir, '.multipart'), { recursive: true });
  }

  async ping(): Promise<void> {
    const s = await stat(this.dir);
    if (!s.isDirectory()) throw new Error(`${this.dir} is not a directory`);
  }

  /** Streams data into a temporary file, returning its path, MD5 and size (which must be `expectedSize` when given). */
  /** `md5`: the part's ETag is its MD5; a whole object's is not computed (nothing reads it, head() has none). */
  private async spool(
    data: ObjectData,
    digest: 'md5' | undefined,
    expectedSize?: number,
  ): Promise<{ tmp: string; md5: string; size: number }> {
    const tmp = join(this.dir, '.tmp', randomUUID());
    await mkdir(dirname(tmp), { recursive: true });
    const { digest: md5, size } = await spoolToFile(toReadable(data), tmp, digest, expectedSize);
    return { tmp, md5, size };
  }

  readSource(key: string): Promise<ObjectSource> {
    return Promise.resolve({ file: this.path(key) });
  }

  async put(key: string, data: ObjectData): Promise<{ etag: string | undefined }> {
    assertWritableKey(this.name, key);
    const target = this.path(key);
    const { tmp } = await this.spool(data, undefined);
    await mkdir(dirname(target), { recursive: true });
    await rename(tmp, target);
    return { etag: undefined };
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    try {
      const s = await stat(this.path(key));
      if (!s.isFile()) return undefined;
      return { size: s.size, contentType: contentTypeFor(key), etag: undefined, lastModified: s.mtime };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<ObjectBody | undefined> {
    const info = await this.head(key);
    if (!info) return undefined;
    const path = this.path(key);
    if (!range || info.size === 0) return { ...info, body: createReadStream(path), range: undefined };
    const clamped = { start: range.start, end: Math.min(range.end, info.size - 1) };
    return { ...info, body: createReadStream(path, clamped), range: clamped };
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async list(prefix: string): Promise<string[]> {
    assertValidPrefix(prefix);
    const keys: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (err) {
        if (isMissing(err)) return;
        throw err;
      }
      for (const entry of entries) {
        if (entry.name.startsWith('.')) continue;
        const full = join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.isFile()) keys.push(relative(this.dir, full).split(sep).join('/'));
      }
    };
    // Walk only the deepest folder the prefix fully names.
    const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    await walk(folder ? join(this.dir, ...folder.split('/')) : this.dir);
    return keys.filter((k) => k.startsWith(prefix)).sort();
  }

  async move(from: string, to: string): Promise<void> {
    assertWritableKey(this.name, to);
    const source = this.path(from);
    const target = this.path(to);
    await mkdir(dirname(target), { recursive: true });
    try {
      await rename(source, target);
    } catch (err) {
      if (isMissing(err)) throw objectNotFound(from, this.name);
      throw err;
    }
  }

  private uploadDir(uploadId: string): string {
    if (!UPLOAD_ID.test(uploadId)) throw malformedMultipartUpload();
    return join(this.dir, '.multipart', uploadId);
  }

  /** The upload must exist and belong to this key. */
  private async openUpload(key: string, uploadId: string): Promise<string> {
    const dir = this.uploadDir(uploadId);
    let owner: string;
    try {
      owner = await readFile(join(dir, 'key'), 'utf8');
    } catch (err) {
      if (isMissing(err)) throw multipartUploadNotFound();
      throw err;
    }
    if (owner !== key) throw multipartUploadOfOtherKey();
    return dir;
  }

  async createMultipartUpload(key: string, _contentType?: string): Promise<string> {
    assertWritableKey(this.name, key);
    const uploadId = randomUUID();
    const dir = this.uploadDir(uploadId);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'key'), key);
    return uploadId;
  }

  async uploadPart(
    key: string,
    uploadId: string,
    partNumber: number,
    data: ObjectData,
    size?: number,
  ): Promise<string> {
    assertParts([{ partNumber, etag: '' }]);
    const dir = await this.openUpload(key, uploadId);
    let tmp: string;
    let md5: string;
    try {
      ({ tmp, md5 } = await this.spool(data, 'md5', size));
    } catch (err) {
      if (err instanceof SizeMismatchError) throw partSizeMismatch(partNumber, err.expected, err.received);
      throw err;
    }
    // The digest is written first: a listed part (by its .md5) always has its bytes in place.
    await rm(join(dir, `part-${partNumber}.md5`), { force: true });
    await rename(tmp, join(dir, `part-${partNumber}`));
    await writeFile(join(dir, `part-${partNumber}.md5`), md5);
    return md5;
  }

  async listParts(key: string, uploadId: string): Promise<UploadedPart[]> {
    const dir = await this.openUpload(key, uploadId);
    const parts: UploadedPart[] = [];
    for (const name of await readdir(dir)) {
      const m = /^part-(\d+)\.md5$/.exec(name);
      if (!m) continue;
      const partNumber = Number(m[1]);
      try {
        const [etag, info] = await Promise.all([
          readFile(join(dir, name), 'utf8'),
          stat(join(dir, `part-${partNumber}`)),
        ]);
        parts.push({ partNumber, etag, size: info.size });
      } catch (err) {
        // A part being re-sent right now: its previous copy was just replaced.
        if (!isMissing(err)) throw err;
      }
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  presignUploadPart(): Promise<string | undefined> {
    return Promise.resolve(undefined);
  }

  async completeMultipartUpload(
    key: string,
    uploadId: string,
    parts: CompletedPart[],
  ): Promise<AssembledObject> {
    assertParts(parts);
    const dir = await this.openUpload(key, uploadId);
    for (const part of parts) {
      let md5: string;
      try {
        md5 = await readFile(join(dir, `part-${part.partNumber}.md5`), 'utf8');
      } catch (err) {
        if (isMissing(err)) throw partNeverUploaded(part.partNumber);
        throw err;
      }
      if (md5 !== part.etag.replace(/"/g, '')) {
        throw partEtagMismatch(part.partNumber);
      }
    }
    // The parts are read once to be joined: their sha256 is taken in that same pass (an MD5 of
    // the whole is no etag S3 would give, so none is computed).
    const target = this.path(key);
    const tmp = join(this.dir, '.tmp', randomUUID());
    const { digest: sha256 } = await concatenateFiles(
      parts.map((p) => join(dir, `part-${p.partNumber}`)),
      tmp,
      'sha256',
    );
    await mkdir(dirname(target), { recursive: true });
    await rename(tmp, target);
    await rm(dir, { recursive: true, force: true });
    const info = await this.head(key);
    if (!info) throw new Error(`object ${key} vanished right after completing its upload`);
    return { ...info, sha256 };
  }

  async abortMultipartUpload(key: string, uploadId: string): Promise<void> {
    const dir = await this.openUpload(key, uploadId);
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Private temporary folders for ffmpeg's inputs and outputs (the runner reads and writes files:
 * an MP4 source is seekable only as a file), and a stored object spooled into one.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { spoolToFile } from '../../core/repositories/spool-file.js';
import type { ObjectStore } from './object-store/object-store.js';

export interface ScratchFolder {
  /** A file of the folder by name. */
  path(name: string): string;
  /** Copies an object into the folder as `name`; the file's path, or undefined when there is no such object. */
  spool(store: ObjectStore, key: string, name: string): Promise<string | undefined>;
  read(name: string): Promise<Buffer>;
  remove(): Promise<void>;
}

export class ScratchFiles {
  constructor(private readonly tmpDir: string) {}

  /** A fresh folder; the caller removes it (an output streamed while it is made outlives the call). */
  async folder(prefix: string): Promise<ScratchFolder> {
    const dir = join(this.tmpDir, `${prefix}-${randomUUID()}`);
    await mkdir(dir, { recursive: true });
    return {
      path: (name) => join(dir, name),
      spool: async (store, key, name) => {
        const got = await store.get(key);
        if (!got) return undefined;
        const path = join(dir, name);
        await spoolToFile(got.body, path, 'md5');
        return path;
      },
      read: (name) => readFile(join(dir, name)),
      remove: () => rm(dir, { recursive: true, force: true }),
    };
  }

  /** A folder for the time `fn` runs, removed after it whatever happens. */
  async within<T>(prefix: string, fn: (folder: ScratchFolder) => Promise<T>): Promise<T> {
    const folder = await this.folder(prefix);
    try {
      return await fn(folder);
    } finally {
      await folder.remove();
    }
  }
}

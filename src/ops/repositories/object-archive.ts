/**
 * Object-store archive: every object of the four stores, streamed one after another into a
 * gzipped tar (`<store>/<key>`), through the same store interface the app uses, so it works
 * for the filesystem store and any S3-protocol server alike. Restore puts each entry back.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import tar from 'tar-stream';
import {
  isValidKey,
  STORE_NAMES,
  type ObjectStores,
  type StoreName,
} from '../../music/repositories/object-store/object-store.js';
import { backupFileName } from '../retention.js';

export interface ArchiveSummary {
  file: string;
  objects: number;
  bytes: number;
}

export async function archiveObjects(stores: ObjectStores, dir: string, now: Date): Promise<ArchiveSummary> {
  const file = join(dir, backupFileName('objects', now));
  const partial = `${file}.partial`;
  const pack = tar.pack();
  const written = pipeline(pack, createGzip(), createWriteStream(partial));
  let objects = 0;
  let bytes = 0;
  try {
    for (const name of STORE_NAMES) {
      for (const key of await stores[name].list('')) {
        const got = await stores[name].get(key);
        if (!got) continue; // deleted since the listing
        const entry = pack.entry({ name: `${name}/${key}`, size: got.size, mtime: got.lastModified });
        await pipeline(got.body, entry);
        objects += 1;
        bytes += got.size;
      }
    }
    pack.finalize();
    await written;
    await rename(partial, file);
  } catch (err) {
    pack.destroy(err as Error);
    await written.catch(() => undefined);
    await rm(partial, { force: true });
    throw err;
  }
  return { file, objects, bytes };
}

export async function restoreObjects(file: string, stores: ObjectStores): Promise<{ objects: number }> {
  const extract = tar.extract();
  const reading = pipeline(createReadStream(file), createGunzip(), extract);
  let objects = 0;
  for await (const entry of extract) {
    const name = entry.header.name;
    const slash = name.indexOf('/');
    const store = name.slice(0, slash) as StoreName;
    const key = name.slice(slash + 1);
    if (entry.header.type !== 'file' || !STORE_NAMES.includes(store) || !isValidKey(key)) {
      throw new Error(
        `archive entry ${JSON.stringify(name.slice(0, 200))} is not <store>/<key> of this platform`,
      );
    }
    // tar-stream entries are streamx streams; the stores take a Node Readable.
    await stores[store].put(key, Readable.from(entry));
    objects += 1;
  }
  await reading;
  return { objects };
}

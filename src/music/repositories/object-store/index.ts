/**
 * Builds the platform's four stores from the configuration: filesystem under DATA_DIR by
 * default, S3 buckets when OBJECT_STORE_ENDPOINT is set.
 */
import type { MusicConfig } from '../../config.js';
import { FilesystemObjectStore } from './fs-store.js';
import { InPlaceOriginals } from './in-place-store.js';
import { STORE_NAMES, type ObjectStore, type ObjectStores, type StoreName } from './object-store.js';
import { S3ObjectStore, createS3Client } from './s3-store.js';

export interface ObjectStoreSet {
  stores: ObjectStores;
  close(): Promise<void>;
}

export function createObjectStores(
  config: Pick<MusicConfig, 'objectStore'> & Partial<Pick<MusicConfig, 'libraryImportRoots'>>,
): ObjectStoreSet {
  const settings = config.objectStore;
  const roots = config.libraryImportRoots ?? [];
  if (settings.kind === 'filesystem') {
    return {
      stores: storesOf((n) => new FilesystemObjectStore(settings.root, n), roots),
      close: () => Promise.resolve(),
    };
  }
  const client = createS3Client(settings);
  return {
    stores: storesOf((n) => new S3ObjectStore(client, n, settings.bucketPrefix), roots),
    close: () => {
      client.destroy();
      return Promise.resolve();
    },
  };
}

/** The originals store also reads library files imported in place (in-place-store.ts). */
function storesOf(make: (name: StoreName) => ObjectStore, libraryRoots: readonly string[]): ObjectStores {
  const stores = {} as Record<StoreName, ObjectStore>;
  for (const name of STORE_NAMES) stores[name] = make(name);
  stores.originals = new InPlaceOriginals(stores.originals, libraryRoots);
  return Object.freeze(stores);
}

export async function ensureObjectStores(stores: ObjectStores): Promise<void> {
  await Promise.all(Object.values(stores).map((s) => s.ensure()));
}

export * from './object-store.js';

/**
 * Builds the platform's four stores from the configuration: filesystem under DATA_DIR by
 * default, S3 buckets when OBJECT_STORE_ENDPOINT is set.
 */
import type { MusicConfig } from '../../config.js';
import { FilesystemObjectStore } from './fs-store.js';
import { STORE_NAMES, type ObjectStore, type ObjectStores, type StoreName } from './object-store.js';
import { S3ObjectStore, createS3Client } from './s3-store.js';

export interface ObjectStoreSet {
  stores: ObjectStores;
  close(): Promise<void>;
}

export function createObjectStores(config: Pick<MusicConfig, 'objectStore'>): ObjectStoreSet {
  const settings = config.objectStore;
  if (settings.kind === 'filesystem') {
    return {
      stores: storesOf((n) => new FilesystemObjectStore(settings.root, n)),
      close: () => Promise.resolve(),
    };
  }
  const client = createS3Client(settings);
  return {
    stores: storesOf((n) => new S3ObjectStore(client, n, settings.bucketPrefix)),
    close: () => {
      client.destroy();
      return Promise.resolve();
    },
  };
}

function storesOf(make: (name: StoreName) => ObjectStore): ObjectStores {
  const stores = {} as Record<StoreName, ObjectStore>;
  for (const name of STORE_NAMES) stores[name] = make(name);
  return Object.freeze(stores);
}

export async function ensureObjectStores(stores: ObjectStores): Promise<void> {
  await Promise.all(Object.values(stores).map((s) => s.ensure()));
}

export * from './object-store.js';

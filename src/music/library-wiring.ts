/**
 * The library importer as a process wires it: the CLI (src/main/commands/library.ts) and the
 * music-worker's `library-import` job build the same one here, so both run one code path.
 */
import { createRedis } from '../core/repositories/redis.js';
import type { MusicConfig } from './config.js';
import { BODY_LIMIT_BYTES } from './config.js';
import type { VersionFlowStarter } from './jobs/flow.js';
import { PrismaAssetRepository } from './repositories/asset-repository.js';
import type { MusicConnections } from './repositories/connections.js';
import { RedisEventStream } from './repositories/event-stream-repository.js';
import {
  inspectFile,
  openFile,
  realPathOf,
  sha256OfFile,
  walkLibrary,
} from './repositories/library-files.js';
import { BullLibraryQueue } from './repositories/library-queue.js';
import { PrismaLibraryRepository } from './repositories/library-repository.js';
import { PrismaPlayRepository } from './repositories/play-repository.js';
import { PrismaTrackRepository } from './repositories/track-repository.js';
import { BullVersionFlowStarter } from './repositories/version-flow.js';
import { LibraryImporter, type ImporterDeps } from './services/library/library-importer.js';
import { TrackService } from './services/track-service.js';

export interface LibraryWiring {
  importer: LibraryImporter;
  library: PrismaLibraryRepository;
  close(): Promise<void>;
}

export function createLibraryImporter(
  config: MusicConfig,
  connections: MusicConnections,
  options: { flows?: VersionFlowStarter; concurrency?: number; batchSize?: number; beatMs?: number } = {},
): LibraryWiring {
  // Its own connection: the API's 500 ms command bound fails a long batch job on a loaded machine.
  const redis = createRedis(config.cacheUrl, { commandTimeoutMs: 30_000 });
  const flows = options.flows ?? new BullVersionFlowStarter(redis, { prefix: config.queuePrefix });
  const events = new RedisEventStream(redis, config.cacheUrl, {
    prefix: config.cacheKeyPrefix,
    window: config.liveEvents.resumeWindow,
  });
  const tracks = new TrackService(
    new PrismaTrackRepository(connections.prisma),
    new PrismaAssetRepository(connections.prisma),
    connections.stores,
    flows,
    {
      secret: config.secureLink.secret,
      ttlSeconds: config.secureLink.ttlSeconds,
      nowSeconds: () => Date.now() / 1000,
    },
    new PrismaPlayRepository(connections.prisma, connections.redis, config.cacheKeyPrefix),
    events,
  );
  const library = new PrismaLibraryRepository(connections.prisma);
  const held = new BullLibraryQueue(redis, { prefix: config.queuePrefix });
  const deps: ImporterDeps = {
    library,
    held,
    source: {
      walk: walkLibrary,
      inspect: inspectFile,
      sha256: sha256OfFile,
      open: openFile,
      realPath: realPathOf,
    },
    originals: connections.stores.originals,
    tracks,
    events,
    maxBytes: BODY_LIMIT_BYTES,
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
    ...(options.beatMs === undefined ? {} : { beatMs: options.beatMs }),
  };
  return {
    importer: new LibraryImporter(deps),
    library,
    close: async () => {
      if (!options.flows) await flows.close();
      await held.close();
      await redis.quit().catch(() => undefined);
      if (redis.status !== 'end') redis.disconnect();
    },
  };
}

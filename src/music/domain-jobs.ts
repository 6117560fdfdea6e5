/**
 * The processor logic of the domain's two repeatable jobs, callable by the music-worker's
 * job registry and by the CLI: `analytics-rollup` and `upload-cleanup` (src/music/jobs/queues.ts).
 */
import { join } from 'node:path';
import type { MusicConfig } from './config.js';
import type { AnalyticsRollupData, UploadCleanupData } from './jobs/queues.js';
import { PrismaAssetRepository } from './repositories/asset-repository.js';
import { probeAudio } from './repositories/ffprobe.js';
import { PrismaPlayRepository } from './repositories/play-repository.js';
import { PrismaTrackRepository } from './repositories/track-repository.js';
import type { MusicConnections } from './repositories/connections.js';
import { AnalyticsService } from './services/analytics-service.js';
import { TrackService } from './services/track-service.js';
import { UploadService } from './services/upload-service.js';

const NO_FLOWS = {
  start: () => Promise.reject(new Error('the rollup never adds versions')),
  close: () => Promise.resolve(),
};

export function runAnalyticsRollup(
  config: MusicConfig,
  resources: MusicConnections,
  data: AnalyticsRollupData = {},
): ReturnType<AnalyticsService['rollup']> {
  const tracks = new PrismaTrackRepository(resources.prisma);
  const plays = new PrismaPlayRepository(resources.prisma, resources.redis, config.cacheKeyPrefix);
  const access = new TrackService(
    tracks,
    new PrismaAssetRepository(resources.prisma),
    resources.stores,
    NO_FLOWS,
    {
      secret: config.secureLink.secret,
      ttlSeconds: config.secureLink.ttlSeconds,
      nowSeconds: () => Date.now() / 1000,
    },
    plays,
  );
  const analytics = new AnalyticsService(plays, tracks, access, config.ipHashSalt);
  return analytics.rollup(data.nowMs ?? Date.now());
}

export function runUploadCleanup(
  config: MusicConfig,
  resources: MusicConnections,
  data: UploadCleanupData = {},
): Promise<{ aborted: number; failed: number }> {
  const uploads = new UploadService(
    new PrismaAssetRepository(resources.prisma),
    resources.stores.originals,
    (source) => probeAudio(source, join(config.dataDir, 'tmp')),
  );
  return uploads.cleanup(data.nowMs ?? Date.now());
}

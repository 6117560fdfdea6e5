/**
 * The scheduled housekeeping: the processor logic of the two repeatable jobs `analytics-rollup`
 * and `upload-cleanup` (src/music/jobs/queues.ts), run by the music-worker's job registry
 * (`housekeepingTasks`) and by the CLI (src/main/commands/housekeeping.ts).
 */
import { join } from 'node:path';
import type { MusicConfig } from './config.js';
import type { AnalyticsRollupData, UploadCleanupData } from './jobs/queues.js';
import type { MaintenanceTasks } from './jobs/registry.js';
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
  startMany: () => Promise.reject(new Error('the rollup never adds versions')),
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

/** The worker's MaintenanceTasks: the two jobs above with the summary each job stores. */
export function housekeepingTasks(config: MusicConfig, connections: MusicConnections): MaintenanceTasks {
  return {
    rollupAnalytics: async (nowMs) => {
      const r = await runAnalyticsRollup(config, connections, { nowMs });
      return {
        statsRows: r.statsRows,
        pruned: r.pruned,
        trendingDay: r.trending.day,
        trendingWeek: r.trending.week,
      };
    },
    cleanupUploads: (nowMs) => runUploadCleanup(config, connections, { nowMs }),
  };
}

/** Domain services built over a test app's connections (for what the CLI and jobs call). */
import { join } from 'node:path';
import { PrismaAssetRepository } from '../../src/music/repositories/asset-repository.js';
import { probeAudio } from '../../src/music/repositories/ffprobe.js';
import { UploadService } from '../../src/music/services/upload-service.js';
import { AnalyticsService } from '../../src/music/services/analytics-service.js';
import { TrackService } from '../../src/music/services/track-service.js';
import { PrismaPlayRepository } from '../../src/music/repositories/play-repository.js';
import { PrismaTrackRepository } from '../../src/music/repositories/track-repository.js';
import type { MusicTestApp } from './music-app.js';

export function uploadService(t: MusicTestApp): UploadService {
  return new UploadService(
    new PrismaAssetRepository(t.connections.prisma),
    t.connections.stores.originals,
    (source) => probeAudio(source, join(t.dataDir, 'tmp')),
  );
}

export function analyticsService(t: MusicTestApp, nowMs: () => number): AnalyticsService {
  const tracks = new PrismaTrackRepository(t.connections.prisma);
  const plays = new PrismaPlayRepository(t.connections.prisma, t.connections.redis, t.config.cacheKeyPrefix);
  const access = new TrackService(
    tracks,
    new PrismaAssetRepository(t.connections.prisma),
    t.connections.stores,
    noFlows,
    {
      secret: t.config.secureLink.secret,
      ttlSeconds: t.config.secureLink.ttlSeconds,
      nowSeconds: () => nowMs() / 1000,
    },
    plays,
  );
  return new AnalyticsService(plays, tracks, access, t.config.ipHashSalt, nowMs);
}

/** The rollup never adds versions: a starter that refuses to be used. */
const noFlows = {
  start: () => Promise.reject(new Error('no flows in this test')),
  startMany: () => Promise.reject(new Error('no flows in this test')),
  close: () => Promise.resolve(),
};

/** Domain services built over a test app's connections (for what the CLI and jobs call). */
import { join } from 'node:path';
import { AssetRepository } from '../../src/music/repositories/asset-repository.js';
import { spoolAndProbe } from '../../src/music/repositories/ffprobe.js';
import { UploadService } from '../../src/music/services/upload-service.js';
import type { MusicTestApp } from './music-app.js';

export function uploadService(t: MusicTestApp): UploadService {
  return new UploadService(new AssetRepository(t.resources.prisma), t.resources.stores.originals, (body) =>
    spoolAndProbe(body, join(t.dataDir, 'tmp')),
  );
}

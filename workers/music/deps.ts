/** What the music-worker's processors are given: connections, stores, the ffmpeg runner. */
import type { FastifyBaseLogger } from 'fastify';
import type { MaintenanceTasks } from '../../src/music/jobs/registry.js';
import type { FfmpegRunner } from '../../src/music/repositories/ffmpeg-runner.js';
import type { ObjectStores } from '../../src/music/repositories/object-store/object-store.js';
import type { MailDeps } from './mail.js';
import type { OriginalCache } from './original-cache.js';
import type { VersionProcessingRepository } from '../../src/music/repositories/version-processing-repository.js';

export interface ProcessorDeps {
  stores: ObjectStores;
  versions: VersionProcessingRepository;
  runner: FfmpegRunner;
  /** Local copies (and probes) of originals, shared by the media jobs of a version. */
  originals: OriginalCache;
  maintenance: MaintenanceTasks;
  /** The `mail` queue's SMTP transport and sender. */
  mail: MailDeps;
  /** Private scratch space; each job gets its own folder inside and removes it. */
  tmpDir: string;
  log: FastifyBaseLogger;
}

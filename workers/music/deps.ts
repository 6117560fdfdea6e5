/** What the music-worker's processors are given: connections, stores, the ffmpeg runner. */
import type { FastifyBaseLogger } from 'fastify';
import type { MediaStep } from '../../src/music/jobs/media-step.js';
import type { MaintenanceTasks } from '../../src/music/jobs/registry.js';
import type { FfmpegRunner } from '../../src/music/repositories/ffmpeg-runner.js';
import type { ObjectStores } from '../../src/music/repositories/object-store/object-store.js';
import type { VersionEvents } from './live-steps.js';
import type { MailDeps } from './mail.js';
import type { LibraryImportRunner } from './library-import.js';
import type { OriginalCache } from './original-cache.js';
import type { PaymentEventProcessor } from '../../src/music/services/payment-events.js';
import type { VersionProcessingRepository } from '../../src/music/repositories/version-processing-repository.js';

export interface ProcessorDeps {
  stores: ObjectStores;
  versions: VersionProcessingRepository;
  runner: FfmpegRunner;
  /** Local copies (and probes) of originals, shared by the media jobs of a version. */
  originals: OriginalCache;
  maintenance: MaintenanceTasks;
  /** Applies recorded provider events (the payments queue). */
  payments: Pick<PaymentEventProcessor, 'process'>;
  /** The `mail` queue's SMTP transport and sender. */
  mail: MailDeps;
  /** Private scratch space; each job gets its own folder inside and removes it. */
  tmpDir: string;
  log: FastifyBaseLogger;
  /** Runs a library import (src/music/library-wiring.ts), as the CLI does. */
  library: LibraryImportRunner;
  /** True while this library import is paused: its media jobs are held (media-job.ts). */
  importPaused?: (importId: string) => Promise<boolean>;
  /** Each step's start, progress and end, told to the version's owner (live-steps.ts). */
  events?: VersionEvents;
  /** The media steps (media-steps.ts) unless a test adds one. */
  steps?: readonly MediaStep[];
}

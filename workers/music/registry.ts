/**
 * The typed job registry: one processor per queue name, each typed by its queue's payload
 * (src/music/jobs/queues.ts). `ProcessorRegistry` is a mapped type over QUEUE_NAMES, so adding a
 * queue without a processor (or giving one the wrong payload) does not compile.
 */
import { artworkProcessor } from './artwork.js';
import type { ProcessorDeps } from './deps.js';
import type { ProcessorRegistry } from './job-processor.js';
import { finalizeProcessor } from './finalize.js';
import { loudnessProcessor } from './loudness.js';
import { paymentsProcessor } from './payments.js';
import { mailProcessor } from './mail.js';
import { libraryImportProcessor } from './library-import.js';
import { transcodeProcessor } from './transcode.js';
import { waveformProcessor } from './waveform.js';

export function createProcessors(deps: ProcessorDeps): ProcessorRegistry {
  return {
    transcode: transcodeProcessor(deps),
    waveform: waveformProcessor(deps),
    'artwork-extract': artworkProcessor(deps),
    loudness: loudnessProcessor(deps),
    'version-finalize': finalizeProcessor(deps),
    'analytics-rollup': (job, _token, _signal) =>
      deps.maintenance.rollupAnalytics(job.data.nowMs ?? Date.now()),
    'upload-cleanup': (job, _token, _signal) => deps.maintenance.cleanupUploads(job.data.nowMs ?? Date.now()),
    payments: paymentsProcessor(deps),
    mail: mailProcessor(deps.mail),
    'library-import': libraryImportProcessor(deps.library),
  };
}

/**
 * The typed job registry: one processor per queue name, each typed by its queue's payload
 * (src/music/jobs/queues.ts). `ProcessorRegistry` is a mapped type over QUEUE_NAMES, so adding a
 * queue without a processor (or giving one the wrong payload) does not compile.
 */
import type { Job } from 'bullmq';
import type { JobPayloads, QueueName } from '../../src/music/jobs/queues.js';
import { artworkProcessor } from './artwork.js';
import type { ProcessorDeps } from './deps.js';
import { finalizeProcessor } from './finalize.js';
import { loudnessProcessor } from './loudness.js';
import { transcodeProcessor } from './transcode.js';
import { waveformProcessor } from './waveform.js';

/**
 * BullMQ's processor with the abort signal it passes when the worker cancels a job (on
 * shutdown). Processors return what is stored as the job's return value.
 */
export type JobProcessor<Q extends QueueName> = (
  job: Job<JobPayloads[Q], unknown, Q>,
  token: string | undefined,
  signal: AbortSignal | undefined,
) => Promise<unknown>;

export type ProcessorRegistry = { readonly [Q in QueueName]: JobProcessor<Q> };

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
  };
}

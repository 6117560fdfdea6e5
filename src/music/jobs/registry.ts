/**
 * The typed job registry: one processor per queue name, each typed by its queue's payload.
 * `ProcessorRegistry` is a mapped type over QUEUE_NAMES, so adding a queue to queues.ts without
 * a processor (or giving one the wrong payload) does not compile.
 */
import type { Job } from 'bullmq';
import type { JobPayloads, QueueName } from './queues.js';

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

/** Defaults for a 2-core machine: one ffmpeg per media queue, so four at most at once. */
export const DEFAULT_CONCURRENCY: { readonly [Q in QueueName]: number } = {
  transcode: 1,
  waveform: 1,
  'artwork-extract': 1,
  loudness: 1,
  'version-finalize': 2,
  'analytics-rollup': 1,
  'upload-cleanup': 1,
  payments: 2,
  mail: 2,
};

/**
 * The housekeeping the worker runs on a schedule; implemented by the music domain (plays
 * rolled into daily stats and trending; multipart uploads abandoned for 24 h aborted).
 * Each returns a short summary stored as the job's return value.
 */
export interface MaintenanceTasks {
  rollupAnalytics(nowMs: number): Promise<Record<string, number>>;
  cleanupUploads(nowMs: number): Promise<Record<string, number>>;
}

/**
 * What the job registry knows of each queue besides its payload: how many jobs run at once, and
 * the housekeeping the scheduled queues run. The processors themselves are typed and registered
 * in workers/music/registry.ts (`ProcessorRegistry`, a mapped type over QUEUE_NAMES).
 */
import { MEDIA_STEPS, type MediaQueueName } from './media-steps.js';
import type { QueueName } from './queues.js';

/** Defaults for a 2-core machine: the media steps say theirs (one ffmpeg each). */
export const DEFAULT_CONCURRENCY: { readonly [Q in QueueName]: number } = {
  ...(Object.fromEntries(MEDIA_STEPS.map((s) => [s.queue, s.concurrency])) as Record<MediaQueueName, number>),
  'version-finalize': 2,
  'analytics-rollup': 1,
  'upload-cleanup': 1,
  payments: 2,
  mail: 2,
  // One folder walk at a time: its media jobs are the work, and they queue behind uploads.
  'library-import': 1,
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

/**
 * The repeatable jobs: BullMQ job schedulers with fixed ids, so every worker that starts
 * upserts the same two schedules instead of adding one more each time.
 */
import type { QueueName } from './queues.js';

export interface RepeatableJob {
  queue: Extract<QueueName, 'analytics-rollup' | 'upload-cleanup'>;
  schedulerId: string;
  everyMs: number;
}

export const REPEATABLE_JOBS: readonly RepeatableJob[] = [
  { queue: 'analytics-rollup', schedulerId: 'analytics-rollup-every-5m', everyMs: 5 * 60_000 },
  { queue: 'upload-cleanup', schedulerId: 'upload-cleanup-hourly', everyMs: 60 * 60_000 },
];

/** Repeatable jobs keep few records: they run hundreds of times a day. */
export const REPEATABLE_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 10_000 },
  removeOnComplete: { count: 50 },
  removeOnFail: { count: 200 },
} as const;

/** The shape of a queue's processor, typed by its payload (src/music/jobs/queues.ts). */
import type { Job } from 'bullmq';
import type { JobPayloads, QueueName } from '../../src/music/jobs/queues.js';

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

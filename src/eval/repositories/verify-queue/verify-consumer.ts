/**
 * The consumer side of the `verify` queue: a BullMQ Worker taking as many jobs at once as its
 * Piscina pool has threads, each run exactly as local mode runs it (VerifierPool.run).
 */
import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { VerifierPool } from '../../speed/pool.js';
import {
  decodeBody,
  DEADLINE_PASSED,
  VERIFY_QUEUE,
  type VerifyJobData,
  type VerifyJobResult,
} from '../../verify-queue/verify-job.js';

export interface VerifyConsumerOptions {
  /** ioredis with maxRetriesPerRequest: null (BullMQ's blocking commands need it). */
  connection: Redis;
  prefix: string;
  pool: VerifierPool;
  lockMs: number;
  stalledIntervalMs: number;
  now?: () => number;
}

export function createVerifyConsumer(options: VerifyConsumerOptions): Worker<VerifyJobData, VerifyJobResult> {
  const now = options.now ?? Date.now;
  return new Worker<VerifyJobData, VerifyJobResult>(
    VERIFY_QUEUE,
    (job) => {
      // Nobody waits for it any more: spend no thread on it.
      if (now() > job.data.deadline) throw new Error(DEADLINE_PASSED);
      return options.pool.run(job.data.tool, decodeBody(job.data));
    },
    {
      connection: options.connection,
      prefix: options.prefix,
      concurrency: options.pool.size,
      lockDuration: options.lockMs,
      stalledInterval: options.stalledIntervalMs,
      // A job whose worker died is retried once elsewhere; a second death fails it (503).
      maxStalledCount: 1,
      // Verifier jobs never wait on one another; started when the entry is ready.
      autorun: false,
    },
  );
}

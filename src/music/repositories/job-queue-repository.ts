/**
 * BullMQ queues seen from outside a worker: job counts for health and metrics, and retrying
 * failed jobs. One Queue object per name, sharing one Redis connection. Redis failing or not
 * answering in time (the HTTP services bound every command, src/core/redis.ts) is an
 * `unavailable` AppError: 503 with Retry-After, never a 500.
 */
import { Queue, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { AppError } from '../../core/errors.js';
import { BORROWED_CONNECTION_OPTIONS, closeBorrowed } from './borrowed-connection.js';
import { QUEUE_NAMES, type QueueName, type QueueNaming } from '../jobs/queues.js';
import { queuesUnavailable } from '../errors/database.js';

/** Runs one Redis/BullMQ step; its failure is the queues being unavailable. */
async function redisStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    throw err instanceof AppError ? err : queuesUnavailable(err);
  }
}

export interface QueueCounts {
  /** Not started yet: waiting, prioritized or delayed (a retry's backoff). */
  waiting: number;
  active: number;
  failed: number;
  completed: number;
}

export interface FailedJob {
  id: string;
  data: unknown;
}

export interface JobQueueRepository {
  counts(): Promise<Record<QueueName, QueueCounts>>;
  /** Up to `limit` failed jobs, oldest failure first. */
  listFailed(queue: QueueName, limit: number): Promise<FailedJob[]>;
  /**
   * Moves those still failed back to waiting; the ids it moved. A job that is no longer failed
   * (retried by someone else, removed, or never failed) is skipped, whenever that happened.
   */
  retry(queue: QueueName, ids: readonly string[]): Promise<string[]>;
  close(): Promise<void>;
}

export class BullJobQueueRepository implements JobQueueRepository {
  private readonly queues: Record<QueueName, Queue>;

  constructor(
    private readonly connection: Redis,
    naming: QueueNaming,
    /** The registry's queues; a test may add one. */
    private readonly names: readonly QueueName[] = QUEUE_NAMES,
  ) {
    const queues = {} as Record<QueueName, Queue>;
    for (const name of names) {
      queues[name] = new Queue(name, { connection, prefix: naming.prefix, ...BORROWED_CONNECTION_OPTIONS });
      // Redis being away surfaces as the failing call (health answers 503); not as a crash.
      queues[name].on('error', () => undefined);
    }
    this.queues = queues;
  }

  counts(): Promise<Record<QueueName, QueueCounts>> {
    return redisStep(() => this.readCounts());
  }

  private async readCounts(): Promise<Record<QueueName, QueueCounts>> {
    const entries = await Promise.all(
      this.names.map(async (name) => {
        const c = await this.queues[name].getJobCounts(
          'waiting',
          'prioritized',
          'delayed',
          'active',
          'failed',
          'completed',
        );
        const n = (k: string): number => c[k] ?? 0;
        const counts: QueueCounts = {
          waiting: n('waiting') + n('prioritized') + n('delayed'),
          active: n('active'),
          failed: n('failed'),
          completed: n('completed'),
        };
        return [name, counts] as const;
      }),
    );
    return Object.fromEntries(entries) as Record<QueueName, QueueCounts>;
  }

  async listFailed(queue: QueueName, limit: number): Promise<FailedJob[]> {
    // Oldest failure first, and only `limit` of them read (up to 5000 failed jobs are kept).
    const failed = await redisStep(() => this.queues[queue].getJobs(['failed'], 0, limit - 1, true));
    return failed.flatMap((job) => (job.id === undefined ? [] : [{ id: job.id, data: job.data as unknown }]));
  }

  async retry(queue: QueueName, ids: readonly string[]): Promise<string[]> {
    const retried: string[] = [];
    for (const id of ids) {
      const job = await redisStep(() => this.queues[queue].getJob(id));
      if (job && (await redisStep(() => retryIfFailed(job)))) retried.push(id);
    }
    return retried;
  }

  async close(): Promise<void> {
    await closeBorrowed(Object.values(this.queues), this.connection);
  }
}

/**
 * BullMQ's retry refuses (throws) when the job is not in `failed` at that instant: checking
 * first would leave a window in which another retry, or a removal, turns that into an error.
 * So try, and on refusal look again: a job no longer failed is skipped, anything else is thrown.
 */
async function retryIfFailed(job: Job): Promise<boolean> {
  try {
    await job.retry('failed', { resetAttemptsMade: true });
    return true;
  } catch (err) {
    if (!(await job.isFailed())) return false;
    throw err;
  }
}

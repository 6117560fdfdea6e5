/**
 * BullMQ queues seen from outside a worker: job counts for health and metrics, and retrying
 * failed jobs. One Queue object per name, sharing one Redis connection.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { BORROWED_CONNECTION_OPTIONS, closeBorrowed } from '../jobs/borrowed-connection.js';
import { QUEUE_NAMES, type QueueName, type QueueNaming } from '../jobs/queues.js';

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
  /** Moves those still failed back to waiting; the ids it moved. */
  retry(queue: QueueName, ids: readonly string[]): Promise<string[]>;
  close(): Promise<void>;
}

export class BullJobQueueRepository implements JobQueueRepository {
  private readonly queues: Record<QueueName, Queue>;

  constructor(
    private readonly connection: Redis,
    naming: QueueNaming,
  ) {
    const queues = {} as Record<QueueName, Queue>;
    for (const name of QUEUE_NAMES) {
      queues[name] = new Queue(name, { connection, prefix: naming.prefix, ...BORROWED_CONNECTION_OPTIONS });
      // Redis being away surfaces as the failing call (health answers 503); not as a crash.
      queues[name].on('error', () => undefined);
    }
    this.queues = queues;
  }

  async counts(): Promise<Record<QueueName, QueueCounts>> {
    const entries = await Promise.all(
      QUEUE_NAMES.map(async (name) => {
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
    // getFailed lists newest first; the oldest failures are retried first.
    const failed = (await this.queues[queue].getFailed(0, -1)).reverse().slice(0, limit);
    return failed.flatMap((job) => (job.id === undefined ? [] : [{ id: job.id, data: job.data as unknown }]));
  }

  async retry(queue: QueueName, ids: readonly string[]): Promise<string[]> {
    const retried: string[] = [];
    for (const id of ids) {
      const job = await this.queues[queue].getJob(id);
      if (!job || !(await job.isFailed())) continue;
      await job.retry('failed', { resetAttemptsMade: true });
      retried.push(id);
    }
    return retried;
  }

  async close(): Promise<void> {
    await closeBorrowed(Object.values(this.queues), this.connection);
  }
}

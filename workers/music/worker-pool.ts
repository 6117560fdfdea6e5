/**
 * One BullMQ Worker per queue of the registry, each with its own concurrency, lock duration
 * (stall detection) and the processors' metrics. Shutdown: stop taking jobs, let running ones
 * finish within the bound, then cancel the rest, whose processors hand them back to the queue.
 */
import { Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { QUEUE_NAMES, type QueueName } from '../../src/music/jobs/queues.js';
import type { JobProcessor, ProcessorRegistry } from './job-processor.js';
import type { WorkerMetrics } from '../../src/music/worker-metrics.js';
import { SHUTDOWN_REASON } from './media-job.js';

export interface WorkerPoolOptions {
  /** ioredis with maxRetriesPerRequest: null (BullMQ's blocking commands need it). */
  connection: Redis;
  prefix: string;
  processors: ProcessorRegistry;
  concurrency: Readonly<Record<QueueName, number>>;
  lockMs: number;
  stalledIntervalMs: number;
  metrics: WorkerMetrics;
  log: FastifyBaseLogger;
  /** The queues to consume: the registry's unless a test adds one (with its processor). */
  queues?: readonly QueueName[];
  /** Called for every job that failed (also those BullMQ failed without running them). */
  onFailed?: (queue: QueueName, job: Job, err: Error) => Promise<void>;
}

const HANDED_BACK = new Set(['WaitingError', 'WaitingChildrenError', 'DelayedError']);

export class WorkerPool {
  private readonly workers: Worker[] = [];

  constructor(private readonly options: WorkerPoolOptions) {}

  start(): void {
    for (const name of this.options.queues ?? QUEUE_NAMES) this.workers.push(this.createWorker(name));
  }

  private createWorker<Q extends QueueName>(name: Q): Worker {
    const { options } = this;
    const processor = options.processors[name] as JobProcessor<QueueName>;
    const timed = async (job: Job, token?: string, signal?: AbortSignal): Promise<unknown> => {
      const end = options.metrics.jobDuration.startTimer({ queue: name });
      try {
        const result = await processor(job as Parameters<typeof processor>[0], token, signal);
        end({ outcome: 'completed' });
        return result;
      } catch (err) {
        end({ outcome: HANDED_BACK.has((err as Error).name) ? 'requeued' : 'failed' });
        throw err;
      }
    };
    const worker = new Worker(name, timed, {
      connection: options.connection,
      prefix: options.prefix,
      concurrency: options.concurrency[name],
      lockDuration: options.lockMs,
      stalledInterval: options.stalledIntervalMs,
      // A job whose worker died twice is failed rather than retried forever (the first death
      // puts it back in the queue; at the second, stc 2 > 1, the next worker fails it).
      maxStalledCount: 1,
    });
    worker.on('failed', (job, err) => {
      options.log.warn(
        { queue: name, jobId: job?.id, attemptsMade: job?.attemptsMade, err: err.message },
        'job failed',
      );
      if (job && options.onFailed)
        options
          .onFailed(name, job, err)
          .catch((hookErr: unknown) =>
            options.log.error({ queue: name, jobId: job.id, err: String(hookErr) }, 'failure hook failed'),
          );
    });
    worker.on('error', (err) => options.log.error({ queue: name, err: err.message }, 'worker error'));
    return worker;
  }

  /** Resolves when every worker has closed; jobs still running at `boundMs` are handed back. */
  async close(boundMs: number): Promise<void> {
    const closing = Promise.all(this.workers.map((w) => w.close()));
    const timer = setTimeout(() => {
      this.options.log.warn({ boundMs }, 'jobs still running at the shutdown bound: handing them back');
      for (const w of this.workers) w.cancelAllJobs(SHUTDOWN_REASON);
    }, boundMs);
    try {
      await closing;
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * The one function that starts a version's processing: a BullMQ flow whose parent
 * (`version-finalize`) runs once its media children (jobs/media-steps.ts) are done. A required
 * child that fails for good fails the parent (`failParentOnFailure`), and the worker marks the
 * version `failed` with that child's error; an optional one's failure is set aside
 * (`ignoreDependencyOnFailure`) and the parent runs without it.
 */
import { FlowProducer, type FlowJob, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { BORROWED_CONNECTION_OPTIONS, closeBorrowed } from './borrowed-connection.js';
import type { FlowOptions, VersionFlowStarter } from '../jobs/flow.js';
import type { MediaStep } from '../jobs/media-step.js';
import { MEDIA_STEPS } from '../jobs/media-steps.js';
import { versionJobId, type MediaJobData, type MediaQueueName, type QueueNaming } from '../jobs/queues.js';

/** Transient failures (a store hiccup, a killed worker) retry; UnrecoverableError does not. */
export const MEDIA_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 5_000 },
  removeOnComplete: { age: 7 * 24 * 3600, count: 1000 },
  removeOnFail: { age: 30 * 24 * 3600, count: 5000 },
};

export class BullVersionFlowStarter implements VersionFlowStarter {
  private readonly producer: FlowProducer;

  constructor(
    private readonly connection: Redis,
    naming: QueueNaming,
    /** The registry's steps; a test may add one. */
    private readonly steps: readonly MediaStep[] = MEDIA_STEPS,
  ) {
    this.producer = new FlowProducer({ connection, prefix: naming.prefix, ...BORROWED_CONNECTION_OPTIONS });
  }

  async start(data: MediaJobData, options: FlowOptions = {}): Promise<void> {
    await this.producer.add(this.flowOf(data, options));
  }

  async startMany(data: MediaJobData[], options: FlowOptions = {}): Promise<void> {
    if (data.length > 0) await this.producer.addBulk(data.map((d) => this.flowOf(d, options)));
  }

  private flowOf(data: MediaJobData, options: FlowOptions): FlowJob {
    const priority = options.priority === undefined ? {} : { priority: options.priority };
    return {
      name: 'version-finalize',
      queueName: 'version-finalize',
      data: { versionId: data.versionId, trackId: data.trackId },
      opts: { ...MEDIA_JOB_OPTIONS, ...priority, jobId: versionJobId('version-finalize', data.versionId) },
      children: this.steps.map(({ queue, required }) => ({
        name: queue,
        queueName: queue,
        data,
        opts: {
          ...MEDIA_JOB_OPTIONS,
          ...priority,
          jobId: versionJobId(queue as MediaQueueName, data.versionId),
          ...(required ? { failParentOnFailure: true } : { ignoreDependencyOnFailure: true }),
        },
      })),
    };
  }

  close(): Promise<void> {
    return closeBorrowed([this.producer], this.connection);
  }
}

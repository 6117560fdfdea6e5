/**
 * Operator actions on the job queues: retry failed jobs of one queue. A retried media job
 * reopens its version (failed -> processing) and re-runs the rest of its flow (the sibling
 * media jobs that failed too, then the parent step) so the version can become ready.
 */
import { requiredQueues } from '../jobs/media-steps.js';
import { MEDIA_QUEUES, QUEUE_NAMES, versionJobId, type QueueName } from '../jobs/queues.js';
import type { JobQueueRepository } from '../repositories/job-queue-repository.js';
import type { VersionProcessingRepository } from '../repositories/version-processing-repository.js';
import { unknownQueue } from '../errors/jobs.js';

export interface RetryResult {
  queue: QueueName;
  retried: number;
  job_ids: string[];
}

export const INTERRUPTED = 'admin retry: interrupted (the job queues did not answer); send the retry again';

export function isQueueName(name: string): name is QueueName {
  return (QUEUE_NAMES as readonly string[]).includes(name);
}

export class JobAdminService {
  constructor(
    private readonly queues: JobQueueRepository,
    private readonly versions: VersionProcessingRepository,
  ) {}

  async retryFailed(input: { queue: string; limit: number }): Promise<RetryResult> {
    const queue = input.queue;
    if (!isQueueName(queue)) {
      throw unknownQueue(queue);
    }
    const failed = await this.queues.listFailed(queue, input.limit);
    // An optional step's failure left its version ready: only the job itself runs again.
    const versionIds = requiredQueues().includes(queue)
      ? [...new Set(failed.map((j) => (j.data as { versionId?: unknown }).versionId))].filter(
          (id): id is string => typeof id === 'string',
        )
      : [];
    // Reopened before the jobs run again, so a new permanent failure is recorded, not undone.
    for (const id of versionIds) await this.versions.reopen(id);
    let ids: string[];
    try {
      ids = await this.queues.retry(
        queue,
        failed.map((j) => j.id),
      );
      // The version's flow: its other failed media jobs run again too, then the parent waits for
      // them all again (a parent failed by a child would otherwise never finalize the version).
      for (const versionId of versionIds) {
        for (const other of MEDIA_QUEUES) {
          if (other !== queue) await this.queues.retry(other, [versionJobId(other, versionId)]);
        }
        await this.queues.retry('version-finalize', [versionJobId('version-finalize', versionId)]);
      }
    } catch (err) {
      // Redis failed part-way: a reopened version must not look busy with nothing running.
      // (One whose jobs were already requeued still becomes ready when they succeed.)
      for (const id of versionIds) await this.versions.markFailed(id, INTERRUPTED).catch(() => undefined);
      throw err;
    }
    return { queue, retried: ids.length, job_ids: ids };
  }
}

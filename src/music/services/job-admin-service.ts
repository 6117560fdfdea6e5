/**
 * Operator actions on the job queues: retry failed jobs of one queue. A retried media job
 * reopens its version (failed -> processing) so the flow can finish it.
 */
import { AppError, pointer } from '../../core/errors.js';
import { MEDIA_QUEUES, QUEUE_NAMES, type QueueName } from '../jobs/queues.js';
import type { JobQueueRepository } from '../repositories/job-queue-repository.js';
import type { VersionProcessingRepository } from '../repositories/version-processing-repository.js';

export interface RetryResult {
  queue: QueueName;
  retried: number;
  job_ids: string[];
}

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
      throw new AppError(
        'invalid_input',
        `Unknown queue ${JSON.stringify(queue)}; use one of ${QUEUE_NAMES.join(', ')}.`,
        {
          errors: [{ path: pointer('queue'), message: `must be one of ${QUEUE_NAMES.join(', ')}` }],
        },
      );
    }
    const failed = await this.queues.listFailed(queue, input.limit);
    // Reopened before the jobs run again, so a new permanent failure is recorded, not undone.
    if ((MEDIA_QUEUES as readonly string[]).includes(queue) || queue === 'version-finalize') {
      const versionIds = new Set(failed.map((j) => (j.data as { versionId?: unknown }).versionId));
      for (const id of versionIds) if (typeof id === 'string') await this.versions.reopen(id);
    }
    const ids = await this.queues.retry(
      queue,
      failed.map((j) => j.id),
    );
    return { queue, retried: ids.length, job_ids: ids };
  }
}

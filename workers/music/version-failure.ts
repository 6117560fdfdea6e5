/**
 * Failures BullMQ decides without running our processor: a job whose worker died more often
 * than `maxStalledCount` is failed by the next worker that takes it ("job stalled more than
 * allowable limit"), so the processor never gets to mark the version. The worker pool calls
 * this for every job that ended in `failed`; for the required media jobs and the flow's parent it
 * marks the version `failed` (a no-op when the processor already did, since the first error stays).
 * An optional step's failure is its own: the version is ready without it.
 */
import type { Job } from 'bullmq';
import type { MediaStep } from '../../src/music/jobs/media-step.js';
import { requiredQueues } from '../../src/music/jobs/media-steps.js';
import type { QueueName } from '../../src/music/jobs/queues.js';
import type { VersionProcessingRepository } from '../../src/music/repositories/version-processing-repository.js';

/** BullMQ's failedReason for a job that stalled more than maxStalledCount times. */
export const STALLED_TOO_OFTEN = 'job stalled more than allowable limit';

/** What an admin reads on the version (and in the job's log line). */
export function failureReason(queue: QueueName, err: Error): string {
  const why =
    err.message === STALLED_TOO_OFTEN
      ? 'the worker running this job stopped twice before finishing it (killed, crashed or out of memory); retry it with POST /api/v1/admin/jobs/retry'
      : err.message;
  return `${queue}: ${why}`;
}

/** Marks the version of a job that failed for good; returns the reason it recorded, if any. */
export async function failVersionOfJob(
  versions: VersionProcessingRepository,
  queue: QueueName,
  job: Job,
  err: Error,
  steps?: readonly MediaStep[],
): Promise<string | undefined> {
  if (queue !== 'version-finalize' && !requiredQueues(steps).includes(queue)) return undefined;
  const versionId = (job.data as { versionId?: unknown }).versionId;
  if (typeof versionId !== 'string') return undefined;
  // A failure with attempts left is only a retry (the job is delayed, not failed).
  if ((await job.getState()) !== 'failed') return undefined;
  const reason = failureReason(queue, err);
  await versions.markFailed(versionId, reason);
  return reason;
}

/**
 * version-finalize, the parent of a version's flow: runs once its required media jobs succeeded.
 * After an operator retried a failed child, the parent is retried too and may start before the
 * child is done: it then goes back to waiting for its children (BullMQ's WaitingChildrenError).
 */
import { UnrecoverableError, WaitingChildrenError, type Job } from 'bullmq';
import { MEDIA_STEPS } from '../../src/music/jobs/media-steps.js';
import type { VersionFinalizeData } from '../../src/music/jobs/queues.js';
import type { VersionState } from '../../src/music/repositories/version-processing-repository.js';
import type { ProcessorDeps } from './deps.js';

export function finalizeProcessor(deps: ProcessorDeps) {
  return async (
    job: Job<VersionFinalizeData>,
    token: string | undefined,
    _signal: AbortSignal | undefined,
  ) => {
    if (token !== undefined && (await job.moveToWaitingChildren(token))) throw new WaitingChildrenError();
    const version = await deps.versions.find(job.data.versionId);
    if (!version) throw new UnrecoverableError(`version ${job.data.versionId} does not exist`);
    const missing = (deps.steps ?? MEDIA_STEPS)
      .filter((s) => s.required && s.writes.some((column) => unset(version, column)))
      .map((s) => s.label);
    if (missing.length > 0) {
      const error = `finalize: outputs missing after processing (${missing.join(', ')})`;
      await deps.versions.markFailed(job.data.versionId, error);
      throw new UnrecoverableError(error);
    }
    await deps.versions.markReady(job.data.versionId);
    return { status: 'ready' };
  };
}

/** A column the version reads back (VersionState) that is still null after its step ran. */
function unset(version: VersionState, column: string): boolean {
  return column in version && version[column as keyof VersionState] === null;
}

/**
 * version-finalize, the parent of a version's flow: runs once its four media jobs succeeded.
 * After an operator retried a failed child, the parent is retried too and may start before the
 * child is done: it then goes back to waiting for its children (BullMQ's WaitingChildrenError).
 */
import { UnrecoverableError, WaitingChildrenError, type Job } from 'bullmq';
import type { VersionFinalizeData } from '../../src/music/jobs/queues.js';
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
    const missing = [
      version.hlsKey === null && 'HLS',
      version.waveformKey === null && 'waveform',
      version.loudnessIntegrated === null && 'loudness',
    ].filter(Boolean);
    if (missing.length > 0) {
      const error = `finalize: outputs missing after processing (${missing.join(', ')})`;
      await deps.versions.markFailed(job.data.versionId, error);
      throw new UnrecoverableError(error);
    }
    await deps.versions.markReady(job.data.versionId);
    return { status: 'ready' };
  };
}

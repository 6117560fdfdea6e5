/**
 * What every media job shares: the version moves to `processing`, the original's local copy
 * and probe come from the worker's cache (one download and one ffprobe per version, not per
 * job), the job's own work runs in a private folder, and failures are sorted. An input ffmpeg
 * cannot decode is permanent (UnrecoverableError: no retries wasted); anything else retries
 * with backoff. On the last attempt (or a permanent failure) a required step marks the version
 * `failed`; an optional one (media-steps.ts) announces its own failure and leaves the version be.
 * On shutdown the job is handed back to the queue (moved to wait), not failed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DelayedError, UnrecoverableError, WaitingError, type Job } from 'bullmq';
import { mediaStepOf } from '../../src/music/jobs/media-steps.js';
import type { MediaJobData, SkippedStep } from '../../src/music/jobs/queues.js';
import { IMPORT_HOLD_MS } from '../../src/music/repositories/library-queue.js';
import {
  isInputFault,
  progressPercent,
  withoutHeapAddresses,
} from '../../src/music/ffmpeg-commands/ffmpeg-output.js';
import type { ProbeInfo } from '../../src/music/ffmpeg-commands/probe.js';
import { FfmpegError } from '../../src/music/repositories/ffmpeg-runner.js';
import type { ProcessorDeps } from './deps.js';
import { NO_VERSION_EVENTS } from './live-steps.js';
import type { OriginalLease } from './original-cache.js';

export interface MediaInput {
  inputPath: string;
  workDir: string;
  probe: ProbeInfo;
  signal: AbortSignal | undefined;
  /** Reports ffmpeg's `time=` against the duration as the job's progress (throttled). */
  progress: (seconds: number) => void;
  /** Awaits `step` and records its wall time under `name` in the job's `timings`. */
  phase: <T>(name: string, step: Promise<T>) => Promise<T>;
}

/** Wall milliseconds per phase of a job, returned with its result (where the time went). */
export type JobTimings = Record<string, number>;

export const SHUTDOWN_REASON = 'worker shutting down';
const PROGRESS_INTERVAL_MS = 1000;

export async function runMediaJob<R extends object>(
  deps: ProcessorDeps,
  job: Job<MediaJobData>,
  token: string | undefined,
  signal: AbortSignal | undefined,
  work: (input: MediaInput) => Promise<R>,
): Promise<R & { timings: JobTimings }> {
  const { versionId, importId } = job.data;
  // A paused library import's jobs wait (delayed) instead of running; its resume releases them.
  if (importId !== undefined && token !== undefined && (await deps.importPaused?.(importId))) {
    await job.moveToDelayed(Date.now() + IMPORT_HOLD_MS, token);
    throw new DelayedError();
  }
  const timings: JobTimings = {};
  const phase = async <T>(name: string, step: Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await step;
    } finally {
      timings[name] = Math.round((timings[name] ?? 0) + performance.now() - started);
    }
  };
  const workDir = await mkdtemp(join(deps.tmpDir, `${job.queueName}-`));
  let original: OriginalLease | undefined;
  const events = deps.events ?? NO_VERSION_EVENTS;
  try {
    await phase('version', startVersion(deps, versionId));
    await events.step(job.data, job.queueName, 'started');
    original = await phase('original', deps.originals.acquire(job.data.sourceKey, signal));
    const { path: inputPath, probe } = original;
    let lastReported = -1;
    let lastReportedAt = 0;
    const progress = (seconds: number): void => {
      const percent = progressPercent(seconds, probe.durationMs);
      // At most one Redis write (and event) a second: ffmpeg prints stats twice a second.
      if (percent <= lastReported || Date.now() - lastReportedAt < PROGRESS_INTERVAL_MS) return;
      lastReported = percent;
      lastReportedAt = Date.now();
      job.updateProgress(percent).catch(() => undefined);
      void events.step(job.data, job.queueName, 'progress', { percent });
    };
    const result = await work({ inputPath, workDir, probe, signal, progress, phase });
    const skipped = (result as Partial<SkippedStep>).skipped;
    await events.step(
      job.data,
      job.queueName,
      skipped === undefined ? 'done' : 'skipped',
      skipped === undefined ? {} : { reason: skipped },
    );
    return { ...result, timings };
  } catch (err) {
    if (signal?.aborted && token !== undefined) {
      // Handed back: another worker (or this one after a restart) takes it from the start.
      await handBack(deps, job, token);
      throw new WaitingError();
    }
    const step = mediaStepOf(job.queueName, deps.steps);
    const failure = classify(err, step?.reads ?? 'audio');
    const final = failure instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const reason = `${job.queueName}: ${failure.message}`;
    if (final && step?.required !== false) await deps.versions.markFailed(versionId, reason);
    else if (final) await events.step(job.data, job.queueName, 'failed', { reason: reason.slice(0, 2000) });
    throw failure;
  } finally {
    original?.release();
    await rm(workDir, { recursive: true, force: true });
  }
}

async function startVersion(deps: ProcessorDeps, versionId: string): Promise<void> {
  const version = await deps.versions.find(versionId);
  if (!version) throw new UnrecoverableError(`version ${versionId} does not exist`);
  await deps.versions.markProcessing(versionId);
}

/**
 * Moves the cancelled job back to the queue. That needs the job's lock: if it lapsed (the
 * process was starved for longer than the lock, so renewal came too late) BullMQ refuses the
 * move; the job then stays active until a stall check requeues it, which is all that can
 * happen without the lock (another worker may own the job by now).
 */
async function handBack(deps: ProcessorDeps, job: Job<MediaJobData>, token: string): Promise<void> {
  try {
    await job.moveToWait(token);
  } catch (err) {
    deps.log.warn(
      { queue: job.queueName, jobId: job.id, err: (err as Error).message },
      'could not hand the job back (its lock lapsed); the stalled-job check will requeue it',
    );
  }
}

/** ffmpeg could not decode what the step reads: permanent, whatever the attempt. */
export function isUndecodable(err: unknown): err is FfmpegError {
  return err instanceof FfmpegError && err.reason === 'exit' && isInputFault(err.stderr);
}

/** The recorded reason the picture step skipped a picture it cannot decode (its `reads`). */
export function skippedPicture(err: FfmpegError): SkippedStep {
  return { skipped: `the attached picture cannot be decoded: ${withoutHeapAddresses(err.message)}` };
}

function classify(err: unknown, input: 'audio' | 'picture'): Error {
  if (err instanceof UnrecoverableError) return err;
  if (isUndecodable(err))
    return new UnrecoverableError(`the ${input} cannot be decoded: ${withoutHeapAddresses(err.message)}`);
  return err instanceof Error ? err : new Error(String(err));
}

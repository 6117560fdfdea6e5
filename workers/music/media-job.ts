/**
 * What every media job shares: the version moves to `processing`, the original is copied to a
 * private folder and probed, the job's own work runs, and failures are sorted. An input ffmpeg
 * cannot decode is permanent (UnrecoverableError: no retries wasted); anything else retries
 * with backoff. On the last attempt (or a permanent failure) the version is marked `failed`.
 * On shutdown the job is handed back to the queue (moved to wait), not failed.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { UnrecoverableError, WaitingError, type Job } from 'bullmq';
import type { MediaJobData } from '../../src/music/jobs/queues.js';
import { isInputFault, progressPercent } from '../../src/music/media/ffmpeg-output.js';
import { parseProbe, probeArgs, type ProbeInfo } from '../../src/music/media/probe.js';
import { FfmpegError } from '../../src/music/repositories/ffmpeg-runner.js';
import type { ProcessorDeps } from './deps.js';

export interface MediaInput {
  inputPath: string;
  workDir: string;
  probe: ProbeInfo;
  signal: AbortSignal | undefined;
  /** Reports ffmpeg's `time=` against the duration as the job's progress (throttled). */
  progress: (seconds: number) => void;
}

export const SHUTDOWN_REASON = 'worker shutting down';

export async function runMediaJob<R>(
  deps: ProcessorDeps,
  job: Job<MediaJobData>,
  token: string | undefined,
  signal: AbortSignal | undefined,
  work: (input: MediaInput) => Promise<R>,
): Promise<R> {
  const { versionId } = job.data;
  const workDir = await mkdtemp(join(deps.tmpDir, `${job.queueName}-`));
  try {
    const version = await deps.versions.find(versionId);
    if (!version) throw new UnrecoverableError(`version ${versionId} does not exist`);
    await deps.versions.markProcessing(versionId);
    const original = await deps.stores.originals.get(job.data.sourceKey);
    if (!original) throw new UnrecoverableError('the original file is missing from the store');
    const inputPath = join(workDir, 'original');
    await pipeline(original.body, createWriteStream(inputPath));
    const probe = await probeInput(deps, inputPath, signal);
    let lastReported = -1;
    const progress = (seconds: number): void => {
      const percent = progressPercent(seconds, probe.durationMs);
      if (percent <= lastReported) return;
      lastReported = percent;
      job.updateProgress(percent).catch(() => undefined);
    };
    return await work({ inputPath, workDir, probe, signal, progress });
  } catch (err) {
    if (signal?.aborted && token !== undefined) {
      // Handed back: another worker (or this one after a restart) takes it from the start.
      await job.moveToWait(token);
      throw new WaitingError();
    }
    const failure = classify(err);
    const final = failure instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    if (final) await deps.versions.markFailed(versionId, `${job.queueName}: ${failure.message}`);
    throw failure;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

async function probeInput(
  deps: ProcessorDeps,
  inputPath: string,
  signal: AbortSignal | undefined,
): Promise<ProbeInfo> {
  let json: string;
  try {
    json = await deps.runner.ffprobe(probeArgs(inputPath), { timeoutMs: 60_000, signal });
  } catch (err) {
    if (err instanceof FfmpegError && err.reason === 'exit')
      throw new UnrecoverableError('the file is not audio that ffmpeg can decode');
    throw err;
  }
  const parsed = parseProbe(json);
  if (!parsed.ok) throw new UnrecoverableError(`the file is not playable audio: ${parsed.reason}`);
  return parsed.info;
}

function classify(err: unknown): Error {
  if (err instanceof UnrecoverableError) return err;
  if (err instanceof FfmpegError && err.reason === 'exit' && isInputFault(err.stderr))
    return new UnrecoverableError(`the audio cannot be decoded: ${err.message}`);
  return err instanceof Error ? err : new Error(String(err));
}

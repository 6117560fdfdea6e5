/**
 * What one media step of a version's flow is: everything the flow, the worker, the live
 * protocol, the player, the ffmpeg check, the bench and /health need to know of it. A step is
 * one file in steps/ and one line in media-steps.ts (its processor: workers/music/registry.ts).
 */
import type { ProbeInfo } from '../ffmpeg-commands/probe.js';

/** What ffmpeg must offer for the step (names as `ffmpeg -encoders/-filters/-muxers` list them). */
export interface FfmpegNeeds {
  encoders: readonly string[];
  filters: readonly string[];
  muxers: readonly string[];
}

/** The columns a step fills on its version (VersionOutputs in version-processing-repository.ts). */
export type StepOutput =
  | 'durationMs'
  | 'hlsKey'
  | 'progressiveKey'
  | 'waveformKey'
  | 'artworkKey'
  | 'loudnessIntegrated'
  | 'loudnessRange'
  | 'truePeak'
  | 'replayGain';

export interface MediaStep<Q extends string = string, S extends string = string> {
  /** The BullMQ queue (also the job's name and the prefix of its job id). */
  queue: Q;
  /** What it decodes from the original: a fault in the audio fails it, a picture's is its own. */
  reads: 'audio' | 'picture';
  /** The live protocol's `step` (docs/live-updates.md). */
  step: S;
  /** The player's words for it. */
  label: string;
  ffmpeg: FfmpegNeeds;
  /** The columns it fills; for a required step the first must be set before the version is ready. */
  writes: readonly StepOutput[];
  /**
   * true: the version is ready only once this step succeeded, and its failure fails the version.
   * false: a decoration; its failure is reported on its own (live `failed`, the failed job in
   * /health and the admin retry) and the version is ready without it.
   */
  required: boolean;
  /** Jobs at once per worker by default (WORKER_CONCURRENCY overrides). */
  concurrency: number;
  /** The step's ffmpeg runs on a local file, for the bench's bare-ffmpeg side (stdout drained). */
  bareCommands(inputPath: string, probe: ProbeInfo): string[][];
}

/** A step descriptor with its queue and step names kept as literal types. */
export function defineMediaStep<Q extends string, S extends string>(step: MediaStep<Q, S>): MediaStep<Q, S> {
  return step;
}

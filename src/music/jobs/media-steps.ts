/**
 * The media steps of a version's flow, in the order the live feed lists them. Adding a step:
 * its descriptor in steps/ and one line here (its processor: workers/music/registry.ts).
 */
import type { MediaStep } from './media-step.js';
import { artworkStep } from './steps/artwork.js';
import { loudnessStep } from './steps/loudness.js';
import { transcodeStep } from './steps/transcode.js';
import { waveformStep } from './steps/waveform.js';

export const MEDIA_STEPS = [transcodeStep, waveformStep, artworkStep, loudnessStep] as const;

export type MediaQueueName = (typeof MEDIA_STEPS)[number]['queue'];
export type VersionStep = (typeof MEDIA_STEPS)[number]['step'];

/** The step of a queue in `steps` (the registry's, unless a test adds one), if it is one. */
export function mediaStepOf(queue: string, steps: readonly MediaStep[] = MEDIA_STEPS): MediaStep | undefined {
  return steps.find((s) => s.queue === queue);
}

/** The queues a version cannot be ready without. */
export function requiredQueues(steps: readonly MediaStep[] = MEDIA_STEPS): string[] {
  return steps.filter((s) => s.required).map((s) => s.queue);
}

/** Every ffmpeg capability the steps need, each name once (the worker's start-up check). */
export function requiredFfmpeg(steps: readonly MediaStep[] = MEDIA_STEPS): {
  encoders: string[];
  filters: string[];
  muxers: string[];
} {
  const all = (pick: (s: MediaStep) => readonly string[]): string[] => [...new Set(steps.flatMap(pick))];
  return {
    encoders: all((s) => s.ffmpeg.encoders),
    filters: all((s) => s.ffmpeg.filters),
    muxers: all((s) => s.ffmpeg.muxers),
  };
}

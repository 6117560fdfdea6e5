/**
 * What the media pipeline tells a version's owner live (docs/live-updates.md): each step's
 * start, progress and end from the jobs, and `ready` / `failed` exactly once, from the status
 * change itself (the repository below publishes only when its write changed the status, so
 * the processor, the failure hook and a sibling's failure never announce twice).
 */
import type { MediaStep } from '../../src/music/jobs/media-step.js';
import { MEDIA_STEPS, mediaStepOf } from '../../src/music/jobs/media-steps.js';
import type { TrackOwners } from '../../src/music/repositories/track-owner-repository.js';
import type {
  VersionOutputs,
  VersionProcessingRepository,
  VersionState,
} from '../../src/music/repositories/version-processing-repository.js';
import {
  NO_EVENTS,
  publishQuietly,
  type EventPublisher,
  type LiveEvent,
  type VersionStep,
} from '../../src/music/services/live-events.js';

interface VersionRef {
  versionId: string;
  trackId: string;
}

type StepStatus = Extract<LiveEvent, { type: 'version.step' }>['data']['status'];

export class VersionEvents {
  constructor(
    private readonly publisher: EventPublisher,
    private readonly owners: TrackOwners | undefined,
    private readonly onError: (err: Error) => void = () => undefined,
    /** The registry's steps; a test may add one. */
    private readonly steps: readonly MediaStep[] = MEDIA_STEPS,
  ) {}

  async step(
    ref: VersionRef,
    queue: string,
    status: StepStatus,
    extra: { percent?: number; reason?: string } = {},
  ): Promise<void> {
    const described = mediaStepOf(queue, this.steps);
    if (described === undefined) return;
    const { label, required } = described;
    const step = described.step as VersionStep;
    await this.send(ref.trackId, {
      type: 'version.step',
      data: { track_id: ref.trackId, version_id: ref.versionId, step, label, required, status, ...extra },
    });
  }

  async ready(state: VersionState): Promise<void> {
    await this.send(state.trackId, {
      type: 'version.ready',
      data: { track_id: state.trackId, version_id: state.id },
    });
  }

  async failed(state: VersionState, reason: string): Promise<void> {
    await this.send(state.trackId, {
      type: 'version.failed',
      data: { track_id: state.trackId, version_id: state.id, reason: reason.slice(0, 2000) },
    });
  }

  private async send(trackId: string, event: LiveEvent): Promise<void> {
    if (this.owners === undefined) return;
    try {
      const owner = await this.owners.ownerOf(trackId);
      if (owner !== undefined) await publishQuietly(this.publisher, owner, event, this.onError);
    } catch (err) {
      this.onError(err instanceof Error ? err : new Error(String(err)));
    }
  }
}

/** For processors built without a live feed (tests of other parts, the benchmark's bare side). */
export const NO_VERSION_EVENTS = new VersionEvents(NO_EVENTS, undefined);

/** The repository with `ready` and `failed` announced when (and only when) the status changes. */
export function announcingVersions(
  inner: VersionProcessingRepository,
  events: VersionEvents,
): VersionProcessingRepository {
  return {
    find: (id) => inner.find(id),
    markProcessing: (id) => inner.markProcessing(id),
    saveOutputs: (id, outputs: VersionOutputs) => inner.saveOutputs(id, outputs),
    reopen: (id) => inner.reopen(id),
    markReady: async (id) => {
      const changed = await inner.markReady(id);
      const state = changed ? await inner.find(id) : undefined;
      if (state) await events.ready(state);
      return changed;
    },
    markFailed: async (id, error) => {
      const changed = await inner.markFailed(id, error);
      const state = changed ? await inner.find(id) : undefined;
      if (state) await events.failed(state, error);
      return changed;
    },
  };
}

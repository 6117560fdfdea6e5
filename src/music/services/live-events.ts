/**
 * The live events a user is told about (docs/live-updates.md): what services, the payments
 * flow and the media worker publish through an `EventPublisher`, and what the websocket of
 * GET /api/v1/events delivers. Every message carries `type` and `v` (this schema's version).
 */

/** The schema version every message carries; a client refuses a newer major it does not know. */
export const LIVE_SCHEMA_VERSION = 1;

import { characterCount, cutText } from '../../core/text-length.js';
import { MEDIA_STEPS, type VersionStep } from '../jobs/media-steps.js';

export type { VersionStep } from '../jobs/media-steps.js';

/** A version's processing steps (the media steps' `step` names). */
export const VERSION_STEPS: readonly VersionStep[] = MEDIA_STEPS.map((s) => s.step);

interface VersionRef {
  track_id: string;
  version_id: string;
}

export type LiveEvent =
  | { type: 'version.queued'; data: VersionRef }
  | {
      type: 'version.step';
      data: VersionRef & {
        step: VersionStep;
        /** The step's words for a person (its descriptor's label). */
        label: string;
        /** Whether the version waits for this step; an optional step's `failed` leaves it playable. */
        required: boolean;
        /**
         * started, then progress (percent 0-100, transcoding and the decoding steps), then done,
         * skipped, or failed (for good; a required step's failure also ends in version.failed).
         */
        status: 'started' | 'progress' | 'done' | 'skipped' | 'failed';
        percent?: number;
        /** Why a step produced nothing (an undecodable cover picture) or failed: with `skipped` and `failed`. */
        reason?: string;
      };
    }
  | { type: 'version.ready'; data: VersionRef }
  | { type: 'version.failed'; data: VersionRef & { reason: string } }
  | {
      type: 'comment.created';
      data: {
        track_id: string;
        track_title: string;
        comment_id: string;
        author: { handle: string; display_name: string };
        /** At most 280 characters of the body (the whole comment is on the track page). */
        excerpt: string;
        position_ms: number | null;
      };
    }
  | {
      type: 'purchase.completed';
      data: {
        purchase_id: string;
        track_id: string;
        track_title: string;
        /** Minor units (cents) and an ISO 4217 code, as the payment provider reports them. */
        amount: number;
        currency: string;
        buyer: { handle: string; display_name: string } | null;
      };
    }
  | {
      type: 'tip.received';
      data: {
        tip_id: string;
        track_id: string | null;
        amount: number;
        currency: string;
        from: { handle: string; display_name: string } | null;
        message: string | null;
      };
    }
  | {
      /** A library import's progress (about once a second while it runs, and when it stops). */
      type: 'library.import';
      data: LibraryImportProgress;
    };

/** What a library import has done so far (docs/library-import.md); also the admin API's answer. */
export interface LibraryImportProgress {
  import_id: string;
  status: 'queued' | 'running' | 'paused' | 'done' | 'failed';
  root: string;
  /** Files the walk found (known once the first count is done; null before). */
  total: number | null;
  scanned: number;
  imported: number;
  updated: number;
  skipped: number;
  failed: number;
  missing: number;
  removed: number;
  /** Files per minute of this run; null before its first second. */
  rate_per_minute: number | null;
  error: string | null;
}

/** Publishes an event to one user's live feed (every connection of theirs, on every instance). */
export interface EventPublisher {
  publish(userId: string, event: LiveEvent): Promise<void>;
}

/** For callers built without a live feed (CLI jobs, tests of other parts). */
export const NO_EVENTS: EventPublisher = { publish: () => Promise.resolve() };

/** An event as stored in the user's stream: its id (for resuming) and when it happened. */
export interface StoredEvent {
  id: string;
  at: string;
  event: LiveEvent;
}

/**
 * Publishing never fails the caller's work: a Redis outage costs the live message, not the
 * comment or the job (the state is still readable through the REST API).
 */
export function publishQuietly(
  publisher: EventPublisher,
  userId: string,
  event: LiveEvent,
  onError: (err: Error) => void = () => undefined,
): Promise<void> {
  return publisher.publish(userId, event).catch((err: unknown) => {
    onError(err instanceof Error ? err : new Error(String(err)));
  });
}

/** The excerpt of a comment body a notification carries. */
export function excerpt(body: string, max = 280): string {
  return characterCount(body) <= max ? body : `${cutText(body, max - 1)}…`;
}

/** Stream ids are "<ms>-<seq>": a client's resume point must look like one. */
export const STREAM_ID = /^[0-9]{1,15}-[0-9]{1,15}$/;

/** Orders two stream ids (both matching STREAM_ID: each part fits a double exactly). */
export function compareIds(a: string, b: string): number {
  const [am = 0, as = 0] = a.split('-').map(Number);
  const [bm = 0, bs = 0] = b.split('-').map(Number);
  return am === bm ? as - bs : am - bm;
}

/**
 * The job contract between music-api (which enqueues) and music-worker (which processes):
 * queue names and the payload each queue carries. The worker's registry maps every name here
 * to a processor, so the compiler demands one per queue.
 */

import { MEDIA_STEPS, type MediaQueueName } from './media-steps.js';

export type { MediaQueueName } from './media-steps.js';

/** The media jobs of a version's flow (media-steps.ts); each reads the version's original. */
export const MEDIA_QUEUES: readonly MediaQueueName[] = MEDIA_STEPS.map((s) => s.queue);

/** A step's result when it produced nothing and why (kept as the job's return value). */
export interface SkippedStep {
  skipped: string;
}

/** Every queue the music-worker consumes. `version-finalize` is the parent step of a flow. */
const OTHER_QUEUES = [
  'version-finalize',
  'analytics-rollup',
  'upload-cleanup',
  'payments',
  'mail',
  'library-import',
] as const;
export type QueueName = MediaQueueName | (typeof OTHER_QUEUES)[number];
export const QUEUE_NAMES: readonly QueueName[] = [...MEDIA_QUEUES, ...OTHER_QUEUES];

/** What every media job of one version needs: where the original is and whose it is. */
export interface MediaJobData {
  versionId: string;
  trackId: string;
  assetId: string;
  /** Key of the original in the `originals` store. */
  sourceKey: string;
  /** A cover image in the `originals` store, used when the original holds none (a library's cover.jpg). */
  coverKey?: string;
  /** The library import that made the version: its jobs are held while it is paused. */
  importId?: string;
}

/** The parent of a version's flow: runs once every required media job has succeeded. */
export interface VersionFinalizeData {
  versionId: string;
  trackId: string;
}

/** Repeatable (fixed job id): rolls raw plays into daily stats and recomputes trending. */
export interface AnalyticsRollupData {
  /** Set only by tests and the CLI: the instant the rollup treats as now (ms since epoch). */
  nowMs?: number;
}

/** Repeatable (fixed job id): aborts multipart uploads left unfinished for 24 h. */
export interface UploadCleanupData {
  nowMs?: number;
}

/** One recorded provider event (payment_events row) to apply; the job id is derived from it. */
export interface PaymentEventData {
  eventId: string;
}

/** The kinds of mail, one template each (src/music/mail/). */
export const MAIL_KINDS = [
  'verify-email',
  'email-change-notice',
  'password-reset',
  'password-changed',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/**
 * One message to send: the template's kind, the recipient and the template's values. A link's
 * token travels here (only its hash is stored): completed mail jobs are removed at once.
 */
export interface MailJobData {
  kind: MailKind;
  to: string;
  /** The account's handle, for the greeting. */
  handle: string;
  /** The action's link (verify, reset), when the kind has one. */
  link?: string;
  /** For an address change: the new address (the notice to the old one names it). */
  newEmail?: string;
  /**
   * The host of PUBLIC_URL of the process that queued it, which its links name: the subject and
   * footer name the same (set by the outbox; absent in jobs queued before it was).
   */
  site?: string;
}

/** One library import run (docs/library-import.md); its state is in PostgreSQL, so a retry resumes it. */
export interface LibraryImportData {
  importId: string;
}

export type JobPayloads = { [Q in MediaQueueName]: MediaJobData } & {
  'version-finalize': VersionFinalizeData;
  'analytics-rollup': AnalyticsRollupData;
  'upload-cleanup': UploadCleanupData;
  payments: PaymentEventData;
  mail: MailJobData;
  'library-import': LibraryImportData;
};

/**
 * BullMQ key prefix: every queue lives under `<prefix>:<queue>`; tests give each run its own
 * (QUEUE_PREFIX), so concurrent runs never take each other's jobs.
 */
export interface QueueNaming {
  prefix: string;
}

/** Job ids of a version's flow: deterministic, so enqueueing twice adds nothing (BullMQ dedups by id). */
export function versionJobId(queue: MediaQueueName | 'version-finalize', versionId: string): string {
  // BullMQ refuses ':' in custom ids.
  return `${queue}-${versionId}`;
}

/** A payment event's job id: a redelivered event enqueues nothing new while its job is kept. */
export function paymentJobId(eventId: string): string {
  // BullMQ refuses ':' in custom ids; provider ids are [A-Za-z0-9_].
  return `payments-${eventId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

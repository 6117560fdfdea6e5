/**
 * The one way a version's processing starts: a flow whose parent (`version-finalize`) runs once
 * its required media children (media-steps.ts) have all succeeded (repositories/version-flow.ts runs it on BullMQ).
 */
import type { MediaJobData } from './queues.js';

/**
 * BullMQ takes jobs without a priority (uploads) before any prioritized one, and smaller numbers
 * first among those: a library import's backlog waits behind every upload (docs/library-import.md).
 */
export const LIBRARY_IMPORT_PRIORITY = 100;

export interface FlowOptions {
  /** BullMQ priority of every job of the flow; unset for uploads. */
  priority?: number;
}

export interface VersionFlowStarter {
  /** Enqueues the flow of one version; enqueueing the same version twice adds nothing. */
  start(data: MediaJobData, options?: FlowOptions): Promise<void>;
  /** Enqueues the flows of many versions in one round trip (a library import's batch). */
  startMany(data: MediaJobData[], options?: FlowOptions): Promise<void>;
  close(): Promise<void>;
}

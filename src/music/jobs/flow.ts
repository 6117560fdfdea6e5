/**
 * The one way a version's processing starts: a flow whose parent (`version-finalize`) runs once
 * its required media children (media-steps.ts) have all succeeded (repositories/version-flow.ts runs it on BullMQ).
 */
import type { MediaJobData } from './queues.js';

export interface VersionFlowStarter {
  /** Enqueues the flow of one version; enqueueing the same version twice adds nothing. */
  start(data: MediaJobData): Promise<void>;
  close(): Promise<void>;
}

/**
 * The `library-import` queue as the API enqueues it: one job per run of an import; and the
 * import's media jobs that the worker held while it was paused (delayed), released on resume.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { BORROWED_CONNECTION_OPTIONS, closeBorrowed } from './borrowed-connection.js';
import { MEDIA_STEPS } from '../jobs/media-steps.js';
import type { LibraryImportData, MediaJobData, QueueNaming } from '../jobs/queues.js';

/** How long the worker holds a paused import's job before looking again (a resume releases it at once). */
export const IMPORT_HOLD_MS = 10 * 60_000;
const PAGE = 500;

export class BullLibraryQueue {
  private readonly queue: Queue<LibraryImportData>;
  /** Made at the first release only: most processes that enqueue never resume a paused import. */
  private media: Queue<MediaJobData>[] = [];

  constructor(
    private readonly connection: Redis,
    private readonly naming: QueueNaming,
  ) {
    this.queue = new Queue<LibraryImportData>('library-import', this.options());
  }

  private options() {
    return { connection: this.connection, prefix: this.naming.prefix, ...BORROWED_CONNECTION_OPTIONS };
  }

  /** A new run of the import (a resume is a new run: the state is in PostgreSQL). */
  async enqueue(importId: string): Promise<void> {
    await this.queue.add(
      'library-import',
      { importId },
      {
        // BullMQ refuses ':' in custom ids.
        jobId: `library-import-${importId}-${Date.now()}`,
        attempts: 3,
        backoff: { type: 'exponential', delay: 10_000 },
        removeOnComplete: { age: 7 * 24 * 3600, count: 1000 },
        removeOnFail: { age: 30 * 24 * 3600, count: 1000 },
      },
    );
  }

  /** The import's media jobs held while it was paused go back to their queues now; answers how many. */
  async releaseHeld(importId: string): Promise<number> {
    let released = 0;
    if (this.media.length === 0)
      this.media = MEDIA_STEPS.map((s) => new Queue<MediaJobData>(s.queue, this.options()));
    for (const queue of this.media) {
      const held = [];
      for (let start = 0; ; start += PAGE) {
        const page = await queue.getDelayed(start, start + PAGE - 1);
        held.push(...page.filter((job) => job.data.importId === importId));
        if (page.length < PAGE) break;
      }
      // A job the worker took back meanwhile is no longer delayed: nothing to promote.
      for (const job of held)
        released += await job.promote().then(
          () => 1,
          () => 0,
        );
    }
    return released;
  }

  close(): Promise<void> {
    return closeBorrowed([this.queue, ...this.media], this.connection);
  }
}

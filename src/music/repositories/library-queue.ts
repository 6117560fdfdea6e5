/** The `library-import` queue as the API enqueues it: one job per run of an import. */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { BORROWED_CONNECTION_OPTIONS, closeBorrowed } from './borrowed-connection.js';
import type { LibraryImportData, QueueNaming } from '../jobs/queues.js';

export class BullLibraryQueue {
  private readonly queue: Queue<LibraryImportData>;

  constructor(
    private readonly connection: Redis,
    naming: QueueNaming,
  ) {
    this.queue = new Queue<LibraryImportData>('library-import', {
      connection,
      prefix: naming.prefix,
      ...BORROWED_CONNECTION_OPTIONS,
    });
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

  close(): Promise<void> {
    return closeBorrowed([this.queue], this.connection);
  }
}

/**
 * library-import: one run of an import (services/library/library-importer.ts, the CLI's code).
 * Its state is in PostgreSQL: a retried or stalled job resumes where the last run stopped.
 */
import { randomUUID } from 'node:crypto';
import { UnrecoverableError, type Job } from 'bullmq';
import { AppError } from '../../src/core/errors.js';
import type { LibraryImportData } from '../../src/music/jobs/queues.js';

export interface LibraryImportRunner {
  run(
    importId: string,
    runner: string,
    options: { signal?: AbortSignal; from?: ('queued' | 'running')[] },
  ): Promise<{ status: string }>;
}

export function libraryImportProcessor(library: LibraryImportRunner) {
  return async (job: Job<LibraryImportData>, _token: string | undefined, signal: AbortSignal | undefined) => {
    try {
      // A paused import is not run by a job left over from before the pause.
      const done = await library.run(job.data.importId, randomUUID(), {
        from: ['queued', 'running'],
        ...(signal ? { signal } : {}),
      });
      return { status: done.status };
    } catch (err) {
      // Another process runs it, or it is gone: nothing for a retry to do.
      if (err instanceof AppError && err.status < 500) throw new UnrecoverableError(err.message);
      throw err;
    }
  };
}

/**
 * One library import run, the same for the CLI (in its process) and the admin API (the
 * `library-import` job): walk the folder in batches (import-batch.ts: each file read once for its
 * type, tags, hash and stored original; a batch's assets, tracks, versions and rows in one transaction; its flows
 * started together through TrackService.startVersions, the uploads' path, at the import's lower
 * priority). State is in PostgreSQL, so a killed run resumes: files already recorded are skipped
 * by path, size and time.
 */
import { cutText } from '../../../core/text-length.js';
import { LIBRARY_IMPORT_PRIORITY } from '../../jobs/flow.js';
import type { ObjectStore } from '../../repositories/object-store/object-store.js';
import type { WalkEntry } from '../../repositories/library-files.js';
import type {
  ImportCounters,
  ImportRecord,
  ImportStatus,
  PrismaLibraryRepository,
} from '../../repositories/library-repository.js';
import { publishQuietly, type EventPublisher, type LibraryImportProgress } from '../live-events.js';
import type { TrackService } from '../track-service.js';
import { ImportBatch, Run, coverKey, libraryPrefix, type LibrarySource } from './import-batch.js';
import { importBusy, importNotFound } from '../../errors/library.js';

export type { LibrarySource } from './import-batch.js';

export interface ImporterDeps {
  library: PrismaLibraryRepository;
  source: LibrarySource;
  originals: ObjectStore;
  tracks: TrackService;
  events: EventPublisher;
  /** The import queue: media jobs the worker held while it was paused (released when a run starts); new runs. */
  held: { releaseHeld(importId: string): Promise<number>; enqueue(importId: string): Promise<void> };
  /** The largest original accepted (the upload limit). */
  maxBytes: number;
  /** Files read (and their originals stored) at once, across the batches in flight. */
  concurrency?: number;
  /** Files recorded per transaction (and flows enqueued per round trip). */
  batchSize?: number;
  /** How often counters are saved, the status is read (a pause) and progress is told. */
  beatMs?: number;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Resuming from the CLI: the command's --prune, not the one the import was started with. */
  prune?: boolean;
  /** Run only from these states (the job: not a paused import); anything else answers the import as it is. */
  from?: ImportStatus[];
  onProgress?: (progress: LibraryImportProgress) => void;
}

const COUNTERS: (keyof ImportCounters)[] = [
  'scanned',
  'imported',
  'updated',
  'skipped',
  'failed',
  'missing',
  'removed',
];
export function progressOf(
  record: ImportRecord,
  extra: { total?: number | null; ratePerMinute?: number | null } = {},
): LibraryImportProgress {
  return {
    import_id: record.id,
    status: record.status,
    root: record.root,
    total: extra.total ?? null,
    scanned: record.scanned,
    imported: record.imported,
    updated: record.updated,
    skipped: record.skipped,
    failed: record.failed,
    missing: record.missing,
    removed: record.removed,
    rate_per_minute: extra.ratePerMinute ?? null,
    error: record.error,
  };
}

/** Batches in flight at once: the next ones are read while one is recorded. */
const BATCHES_IN_FLIGHT = 3;
/** Files read at once (measured on a cold disk: docs/library-import.md). */
export const DEFAULT_CONCURRENCY = 4;

export class LibraryImporter {
  constructor(private readonly deps: ImporterDeps) {}

  async run(importId: string, runner: string, options: RunOptions = {}): Promise<ImportRecord> {
    const { library } = this.deps;
    const before = await library.findImport(importId);
    if (!before) throw importNotFound();
    if (options.from && !options.from.includes(before.status)) return before;
    if (!(await library.claim(importId, runner, options.prune === undefined ? {} : { prune: options.prune })))
      throw importBusy();
    const record = await library.findImport(importId);
    if (!record) throw new Error(`library import ${importId} vanished`);
    const run = new Run(record, this.deps.concurrency ?? DEFAULT_CONCURRENCY);
    const tell = async (): Promise<void> => this.tell(run, options);
    const beat = setInterval(
      () => void this.beat(run, runner).then(tell, () => undefined),
      this.deps.beatMs ?? 1000,
    );
    const onAbort = (): void => {
      run.stopped ??= 'aborted';
    };
    options.signal?.addEventListener('abort', onAbort);
    if (options.signal?.aborted) onAbort();
    try {
      await this.deps.held.releaseHeld(importId);
      await this.restartFlows(record);
      run.uploads = await library.uploadedContents(record.ownerUserId, libraryPrefix(record.ownerUserId));
      run.total = await this.countFiles(record.root, run);
      await this.passes(run, runner, options.signal);
    } catch (err) {
      await library.release(importId, runner, 'paused', { error: cutText((err as Error).message, 500) });
      throw err;
    } finally {
      clearInterval(beat);
      options.signal?.removeEventListener('abort', onAbort);
      run.record = (await library.findImport(importId)) ?? run.record;
      await tell();
    }
    return run.record;
  }

  /**
   * Walks until the folder is done or the run is stopped. A pause stops it unless a resume came
   * while it was stopping: the last word wins, and this run (still holding the import) walks again
   * instead of a second one starting (files it recorded are skipped as seen).
   */
  private async passes(run: Run, runner: string, signal: AbortSignal | undefined): Promise<void> {
    const { library } = this.deps;
    const id = run.record.id;
    for (;;) {
      const complete = await this.walk(run, signal);
      await this.beat(run, runner);
      if (run.stopped === 'lost') return;
      if (run.failure) throw run.failure;
      let resumed = false;
      if (run.stopped === 'paused') {
        if ((await library.stopUnlessResumed(id, runner)) !== 'running') return;
        run.stopped = undefined;
        resumed = true;
        if (!complete && !signal?.aborted) {
          await this.deps.held.releaseHeld(id);
          continue;
        }
      }
      // Only a walk that reached the end decides what is missing (and prunes).
      if (complete && !run.stopped) return this.finish(run, runner);
      if (!resumed) return library.release(id, runner, 'paused');
      // Stopped by its process (Ctrl-C, a worker shutting down) after a resume it took: the resume
      // stands, as a new run for a worker.
      await library.release(id, runner, 'queued');
      return this.deps.held.enqueue(id);
    }
  }

  /** Versions recorded by a killed run before their flow was enqueued (enqueueing twice adds nothing). */
  private async restartFlows(record: ImportRecord): Promise<void> {
    const owner = record.ownerUserId;
    const pending = await this.deps.library.pendingVersions(record.id);
    await this.deps.tracks.startVersions(
      owner,
      pending.map((v) => ({
        version: v,
        importId: record.id,
        sourceKey: v.objectKey,
        coverKey: v.coverSha256 ? coverKey(owner, v.coverSha256) : undefined,
      })),
      { priority: LIBRARY_IMPORT_PRIORITY },
    );
  }

  private async countFiles(root: string, run: Run): Promise<number> {
    let n = 0;
    for await (const entry of this.deps.source.walk(root)) {
      if (run.stopped) break;
      n++;
      void entry;
    }
    return n;
  }

  /** True when it reached the end of the folder (every file in a batch, every batch done). */
  private async walk(run: Run, signal: AbortSignal | undefined): Promise<boolean> {
    const size = this.deps.batchSize ?? 100;
    const busy = new Set<Promise<void>>();
    const start = (entries: WalkEntry[]): Promise<void> => {
      const job = new ImportBatch(this.deps, run).import(entries).catch((err: unknown) => {
        run.failure ??= err as Error;
      });
      const tracked = job.finally(() => busy.delete(tracked));
      busy.add(tracked);
      return busy.size >= BATCHES_IN_FLIGHT ? Promise.race(busy) : Promise.resolve();
    };
    const cut = (): boolean =>
      run.stopped !== undefined || run.failure !== undefined || signal?.aborted === true;
    let complete = true;
    let entries: WalkEntry[] = [];
    for await (const entry of this.deps.source.walk(run.record.root)) {
      if (cut()) {
        complete = false;
        break;
      }
      entries.push(entry);
      if (entries.length < size) continue;
      await start(entries);
      entries = [];
    }
    if (entries.length > 0) {
      if (cut()) complete = false;
      else await start(entries);
    }
    await Promise.all(busy);
    return complete;
  }

  /**
   * Saves the counters, reads the status back: an admin's pause stops the run at the next file;
   * queued again (resumed before the run stopped) is taken back, and the run goes on.
   */
  private async beat(run: Run, runner: string): Promise<void> {
    const delta = { ...run.delta };
    for (const k of COUNTERS) run.delta[k] -= delta[k];
    const { library } = this.deps;
    const beaten = await library.heartbeat(run.record.id, runner, delta);
    let now = beaten.record;
    if (!beaten.held) {
      // Let go as abandoned (its beats fell behind): another run holds it now; stop, say nothing.
      run.stopped = 'lost';
      return;
    }
    if (now?.status === 'queued' && (await library.takeBack(now.id, runner))) {
      await this.deps.held.releaseHeld(now.id);
      now = await library.findImport(now.id);
    }
    if (now) run.record = now;
    if (now && now.status !== 'running') run.stopped ??= 'paused';
  }

  private async tell(run: Run, options: RunOptions): Promise<void> {
    const minutes = (Date.now() - run.startedMs) / 60_000;
    const progress = progressOf(run.record, {
      total: run.total,
      ratePerMinute: minutes > 1 / 60 ? Math.round(run.scannedThisRun / minutes) : null,
    });
    options.onProgress?.(progress);
    const told = new Set(
      [run.record.ownerUserId, run.record.requestedBy].filter((u): u is string => u !== null),
    );
    for (const user of told)
      await publishQuietly(this.deps.events, user, { type: 'library.import', data: progress });
  }

  /** The walk is complete: files it did not see are reported, and with `prune` their tracks deleted. */
  private async finish(run: Run, runner: string): Promise<void> {
    const { library } = this.deps;
    const r = run.record;
    let missing = 0;
    let removed = 0;
    for (const f of await library.missingFiles(r.ownerUserId, r.root, r.id)) {
      if (r.prune) {
        if (f.trackId !== null) await this.deps.tracks.deleteAsOwner(r.ownerUserId, f.trackId);
        await library.deleteFile(f.id);
        await library.addProblem(r.id, {
          path: f.path,
          kind: 'removed',
          reason: 'no longer in the folder: its track was deleted (--prune)',
        });
        removed++;
      } else {
        await library.addProblem(r.id, {
          path: f.path,
          kind: 'missing',
          reason: 'no longer in the folder; its track stays (import again with --prune to delete it)',
        });
        missing++;
      }
    }
    const problems = await library.countProblems(r.id);
    await library.release(r.id, runner, 'done', { missing, removed, failed: problems.failed });
  }
}

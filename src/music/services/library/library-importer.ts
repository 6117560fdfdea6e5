/**
 * One library import run, the same for the CLI (in its process) and the admin API (the
 * `library-import` job): walk the folder, read each file once (type by content, tags), hash it,
 * record asset + track + version in one transaction, then start the version's flow through
 * TrackService.startVersion (the uploads' path) at the import's lower priority. State is in
 * PostgreSQL, so a killed run resumes: files already recorded are skipped by path, size and time.
 */
import type { Readable } from 'node:stream';
import { cutText } from '../../../core/text-length.js';
import { LIBRARY_IMPORT_PRIORITY } from '../../jobs/flow.js';
import type { ObjectStore } from '../../repositories/object-store/object-store.js';
import type { ReadOutcome, WalkEntry, LibraryCandidate } from '../../repositories/library-files.js';
import type {
  ImportCounters,
  ImportProblem,
  ImportRecord,
  ImportStatus,
  LibraryFileRecord,
  PrismaLibraryRepository,
} from '../../repositories/library-repository.js';
import { originalTypeOfProbe } from '../stored-media.js';
import { publishQuietly, type EventPublisher, type LibraryImportProgress } from '../live-events.js';
import { versionFields, type TrackService } from '../track-service.js';
import { audioFacts, titleFromName } from './audio-facts.js';
import { importBusy, importNotFound } from '../../errors/library.js';

/** The folder as the importer reads it (repositories/library-files.ts on this machine). */
export interface LibrarySource {
  walk(root: string): AsyncIterable<WalkEntry>;
  read(abs: string): Promise<ReadOutcome>;
  sha256(abs: string): Promise<string>;
  open(abs: string): Readable;
}

export interface ImporterDeps {
  library: PrismaLibraryRepository;
  source: LibrarySource;
  originals: ObjectStore;
  tracks: TrackService;
  events: EventPublisher;
  /** The largest original accepted (the upload limit). */
  maxBytes: number;
  /** Files read and recorded at once: I/O and database round trips overlap. */
  concurrency?: number;
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
const COVER_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

function zero(): ImportCounters {
  return { scanned: 0, imported: 0, updated: 0, skipped: 0, failed: 0, missing: 0, removed: 0 };
}

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

/** One run's state: counters not yet saved, content seen in this run, cover hashes by path. */
class Run {
  readonly delta = zero();
  readonly shas = new Set<string>();
  readonly coverShas = new Map<string, Promise<string>>();
  readonly startedMs = Date.now();
  scannedThisRun = 0;
  total: number | null = null;
  stopped: 'paused' | 'aborted' | undefined;
  failure: Error | undefined;
  constructor(public record: ImportRecord) {}

  count(key: keyof ImportCounters): void {
    this.delta[key]++;
    if (key === 'scanned') this.scannedThisRun++;
  }
}

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
    const run = new Run(record);
    const tell = async (): Promise<void> => this.tell(run, options);
    const beat = setInterval(
      () => void this.beat(run, runner).then(tell, () => undefined),
      this.deps.beatMs ?? 1000,
    );
    const onAbort = (): void => {
      run.stopped ??= 'aborted';
    };
    options.signal?.addEventListener('abort', onAbort);
    try {
      await this.restartFlows(record);
      run.total = await this.countFiles(record.root, run);
      await this.walk(run, options.signal);
      await this.beat(run, runner);
      if (run.failure) throw run.failure;
      if (run.stopped) {
        await library.release(importId, runner, 'paused');
      } else {
        await this.finish(run, runner);
      }
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

  /** Versions recorded by a killed run before their flow was enqueued (enqueueing twice adds nothing). */
  private async restartFlows(record: ImportRecord): Promise<void> {
    for (const v of await this.deps.library.pendingVersions(record.id)) {
      const coverKey = v.coverSha256 ? this.coverKey(record.ownerUserId, v.coverSha256) : undefined;
      await this.deps.tracks.startVersion(record.ownerUserId, v, v.objectKey, {
        priority: LIBRARY_IMPORT_PRIORITY,
        ...(coverKey ? { coverKey } : {}),
      });
    }
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

  private async walk(run: Run, signal: AbortSignal | undefined): Promise<void> {
    const limit = this.deps.concurrency ?? 4;
    const busy = new Set<Promise<void>>();
    for await (const entry of this.deps.source.walk(run.record.root)) {
      if (run.stopped || run.failure || signal?.aborted) break;
      const job = this.one(run, entry).catch((err: unknown) => {
        run.failure ??= err as Error;
      });
      const tracked = job.finally(() => busy.delete(tracked));
      busy.add(tracked);
      if (busy.size >= limit) await Promise.race(busy);
    }
    await Promise.all(busy);
  }

  /** Saves the counters, reads the status back (an admin's pause stops the run at the next file). */
  private async beat(run: Run, runner: string): Promise<void> {
    const delta = { ...run.delta };
    for (const k of COUNTERS) run.delta[k] -= delta[k];
    const now = await this.deps.library.heartbeat(run.record.id, runner, delta);
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

  private async problem(run: Run, problem: ImportProblem): Promise<void> {
    await this.deps.library.addProblem(run.record.id, problem);
    if (problem.kind === 'failed' || problem.kind === 'skipped') run.count(problem.kind);
  }

  private async one(run: Run, entry: WalkEntry): Promise<void> {
    run.count('scanned');
    if (entry.kind === 'problem')
      return this.problem(run, { path: entry.path, kind: 'failed', reason: entry.reason });
    const fail = (reason: string): Promise<void> =>
      this.problem(run, { path: entry.path, kind: 'failed', reason });
    if (entry.size === 0) return fail('empty file (0 bytes)');
    if (entry.size > this.deps.maxBytes)
      return fail(
        `${entry.size} bytes; the largest original accepted is ${this.deps.maxBytes} bytes (the upload limit)`,
      );
    const { record } = run;
    const existing = await this.deps.library.findFile(record.ownerUserId, record.root, entry.path);
    const coverSha = entry.cover === undefined ? null : await this.coverSha(run, entry.cover);
    const sameCover = (f: LibraryFileRecord): boolean => f.embeddedCover || f.coverSha256 === coverSha;
    if (
      existing &&
      Number(existing.size) === entry.size &&
      existing.mtimeMs === entry.mtimeMs &&
      sameCover(existing)
    ) {
      // Seen already by this run before it was stopped: counted then.
      if (existing.seenBy === record.id) return;
      await this.deps.library.markSeen(existing.id, record.id);
      return run.count('skipped');
    }
    const read = await this.deps.source.read(entry.abs);
    if (!read.ok) {
      return this.problem(run, {
        path: entry.path,
        kind: read.kind === 'not-audio' ? 'skipped' : 'failed',
        reason: read.reason,
      });
    }
    const facts = audioFacts(read.meta, entry.size);
    if (!facts.ok) return fail(facts.reason);
    let sha: string;
    try {
      sha = await this.deps.source.sha256(entry.abs);
    } catch (err) {
      return fail(`cannot read it: ${(err as Error).message}`);
    }
    if (existing && existing.sha256 === sha && sameCover(existing)) {
      await this.deps.library.markSeen(existing.id, record.id, entry);
      return run.count('skipped');
    }
    if (existing?.trackId == null) {
      const already = run.shas.has(sha)
        ? 'another file of this folder'
        : await this.deps.library.findContent(record.ownerUserId, sha);
      if (already !== undefined) {
        return this.problem(run, { path: entry.path, kind: 'skipped', reason: `same content as ${already}` });
      }
    }
    run.shas.add(sha);
    const useCover = !facts.embeddedCover && coverSha !== null && entry.cover !== undefined;
    const objectKey = this.audioKey(record.ownerUserId, sha);
    await this.store(entry, objectKey, facts.probe.format);
    if (useCover) await this.storeCover(entry.cover as string, this.coverKey(record.ownerUserId, coverSha));
    const file = {
      importId: record.id,
      ownerUserId: record.ownerUserId,
      root: record.root,
      path: entry.path,
      size: entry.size,
      mtimeMs: entry.mtimeMs,
      sha256: sha,
      coverSha256: useCover ? coverSha : null,
      embeddedCover: facts.embeddedCover,
      objectKey,
      filename: cutText(entry.path.split('/').pop() ?? 'file', 255),
      contentType: originalTypeOfProbe(facts.probe.format),
      probe: facts.probe,
      versionFields: versionFields(facts.probe),
    };
    const version =
      existing?.trackId != null
        ? await this.deps.library.recordChanged(existing.id, existing.trackId, file)
        : await this.deps.library.recordNew(file, {
            title: facts.probe.tags.title ?? titleFromName(file.filename),
            visibility: record.visibility,
          });
    await this.deps.tracks.startVersion(record.ownerUserId, version, objectKey, {
      priority: LIBRARY_IMPORT_PRIORITY,
      ...(useCover && coverSha ? { coverKey: this.coverKey(record.ownerUserId, coverSha) } : {}),
    });
  }

  private coverSha(run: Run, path: string): Promise<string> {
    let sha = run.coverShas.get(path);
    if (!sha) {
      sha = this.deps.source.sha256(path);
      run.coverShas.set(path, sha);
    }
    return sha;
  }

  /** Content-addressed keys: a killed run that stored the bytes stores them again under the same key. */
  private audioKey(owner: string, sha: string): string {
    return `${owner}/library/${sha}`;
  }

  private coverKey(owner: string, sha: string): string {
    return `${owner}/library/cover-${sha}`;
  }

  private async store(entry: LibraryCandidate, key: string, format: string): Promise<void> {
    const { originals, source } = this.deps;
    if (!(await originals.head(key)))
      await originals.put(key, source.open(entry.abs), { contentType: originalTypeOfProbe(format) });
  }

  /** The cover beside the file, kept with the originals (the artwork step reads it; it is never served as is). */
  private async storeCover(path: string, key: string): Promise<void> {
    const { originals, source } = this.deps;
    const ext = path.split('.').pop()?.toLowerCase() ?? '';
    if (!(await originals.head(key)))
      await originals.put(key, source.open(path), { contentType: COVER_TYPES[ext] ?? 'image/jpeg' });
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

/**
 * One batch of a library import's walk (a hundred files): the rows already there read in one
 * query, unchanged files marked seen in one statement, the rest read once each (tags and sha256
 * from the same bytes, a few at a time), the owner's content looked up for the whole batch, the
 * originals stored, the new tracks recorded in one transaction and their flows enqueued together.
 */
import type { Readable } from 'node:stream';
import { LIBRARY_IMPORT_PRIORITY } from '../../jobs/flow.js';
import type { ObjectStore } from '../../repositories/object-store/object-store.js';
import type { Inspection, LibraryCandidate, WalkEntry } from '../../repositories/library-files.js';
import type {
  ImportCounters,
  ImportedFile,
  ImportProblem,
  ImportRecord,
  LibraryFileRecord,
  PrismaLibraryRepository,
  StartedVersion,
} from '../../repositories/library-repository.js';
import type { AudioProbe } from '../../ffmpeg-commands/probe.js';
import { originalTypeOfProbe } from '../stored-media.js';
import { versionFields, type TrackService } from '../track-service.js';
import { audioFacts, titleFromName } from './audio-facts.js';
import { cutText } from '../../../core/text-length.js';

/** The folder as the importer reads it (repositories/library-files.ts on this machine). */
export interface LibrarySource {
  walk(root: string): AsyncIterable<WalkEntry>;
  /** What the file is and its sha256, from one read of its bytes. */
  inspect(abs: string, size: number): Promise<Inspection>;
  sha256(abs: string): Promise<string>;
  open(abs: string): Readable;
}

export interface BatchDeps {
  library: PrismaLibraryRepository;
  source: LibrarySource;
  originals: ObjectStore;
  tracks: TrackService;
  /** The largest original accepted (the upload limit). */
  maxBytes: number;
  /** Files read (and originals stored) at once within a batch. */
  concurrency: number;
}

const COVER_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

export function zeroCounters(): ImportCounters {
  return { scanned: 0, imported: 0, updated: 0, skipped: 0, failed: 0, missing: 0, removed: 0 };
}

/** One run's state: counters not yet saved, content seen in this run, cover hashes and stores by path. */
export class Run {
  readonly delta = zeroCounters();
  readonly shas = new Set<string>();
  readonly coverShas = new Map<string, Promise<string>>();
  readonly coversStored = new Map<string, Promise<void>>();
  readonly startedMs = Date.now();
  scannedThisRun = 0;
  total: number | null = null;
  stopped: 'paused' | 'aborted' | undefined;
  failure: Error | undefined;
  constructor(public record: ImportRecord) {}

  count(key: keyof ImportCounters, n = 1): void {
    this.delta[key] += n;
    if (key === 'scanned') this.scannedThisRun += n;
  }
}

/** Content-addressed keys: a killed run that stored the bytes stores them again under the same key. */
export function audioKey(owner: string, sha: string): string {
  return `${owner}/library/${sha}`;
}

export function coverKey(owner: string, sha: string): string {
  return `${owner}/library/cover-${sha}`;
}

/** PostgreSQL hands a double back to 15 digits: a time read back may differ from the file's in its last µs. */
function sameTime(recordedMs: number, foundMs: number): boolean {
  return Math.abs(recordedMs - foundMs) < 0.01;
}

/** `fn` over `items`, at most `limit` at once, results in order. */
async function bounded<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const n = next++;
      out[n] = await fn(items[n] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

/** A file that will become a version: new (a new track) or changed (a new version of its track). */
interface Accepted {
  entry: LibraryCandidate;
  existing: LibraryFileRecord | undefined;
  probe: AudioProbe;
  sha: string;
  embeddedCover: boolean;
  coverSha: string | null;
}

export class ImportBatch {
  private readonly problems: ImportProblem[] = [];

  constructor(
    private readonly deps: BatchDeps,
    private readonly run: Run,
  ) {}

  private fail(path: string, reason: string): void {
    this.problems.push({ path, kind: 'failed', reason });
  }

  async import(entries: WalkEntry[]): Promise<void> {
    const { run, deps } = this;
    const { record } = run;
    run.count('scanned', entries.length);
    const candidates: LibraryCandidate[] = [];
    for (const entry of entries) {
      if (entry.kind === 'problem') this.fail(entry.path, entry.reason);
      else if (entry.size === 0) this.fail(entry.path, 'empty file (0 bytes)');
      else if (entry.size > deps.maxBytes)
        this.fail(
          entry.path,
          `${entry.size} bytes; the largest original accepted is ${deps.maxBytes} bytes (the upload limit)`,
        );
      else candidates.push(entry);
    }
    const rows = await deps.library.findFiles(
      record.ownerUserId,
      record.root,
      candidates.map((c) => c.path),
    );
    const coverShas = await Promise.all(
      candidates.map((c) => (c.cover === undefined ? Promise.resolve(null) : this.coverSha(c.cover))),
    );
    const sameCover = (f: LibraryFileRecord, coverSha: string | null): boolean =>
      f.embeddedCover || f.coverSha256 === coverSha;
    const seen: string[] = [];
    const toRead: {
      entry: LibraryCandidate;
      existing: LibraryFileRecord | undefined;
      coverSha: string | null;
    }[] = [];
    for (const [n, entry] of candidates.entries()) {
      const existing = rows.get(entry.path);
      const coverSha = coverShas[n] ?? null;
      if (
        existing &&
        Number(existing.size) === entry.size &&
        sameTime(existing.mtimeMs, entry.mtimeMs) &&
        sameCover(existing, coverSha)
      ) {
        // Seen already by this run before it was stopped: counted then.
        if (existing.seenBy !== record.id) seen.push(existing.id);
      } else toRead.push({ entry, existing, coverSha });
    }
    await deps.library.markSeenMany(seen, record.id);
    run.count('skipped', seen.length);
    const read = await bounded(toRead, deps.concurrency, (f) =>
      deps.source.inspect(f.entry.abs, f.entry.size),
    );
    const accepted = await this.accept(toRead, read);
    await this.record(accepted);
    for (const problem of this.problems) {
      await deps.library.addProblem(record.id, problem);
      if (problem.kind === 'failed' || problem.kind === 'skipped') run.count(problem.kind);
    }
  }

  /** The files read that will become versions, in walk order; the rest are problems or seen. */
  private async accept(
    toRead: { entry: LibraryCandidate; existing: LibraryFileRecord | undefined; coverSha: string | null }[],
    read: Inspection[],
  ): Promise<Accepted[]> {
    const { run, deps } = this;
    const { record } = run;
    const shas = read.flatMap((r) => (r.ok && r.sha256 !== undefined ? [r.sha256] : []));
    const elsewhere = await deps.library.findContents(record.ownerUserId, shas);
    const accepted: Accepted[] = [];
    for (const [n, { entry, existing, coverSha }] of toRead.entries()) {
      const r = read[n] as Inspection;
      if (!r.ok) {
        const kind = r.kind === 'not-audio' ? 'skipped' : 'failed';
        this.problems.push({ path: entry.path, kind, reason: r.reason });
        continue;
      }
      const facts = audioFacts(r.meta, entry.size);
      if (!facts.ok) {
        this.fail(entry.path, facts.reason);
        continue;
      }
      const sha = r.sha256 as string;
      if (
        existing &&
        existing.sha256 === sha &&
        (existing.embeddedCover || existing.coverSha256 === coverSha)
      ) {
        await deps.library.markSeen(existing.id, record.id, entry);
        run.count('skipped');
        continue;
      }
      if (existing?.trackId == null) {
        // Synchronous from here to the add: two batches in flight never both take one content.
        const already = run.shas.has(sha) ? 'another file of this folder' : elsewhere.get(sha);
        if (already !== undefined) {
          this.problems.push({ path: entry.path, kind: 'skipped', reason: `same content as ${already}` });
          continue;
        }
      }
      run.shas.add(sha);
      accepted.push({
        entry,
        existing,
        probe: facts.probe,
        sha,
        embeddedCover: facts.embeddedCover,
        coverSha,
      });
    }
    return accepted;
  }

  /** Originals stored, then the records (new files in one transaction), then the flows together. */
  private async record(accepted: Accepted[]): Promise<void> {
    if (accepted.length === 0) return;
    const { run, deps } = this;
    const { record } = run;
    const owner = record.ownerUserId;
    const coverOf = (a: Accepted): string | undefined =>
      !a.embeddedCover && a.coverSha !== null && a.entry.cover !== undefined ? a.entry.cover : undefined;
    await bounded(accepted, deps.concurrency, async (a) => {
      await this.store(a.entry.abs, audioKey(owner, a.sha), originalTypeOfProbe(a.probe.format));
      const cover = coverOf(a);
      if (cover !== undefined) await this.storeCover(cover, coverKey(owner, a.coverSha as string));
    });
    const fileOf = (a: Accepted, shown?: Parameters<typeof versionFields>[1]): ImportedFile => {
      const filename = cutText(a.entry.path.split('/').pop() ?? 'file', 255);
      return {
        importId: record.id,
        ownerUserId: owner,
        root: record.root,
        path: a.entry.path,
        size: a.entry.size,
        mtimeMs: a.entry.mtimeMs,
        sha256: a.sha,
        coverSha256: coverOf(a) === undefined ? null : a.coverSha,
        embeddedCover: a.embeddedCover,
        objectKey: audioKey(owner, a.sha),
        filename,
        contentType: originalTypeOfProbe(a.probe.format),
        probe: a.probe,
        versionFields: versionFields(a.probe, shown),
      };
    };
    const fresh = accepted.filter((a) => a.existing?.trackId == null);
    const made = await deps.library.recordNewMany(
      fresh.map((a) => {
        const file = fileOf(a);
        return {
          file,
          title: a.probe.tags.title ?? titleFromName(file.filename),
          visibility: record.visibility,
          ...(a.existing ? { rowId: a.existing.id } : {}),
        };
      }),
    );
    const started: { a: Accepted; version: StartedVersion }[] = fresh.map((a, n) => ({
      a,
      version: made[n] as StartedVersion,
    }));
    for (const a of accepted) {
      const existing = a.existing;
      if (existing?.trackId == null) continue;
      // One title everywhere: the track's own tags win; the file's fill only what it lacks.
      const shown = await deps.tracks.shownTags(existing.trackId);
      const version = await deps.library.recordChanged(existing.id, existing.trackId, fileOf(a, shown));
      started.push({ a, version });
    }
    await deps.tracks.startVersions(
      owner,
      started.map(({ a, version }) => ({
        version,
        importId: record.id,
        sourceKey: audioKey(owner, a.sha),
        coverKey: coverOf(a) === undefined ? undefined : coverKey(owner, a.coverSha as string),
      })),
      { priority: LIBRARY_IMPORT_PRIORITY },
    );
  }

  private coverSha(path: string): Promise<string> {
    const { coverShas } = this.run;
    let sha = coverShas.get(path);
    if (!sha) {
      sha = this.deps.source.sha256(path);
      coverShas.set(path, sha);
    }
    return sha;
  }

  private async store(abs: string, key: string, contentType: string): Promise<void> {
    const { originals, source } = this.deps;
    if (!(await originals.head(key))) await originals.put(key, source.open(abs), { contentType });
  }

  /** The cover beside the file, kept with the originals (the artwork step reads it; it is never served as is). */
  private storeCover(path: string, key: string): Promise<void> {
    const { coversStored } = this.run;
    let stored = coversStored.get(key);
    if (!stored) {
      const ext = path.split('.').pop()?.toLowerCase() ?? '';
      stored = this.store(path, key, COVER_TYPES[ext] ?? 'image/jpeg');
      coversStored.set(key, stored);
    }
    return stored;
  }
}

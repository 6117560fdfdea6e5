/**
 * One batch of a library import's walk (a hundred files): the rows already there read in one
 * query, unchanged files marked seen in one statement, the rest read once each through the run's
 * read slots (tags, sha256 and the stored original from the same bytes), the owner's content
 * looked up for the whole batch, the new tracks recorded in one transaction and their flows
 * enqueued together. Batches overlap: one records while the next ones read.
 */
import type { Readable } from 'node:stream';
import { LIBRARY_IMPORT_PRIORITY } from '../../jobs/flow.js';
import type { ObjectStore } from '../../repositories/object-store/object-store.js';
import type {
  Inspection,
  LibraryCandidate,
  WalkedFile,
  WalkEntry,
} from '../../repositories/library-files.js';
import type {
  ImportCounters,
  ImportedFile,
  ImportProblem,
  ImportRecord,
  LibraryFileRecord,
  PrismaLibraryRepository,
  StartedVersion,
} from '../../repositories/library-repository.js';
import { inodeColumn } from '../../repositories/library-rows.js';
import type { AudioProbe } from '../../ffmpeg-commands/probe.js';
import { inPlaceKey } from '../../repositories/object-store/in-place-store.js';
import { originalTypeOfProbe } from '../stored-media.js';
import { versionFields, type TrackService } from '../track-service.js';
import { audioFacts, titleFromName } from './audio-facts.js';
import { cutText } from '../../../core/text-length.js';
import { ConcurrencyLimit } from '../../../core/concurrency-limit.js';

/** The folder as the importer reads it (repositories/library-files.ts on this machine). */
export interface LibrarySource {
  walk(root: string): AsyncIterable<WalkEntry>;
  /**
   * Reads the file once and hands `use` what it is, its sha256 and its bytes (undefined for a file
   * too large to hold); the reading and the bytes are valid until `use` resolves.
   */
  inspect<T>(file: WalkedFile, use: (found: Inspection, bytes: Buffer | undefined) => Promise<T>): Promise<T>;
  sha256(abs: string): Promise<string>;
  open(abs: string): Readable;
  /** The file's path with every symlink resolved (what an in-place import records). */
  realPath(abs: string): Promise<string>;
}

export interface BatchDeps {
  library: PrismaLibraryRepository;
  source: LibrarySource;
  originals: ObjectStore;
  tracks: TrackService;
  /** The largest original accepted (the upload limit). */
  maxBytes: number;
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

/**
 * One run's state: counters not yet saved, content taken by this run, the owner's uploads, cover
 * hashes and stores by path, and the slots files are read (and their originals stored) in.
 */
export class Run {
  readonly delta = zeroCounters();
  readonly shas = new Set<string>();
  /** The owner's uploaded content (sha256 -> "an upload (name)"), read when the run starts. */
  uploads = new Map<string, string>();
  readonly reads: ConcurrencyLimit;
  readonly coverShas = new Map<string, Promise<string>>();
  readonly coversStored = new Map<string, Promise<void>>();
  readonly startedMs = Date.now();
  scannedThisRun = 0;
  total: number | null = null;
  /** lost: let go as abandoned, another run holds the import now. */
  stopped: 'paused' | 'aborted' | 'lost' | undefined;
  failure: Error | undefined;
  constructor(
    public record: ImportRecord,
    /** Files read at once, across the batches in flight. */
    concurrency: number,
  ) {
    this.reads = new ConcurrencyLimit(concurrency, Number.POSITIVE_INFINITY, () => new Error('unreachable'));
  }

  count(key: keyof ImportCounters, n = 1): void {
    this.delta[key] += n;
    if (key === 'scanned') this.scannedThisRun += n;
  }
}

/** Where an owner's imported originals are kept. */
export function libraryPrefix(owner: string): string {
  return `${owner}/library/`;
}

/** Content-addressed keys: a killed run that stored the bytes stores them again under the same key. */
export function audioKey(owner: string, sha: string): string {
  return `${libraryPrefix(owner)}${sha}`;
}

export function coverKey(owner: string, sha: string): string {
  return `${libraryPrefix(owner)}cover-${sha}`;
}

/** PostgreSQL hands a double back to 15 digits: a time read back may differ from the file's in its last µs. */
function sameTime(recordedMs: number, foundMs: number): boolean {
  return Math.abs(recordedMs - foundMs) < 0.01;
}

/** An in-place key names its inode: the same bytes under another one (restored, copied back) are read again. */
function sameInode(f: LibraryFileRecord, ino: number): boolean {
  return f.inode === inodeColumn(ino);
}

/** The file's cover is the same as recorded (or it holds its own, so the one beside it does not count). */
function sameCover(f: LibraryFileRecord, coverSha: string | null): boolean {
  return f.embeddedCover || f.coverSha256 === coverSha;
}

/** The cover file beside it that the version uses: none when the file holds its own. */
function coverOf(a: Accepted): string | undefined {
  return !a.embeddedCover && a.coverSha !== null && a.entry.cover !== undefined ? a.entry.cover : undefined;
}

/** A file that will become a version: new (a new track) or changed (a new version of its track). */
interface Accepted {
  entry: LibraryCandidate;
  existing: LibraryFileRecord | undefined;
  probe: AudioProbe;
  sha: string;
  /** The original's key: its content in the store, or the file itself (an in-place import). */
  key: string;
  embeddedCover: boolean;
  coverSha: string | null;
}

interface ToRead {
  entry: LibraryCandidate;
  existing: LibraryFileRecord | undefined;
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
    const seen: string[] = [];
    const toRead: ToRead[] = [];
    for (const [n, entry] of candidates.entries()) {
      const existing = rows.get(entry.path);
      const coverSha = coverShas[n] ?? null;
      if (
        existing &&
        Number(existing.size) === entry.size &&
        sameTime(existing.mtimeMs, entry.mtimeMs) &&
        (!record.inPlace || sameInode(existing, entry.ino)) &&
        sameCover(existing, coverSha)
      ) {
        // Seen already by this run before it was stopped: counted then.
        if (existing.seenBy !== record.id) seen.push(existing.id);
      } else toRead.push({ entry, existing, coverSha });
    }
    await deps.library.markSeenMany(seen, record.id);
    run.count('skipped', seen.length);
    const read = await Promise.all(toRead.map((f) => run.reads.run(() => this.readOne(f))));
    const accepted = await this.notElsewhere(read.filter((a): a is Accepted => a !== undefined));
    await this.record(accepted);
    for (const problem of this.problems) {
      await deps.library.addProblem(record.id, problem);
      if (problem.kind === 'failed' || problem.kind === 'skipped') run.count(problem.kind);
    }
  }

  /**
   * One read of the file: what it is, its sha256 and, when it will become a version, its original
   * stored from the same bytes. Undefined when it will not (a problem, unchanged, or content
   * this run or an upload already has).
   */
  private readOne({ entry, existing, coverSha }: ToRead): Promise<Accepted | undefined> {
    const { run, deps } = this;
    return deps.source.inspect(entry, async (found, bytes) => {
      if (!found.ok) {
        const kind = found.kind === 'not-audio' ? 'skipped' : 'failed';
        this.problems.push({ path: entry.path, kind, reason: found.reason });
        return undefined;
      }
      const facts = audioFacts(found.meta, entry.size);
      if (!facts.ok) {
        this.fail(entry.path, facts.reason);
        return undefined;
      }
      const sha = found.sha256 as string;
      const owner = run.record.ownerUserId;
      const realPath = run.record.inPlace ? await deps.source.realPath(entry.abs) : undefined;
      const key = realPath === undefined ? audioKey(owner, sha) : inPlaceKey(owner, sha, entry.ino, realPath);
      if (existing && existing.sha256 === sha && sameCover(existing, coverSha)) {
        if (realPath !== undefined && existing.versionId !== null && !sameInode(existing, entry.ino))
          await deps.library.repointInPlace(existing.versionId, key);
        await deps.library.markSeen(existing.id, run.record.id, entry);
        run.count('skipped');
        return undefined;
      }
      if (existing?.trackId == null) {
        // Synchronous from the check to the add: two files of one content never both take it.
        const already = run.shas.has(sha) ? 'another file of this folder' : run.uploads.get(sha);
        if (already !== undefined) {
          this.problems.push({ path: entry.path, kind: 'skipped', reason: `same content as ${already}` });
          return undefined;
        }
      }
      run.shas.add(sha);
      const a: Accepted = {
        entry,
        existing,
        probe: facts.probe,
        sha,
        key,
        embeddedCover: facts.embeddedCover,
        coverSha,
      };
      if (!run.record.inPlace)
        await this.store(a.key, originalTypeOfProbe(a.probe.format), bytes ?? entry.abs);
      const cover = coverOf(a);
      if (cover !== undefined) await this.storeCover(cover, coverKey(owner, coverSha as string));
      return a;
    });
  }

  /**
   * New files whose content the owner has in another folder (or uploaded since the run began)
   * are skipped; their bytes stay under the content key, which is that folder's, or taken by
   * the next import of that content.
   */
  private async notElsewhere(read: Accepted[]): Promise<Accepted[]> {
    const fresh = read.filter((a) => a.existing?.trackId == null).map((a) => a.sha);
    const elsewhere = await this.deps.library.findContents(this.run.record.ownerUserId, fresh);
    return read.filter((a) => {
      const already = a.existing?.trackId == null ? elsewhere.get(a.sha) : undefined;
      if (already !== undefined)
        this.problems.push({ path: a.entry.path, kind: 'skipped', reason: `same content as ${already}` });
      return already === undefined;
    });
  }

  /** The records (new files in one transaction), then the flows together. */
  private async record(accepted: Accepted[]): Promise<void> {
    if (accepted.length === 0) return;
    const { run, deps } = this;
    const { record } = run;
    const owner = record.ownerUserId;
    const fileOf = (a: Accepted, shown?: Parameters<typeof versionFields>[1]): ImportedFile => {
      const filename = cutText(a.entry.path.split('/').pop() ?? 'file', 255);
      return {
        importId: record.id,
        ownerUserId: owner,
        root: record.root,
        path: a.entry.path,
        size: a.entry.size,
        mtimeMs: a.entry.mtimeMs,
        ino: a.entry.ino,
        sha256: a.sha,
        coverSha256: coverOf(a) === undefined ? null : a.coverSha,
        embeddedCover: a.embeddedCover,
        objectKey: a.key,
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
        sourceKey: a.key,
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

  /** Stored from the bytes in hand, or (a file too large to hold) from the file. */
  private async store(key: string, contentType: string, from: Buffer | string): Promise<void> {
    const { originals, source } = this.deps;
    if (await originals.head(key)) return;
    await originals.put(key, typeof from === 'string' ? source.open(from) : from, { contentType });
  }

  /** The cover beside the file, kept with the originals (the artwork step reads it; it is never served as is). */
  private storeCover(path: string, key: string): Promise<void> {
    const { coversStored } = this.run;
    let stored = coversStored.get(key);
    if (!stored) {
      const ext = path.split('.').pop()?.toLowerCase() ?? '';
      stored = this.store(key, COVER_TYPES[ext] ?? 'image/jpeg', path);
      coversStored.set(key, stored);
    }
    return stored;
  }
}

/**
 * One local copy of a version's original, and one ffprobe of it, per worker process: the four
 * media jobs of a version (and their retries) share it instead of each downloading and probing
 * the file. Entries are keyed by the store key and what the store says of the object (size,
 * etag, modification time), so an original replaced under the same key is fetched afresh.
 * Entries in use are never removed; unused ones are dropped oldest first above the byte budget.
 * The copy is written under a temporary name and renamed when complete, so a reader never sees
 * half a file.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { UnrecoverableError } from 'bullmq';
import { parseProbe, probeArgs, type ProbeInfo } from '../../src/music/ffmpeg-commands/probe.js';
import { FfmpegError, type FfmpegRunner } from '../../src/music/repositories/ffmpeg-runner.js';
import type { ObjectStore } from '../../src/music/repositories/object-store/object-store.js';
import { isInPlaceKey } from '../../src/music/repositories/object-store/in-place-store.js';

/** Permanent: a stored original was deleted, or a library file read in place was moved or removed. */
function originalMissing(key: string): UnrecoverableError {
  return new UnrecoverableError(
    isInPlaceKey(key)
      ? 'the library file it was imported from is gone, moved or no longer inside LIBRARY_IMPORT_ROOTS; import the folder again'
      : 'the original file is missing from the store',
  );
}

export interface CachedOriginal {
  path: string;
  probe: ProbeInfo;
}

export interface OriginalLease extends CachedOriginal {
  /** The job is done with the file; it may be dropped once nobody else uses it. */
  release(): void;
}

export interface OriginalCacheStats {
  /** Downloads from the store (each followed by one ffprobe). */
  fetches: number;
  /** Leases served from a copy already here (or being fetched). */
  hits: number;
  entries: number;
  bytes: number;
}

interface Entry {
  key: string;
  ready: Promise<CachedOriginal & { size: number }>;
  size: number;
  refs: number;
  lastUsed: number;
}

export class OriginalCache {
  private readonly entries = new Map<string, Entry>();
  private fetches = 0;
  private hits = 0;

  constructor(
    private readonly options: {
      dir: string;
      store: ObjectStore;
      runner: FfmpegRunner;
      /** Unused copies are dropped, oldest first, while the cache holds more than this. */
      maxBytes: number;
    },
  ) {}

  stats(): OriginalCacheStats {
    let bytes = 0;
    for (const e of this.entries.values()) bytes += e.size;
    return { fetches: this.fetches, hits: this.hits, entries: this.entries.size, bytes };
  }

  /** The local copy and probe of `sourceKey`; the caller must release() it. */
  async acquire(sourceKey: string, signal?: AbortSignal): Promise<OriginalLease> {
    const info = await this.options.store.head(sourceKey);
    if (!info) throw originalMissing(sourceKey);
    const key = [sourceKey, info.size, info.etag ?? '', info.lastModified?.getTime() ?? ''].join('\0');
    let entry = this.entries.get(key);
    if (entry) this.hits++;
    else {
      this.fetches++;
      const created: Entry = { key, ready: this.fetch(sourceKey), size: 0, refs: 0, lastUsed: 0 };
      this.entries.set(key, created);
      created.ready.then(
        (r) => {
          created.size = r.size;
          this.evict();
        },
        // A failed fetch or probe is not kept: the next attempt tries again.
        () => this.entries.get(key) === created && this.entries.delete(key),
      );
      entry = created;
    }
    entry.refs++;
    entry.lastUsed = Date.now();
    const held = entry;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      held.refs--;
      held.lastUsed = Date.now();
      this.evict();
    };
    try {
      const ready = await abortable(held.ready, signal);
      return { path: ready.path, probe: ready.probe, release };
    } catch (err) {
      release();
      throw err;
    }
  }

  /** Removes every unused copy (worker shutdown removes the folder anyway). */
  async clear(): Promise<void> {
    for (const e of [...this.entries.values()]) if (e.refs === 0) await this.drop(e);
  }

  private async fetch(sourceKey: string): Promise<CachedOriginal & { size: number }> {
    await mkdir(this.options.dir, { recursive: true });
    const path = join(this.options.dir, randomUUID());
    const partial = `${path}.part`;
    try {
      const original = await this.options.store.get(sourceKey);
      if (!original) throw originalMissing(sourceKey);
      await pipeline(original.body, createWriteStream(partial));
      await rename(partial, path);
      const probe = await probeFile(this.options.runner, path);
      return { path, probe, size: original.size };
    } catch (err) {
      await Promise.all([rm(partial, { force: true }), rm(path, { force: true })]);
      throw err;
    }
  }

  private evict(): void {
    let bytes = 0;
    for (const e of this.entries.values()) bytes += e.size;
    const idle = [...this.entries.values()]
      .filter((e) => e.refs === 0 && e.size > 0)
      .sort((a, b) => a.lastUsed - b.lastUsed);
    for (const e of idle) {
      if (bytes <= this.options.maxBytes) break;
      bytes -= e.size;
      void this.drop(e);
    }
  }

  private async drop(entry: Entry): Promise<void> {
    if (this.entries.get(entry.key) !== entry) return;
    this.entries.delete(entry.key);
    const ready = await entry.ready.catch(() => undefined);
    if (ready) await rm(ready.path, { force: true });
  }
}

/** Waits for `promise` unless the job is cancelled first (the shared fetch goes on for others). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new FfmpegError('cancelled', '', null, 'aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new FfmpegError('cancelled', '', null, 'aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/** ffprobe of the local copy; an input it cannot read is the file's fault (no retries). */
async function probeFile(runner: FfmpegRunner, path: string): Promise<ProbeInfo> {
  let json: string;
  try {
    json = await runner.ffprobe(probeArgs(path), { timeoutMs: 60_000 });
  } catch (err) {
    if (err instanceof FfmpegError && err.reason === 'exit')
      throw new UnrecoverableError('the file is not audio that ffmpeg can decode');
    throw err;
  }
  const parsed = parseProbe(json);
  if (!parsed.ok) throw new UnrecoverableError(`the file is not playable audio: ${parsed.reason}`);
  return parsed.info;
}

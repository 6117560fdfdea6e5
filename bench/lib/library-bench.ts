/**
 * What the library import bench measures around the importer: the bare walk-and-read it is
 * compared with, a cold page cache, the memory a warm run may fill, disk room, CPU time, and the
 * Redis keys a run leaves (removed after it).
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, readdir, rm, statfs, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import type { Redis } from 'ioredis';

export const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** Every file under `folders` (symlinks not followed): the list a bare walk reads. */
export async function listFiles(folders: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const folder of folders)
    for (const d of await readdir(folder, { recursive: true, withFileTypes: true }))
      if (d.isFile()) out.push(join(d.parentPath, d.name));
  return out.sort();
}

export interface Measured {
  /** Files read (audio and covers) or scanned. */
  files: number;
  bytes: number;
  ms: number;
  /** CPU of this process (every thread), user + system, ms. */
  cpuMs: number;
}

export function cpuSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

/** The floor of any scan: list the folders, then read every byte of every file, `concurrency` at once. */
export async function bareWalkAndRead(
  folders: string[],
  concurrency: number,
  signal?: AbortSignal,
): Promise<Measured> {
  const t0 = performance.now();
  const cpu = process.cpuUsage();
  const names = await listFiles(folders);
  let bytes = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < names.length && !signal?.aborted) {
        const read = await readFile(names[next++]!);
        bytes += read.length;
      }
    }),
  );
  signal?.throwIfAborted();
  return { files: names.length, bytes, ms: performance.now() - t0, cpuMs: cpuSince(cpu) };
}

/**
 * What storing a copy of every file costs beyond reading it: list, read every byte and write it
 * to `copyDir` (as the importer stores each original), `concurrency` at once; the clock stops
 * when the last write returns (as the scan's does), then the copies are deleted.
 */
export async function bareWalkAndCopy(
  root: string,
  folders: string[],
  copyDir: string,
  concurrency: number,
  signal?: AbortSignal,
): Promise<Measured> {
  const t0 = performance.now();
  const cpu = process.cpuUsage();
  const names = await listFiles(folders);
  let bytes = 0;
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < names.length && !signal?.aborted) {
          const name = names[next++]!;
          const data = await readFile(name);
          const target = join(copyDir, relative(root, name));
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, data);
          bytes += data.length;
        }
      }),
    );
    signal?.throwIfAborted();
    return { files: names.length, bytes, ms: performance.now() - t0, cpuMs: cpuSince(cpu) };
  } finally {
    await rm(copyDir, { recursive: true, force: true });
  }
}

/**
 * Empties the page cache (as root: sync, then vm.drop_caches), so the next read comes from the
 * disk as a first import's does. Answers why not when it cannot (the run is then warm).
 */
export async function dropPageCache(): Promise<string | undefined> {
  try {
    await promisify(execFile)('sync');
    await writeFile('/proc/sys/vm/drop_caches', '3');
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** Flushes written pages (the store's copies) so they do not compete with the next measure. */
export async function syncDisk(): Promise<void> {
  await promisify(execFile)('sync');
}

/** MemAvailable of /proc/meminfo, bytes (what a warm tree may occupy without evicting itself). */
export async function memoryAvailable(): Promise<number> {
  const info = await readFile('/proc/meminfo', 'utf8');
  const kb = /^MemAvailable:\s+(\d+)/m.exec(info)?.[1];
  return kb === undefined ? 0 : Number(kb) * 1024;
}

export async function freeBytes(path: string): Promise<number> {
  const s = await statfs(path);
  return s.bavail * s.bsize;
}

/** Deletes the keys of one bench run (its queue and cache prefixes). */
export async function dropKeys(redis: Redis, patterns: string[]): Promise<number> {
  let n = 0;
  for (const match of patterns) {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', match, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) n += await redis.unlink(...keys);
    } while (cursor !== '0');
  }
  return n;
}

export const mb = (bytes: number): string => (bytes / 1e6).toFixed(bytes < 1e7 ? 2 : 0);
export const gb = (bytes: number): string => (bytes / 1e9).toFixed(1);
export const perMinute = (files: number, ms: number): number => Math.round((files / ms) * 60_000);

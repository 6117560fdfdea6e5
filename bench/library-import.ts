/**
 * Library import benchmark (docs/library-import.md), one run, on a folder the size of a real
 * library (bench/lib/realistic-library.ts: BENCH_LIBRARY_FILES files, BENCH_LIBRARY_AVG_MB MB a
 * file on average, mostly MP3 and some FLAC, each with its own tags):
 *
 * 1. cold (page cache dropped before each): a bare walk-and-read (list, then read every byte,
 *    BENCH_LIBRARY_CONCURRENCY at once, as the importer) and two scans of the same folder (the
 *    importer: walk, tags, sha256, asset + track + version + file row in PostgreSQL, flows
 *    enqueued in Redis; no transcoding), one reading the files in place (`--in-place`), one
 *    copying each original into the store (the default): files per minute and their ratios;
 *    and, for scale, a bare walk-read-and-copy of a fifth of the folder (what storing every
 *    original costs the disk beyond reading it);
 * 2. a re-run of the folder (nothing new);
 * 3. backlog: a music-worker on the queued flows, BENCH_LIBRARY_BACKLOG versions ready;
 * 4. warm: the same measures on the part of the folder that fits in memory, read once before
 *    (the importer's CPU floor: no disk wait).
 *
 * Needs PostgreSQL, Redis, ffmpeg and about 2 x FILES x AVG_MB of disk (the folder and the
 * importer's copy of it); makes and drops its own database, deletes everything it wrote, also on
 * Ctrl-C. Writes bench/results/library-import.md.   node --import tsx bench/library-import.ts
 */
import { randomUUID } from 'node:crypto';
import { link, mkdir, mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLibraryImporter } from '../src/music/library-wiring.js';
import { DEFAULT_CONCURRENCY } from '../src/music/services/library/library-importer.js';
import {
  benchMusicConfig,
  benchMusicConnections,
  startBenchWorker,
  writeBenchResult,
} from './lib/music-app.js';
import { withBenchDatabase } from './lib/music-database.js';
import { generateRealisticLibrary, type RealisticLibrary } from './lib/realistic-library.js';
import {
  bareWalkAndCopy,
  bareWalkAndRead,
  cpuSince,
  dropKeys,
  dropPageCache,
  freeBytes,
  gb,
  load,
  mb,
  memoryAvailable,
  perMinute,
  syncDisk,
  type Measured,
} from './lib/library-bench.js';

const FILES = Number(process.env.BENCH_LIBRARY_FILES ?? 10_000);
/** Average file size, MB (a real library's is about 8: see realistic-library.ts; the default fits a 40 GB budget). */
const AVG_MB = Number(process.env.BENCH_LIBRARY_AVG_MB ?? 1.75);
const CONCURRENCY = Number(process.env.BENCH_LIBRARY_CONCURRENCY ?? DEFAULT_CONCURRENCY);
const BACKLOG = Number(process.env.BENCH_LIBRARY_BACKLOG ?? 8);
/** Share of available memory the warm part of the folder may fill (the store's copies need room too). */
const WARM_SHARE = 0.3;

const stop = new AbortController();
let dir: string | undefined;
const onSignal = (): void => {
  if (stop.signal.aborted) {
    if (dir) rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  }
  process.stderr.write('\nstopping: cleaning up (Ctrl-C again to quit at once)\n');
  stop.abort(new Error('interrupted'));
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

interface Scan extends Measured {
  imported: number;
  failed: number;
  skipped: number;
}

type Group = RealisticLibrary['groups'][number];

/** The first top folders (walk order) holding up to `bytes` (at least one). */
function firstFolders(groups: Group[], bytes: number): Group[] {
  const out: Group[] = [];
  let sum = 0;
  for (const g of groups) {
    if (sum + g.bytes > bytes && out.length > 0) break;
    sum += g.bytes;
    out.push(g);
  }
  return out;
}

/** `to` made as a copy of the folder `from` whose files are hard links (the same bytes, in the page cache once). */
async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (entry.isDirectory()) await linkTree(join(from, entry.name), join(to, entry.name));
    else await link(join(from, entry.name), join(to, entry.name));
  }
}

const audioIn = (groups: Group[]): number => groups.reduce((n, g) => n + g.files, 0);

/** A measure over `audio` audio files: rates and CPU per audio file (a bare walk reads the covers too). */
function row(what: string, m: Measured, audio: number): string {
  const mbps = m.bytes / 1e6 / (m.ms / 1000);
  return `| ${what} | ${audio} | ${gb(m.bytes)} GB | ${(m.ms / 1000).toFixed(1)} s | **${perMinute(audio, m.ms)}** | ${mbps.toFixed(0)} | ${(m.cpuMs / audio).toFixed(1)} |`;
}

async function main(): Promise<void> {
  const base = await mkdtemp(join(tmpdir(), 'bench-library-'));
  dir = base;
  const lines: string[] = [];
  const notes: string[] = [];
  try {
    const planned = FILES * AVG_MB * 1e6;
    const free = await freeBytes(base);
    if (free < 2.2 * planned + 2e9)
      throw new Error(
        `${gb(free)} GB free under ${base}; the bench needs about ${gb(2.2 * planned + 2e9)} GB (the folder and the importer's copy). Lower BENCH_LIBRARY_AVG_MB or BENCH_LIBRARY_FILES.`,
      );
    const t0 = performance.now();
    const lib = await generateRealisticLibrary(join(base, 'music'), {
      files: FILES,
      averageBytes: AVG_MB * 1e6,
      signal: stop.signal,
    });
    await syncDisk();
    const root = await realpath(lib.root);
    const made = (performance.now() - t0) / 1000;
    lines.push(
      `- folder: ${lib.files} audio files, ${gb(lib.bytes)} GB (${mb(lib.bytes / lib.files)} MB a file on average, BENCH_LIBRARY_AVG_MB=${AVG_MB}), ${lib.groups.length} top folders, an album a folder with its cover.jpg; made in ${made.toFixed(0)} s`,
      `- mix: ${lib.byKind.map((k) => `${k.name} ${k.files} files (${k.files ? mb(k.bytes / k.files) : 0} MB each)`).join(', ')}; tracks ${(lib.audioSeconds / lib.files / 60).toFixed(1)} min on average (real durations 3 to 5 min x ${lib.scale.toFixed(2)} to fit the disk budget)`,
    );
    await withBenchDatabase(async (databaseUrl) => {
      // The folder is a library root, so imports may read it in place (LIBRARY_IMPORT_ROOTS).
      const config = benchMusicConfig(databaseUrl, join(base, 'data'), { LIBRARY_IMPORT_ROOTS: base });
      const connections = await benchMusicConnections(config);
      const wiring = createLibraryImporter(config, connections, { concurrency: CONCURRENCY });
      const user = async (handle: string) =>
        connections.prisma.user.create({
          data: { handle, email: `${handle}@example.org`, passwordHash: 'x', displayName: handle },
        });
      const scan = async (ownerUserId: string, folder: string, inPlace = false): Promise<Scan> => {
        const record = await wiring.library.createImport({
          ownerUserId,
          requestedBy: null,
          root: folder,
          visibility: 'public',
          prune: false,
          inPlace,
        });
        const s0 = performance.now();
        const cpu = process.cpuUsage();
        const done = await wiring.importer.run(record.id, randomUUID(), { signal: stop.signal });
        const ms = performance.now() - s0;
        stop.signal.throwIfAborted();
        const bytes = await connections.prisma.libraryFile.aggregate({
          where: { seenBy: record.id },
          _sum: { size: true },
        });
        return {
          files: done.scanned,
          bytes: Number(bytes._sum.size ?? 0),
          ms,
          cpuMs: cpuSince(cpu),
          imported: done.imported,
          failed: done.failed,
          skipped: done.skipped,
        };
      };
      try {
        const coldOwner = await user('bench_library_cold');
        // 1. Cold: from the disk, as a first import reads.
        const loadBefore = load();
        const refused = await dropPageCache();
        if (refused)
          notes.push(`- the page cache could not be dropped (${refused}): the "cold" rows are warm`);
        const bareCold = await bareWalkAndRead([root], CONCURRENCY, stop.signal);
        const fifth = firstFolders(lib.groups, lib.bytes / 5);
        await dropPageCache();
        const copyCold = await bareWalkAndCopy(
          root,
          fifth.map((g) => join(root, g.name)),
          join(base, 'copy'),
          CONCURRENCY,
          stop.signal,
        );
        await syncDisk();
        await dropPageCache();
        const scanCold = await scan(coldOwner.id, root);
        const loadAfterScan = load();
        // The same folder read in place (another owner: nothing is "same content as" the first).
        await dropPageCache();
        const inPlaceOwner = await user('bench_library_in_place');
        const scanInPlace = await scan(inPlaceOwner.id, root, true);
        // 2. Re-run: nothing new (stat only).
        const r0 = performance.now();
        const rerun = await scan(coldOwner.id, root);
        const rerunMs = performance.now() - r0;
        // 3. Backlog: a worker on the queued flows.
        const worker = await startBenchWorker(config, { LIBRARY_IMPORT_ROOTS: base });
        const w0 = performance.now();
        let ready: { durationMs: number | null }[] = [];
        try {
          while (ready.length < BACKLOG && !stop.signal.aborted) {
            await sleep(500);
            ready = await connections.prisma.trackVersion.findMany({
              where: { status: 'ready' },
              select: { durationMs: true },
            });
          }
        } finally {
          await worker.stop();
        }
        stop.signal.throwIfAborted();
        const backlogMs = performance.now() - w0;
        const audioMin = ready.reduce((n, v) => n + (v.durationMs ?? 0), 0) / 60_000;
        // The cold owner's copies go before the warm run writes its own (disk budget).
        await rm(join(base, 'data', 'originals', coldOwner.id), { recursive: true, force: true });
        await syncDisk();
        // 4. Warm: the top folders that fit in memory, read once before measuring.
        const warmRoot = join(base, 'warm');
        await mkdir(warmRoot);
        const warm = firstFolders(lib.groups, WARM_SHARE * (await memoryAvailable()));
        // Hard links, not symlinks: the walk refuses links leading out of the folder it imports.
        for (const g of warm) await linkTree(join(root, g.name), join(warmRoot, g.name));
        const warmFolders = warm.map((g) => join(root, g.name));
        await bareWalkAndRead(warmFolders, CONCURRENCY, stop.signal);
        const bareWarm = await bareWalkAndRead(warmFolders, CONCURRENCY, stop.signal);
        const warmOwner = await user('bench_library_warm');
        const scanWarm = await scan(warmOwner.id, await realpath(warmRoot));
        const warmInPlaceOwner = await user('bench_library_warm_in_place');
        const scanWarmInPlace = await scan(warmInPlaceOwner.id, await realpath(warmRoot), true);
        // The same files both ways: the ratio of rates is the ratio of times.
        const ratioCold = bareCold.ms / scanCold.ms;
        const ratioInPlace = bareCold.ms / scanInPlace.ms;
        const ratioWarm = bareWarm.ms / scanWarm.ms;
        const ratioWarmInPlace = bareWarm.ms / scanWarmInPlace.ms;
        const ratioCopy = (copyCold.ms / audioIn(fifth)) * (scanCold.files / scanCold.ms);
        lines.push(
          '',
          '| measure | files | data | time | files per minute | MB/s | CPU ms a file |',
          '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
          row(
            `**cold** bare walk-and-read (page cache dropped; list + read whole, ${CONCURRENCY} at once)`,
            bareCold,
            lib.files,
          ),
          row(
            `**cold** scan in place (\`--in-place\`, page cache dropped): walk, tags, sha256, records, flows`,
            scanInPlace,
            scanInPlace.files,
          ),
          row(
            `**cold** scan copying (the default, page cache dropped): walk, tags, sha256, original stored, records, flows`,
            scanCold,
            scanCold.files,
          ),
          row(
            `cold bare walk-read-and-copy (the first ${fifth.length} top folders: read whole, write a copy, ${CONCURRENCY} at once)`,
            copyCold,
            audioIn(fifth),
          ),
          row(
            `warm bare walk-and-read (the first ${warmFolders.length} top folders, in memory)`,
            bareWarm,
            audioIn(warm),
          ),
          row(
            `warm scan in place of the same files (in memory: the importer's CPU floor)`,
            scanWarmInPlace,
            scanWarmInPlace.files,
          ),
          row(`warm scan copying, the same files`, scanWarm, scanWarm.files),
          `| re-run of the whole folder (nothing new: ${rerun.imported} imported, ${rerun.skipped} skipped) | ${rerun.files} | - | ${(rerunMs / 1000).toFixed(1)} s | ${perMinute(rerun.files, rerunMs)} | - | ${(rerun.cpuMs / rerun.files).toFixed(2)} |`,
          '',
          `- **cold, in place**: scan / bare walk-and-read **${ratioInPlace.toFixed(2)}** (goal >= 0.5); scan **${perMinute(scanInPlace.files, scanInPlace.ms)} files/min** (goal >= 2,000 on ${cpus().length} cores); imported ${scanInPlace.imported}, failed ${scanInPlace.failed}`,
          `- **cold, copying**: scan / bare walk-and-read **${ratioCold.toFixed(2)}**; scan **${perMinute(scanCold.files, scanCold.ms)} files/min**; imported ${scanCold.imported}, failed ${scanCold.failed}; beside a bare walk-read-and-copy (the disk writes what it reads) ${ratioCopy.toFixed(2)}`,
          `- warm: scan / bare walk-and-read ${ratioWarmInPlace.toFixed(2)} in place (${perMinute(scanWarmInPlace.files, scanWarmInPlace.ms)} files/min), ${ratioWarm.toFixed(2)} copying (${perMinute(scanWarm.files, scanWarm.ms)} files/min); imported ${scanWarmInPlace.imported} and ${scanWarm.imported}, failed ${scanWarmInPlace.failed} and ${scanWarm.failed}`,
          `- files: audio files (the bare walks also read each album's cover.jpg, which the scan hashes); rates and CPU are per audio file. CPU ms a file: user + system time of the bench process (the importer and its threads; not PostgreSQL's or Redis's)`,
          `- backlog: ${ready.length} imported tracks (${audioMin.toFixed(1)} min of audio) ready in ${(backlogMs / 1000).toFixed(1)} s by one music-worker (default concurrency): **${Math.round((ready.length / backlogMs) * 3_600_000)} tracks/hour** of ${(audioMin / ready.length).toFixed(1)} min; ${(backlogMs / 1000 / audioMin || 0).toFixed(1)} s of pipeline a minute of audio, so about **${Math.round(((audioMin / backlogMs) * 3_600_000) / 4)} four-minute tracks/hour**`,
          `- load (1/5/15 min) before: ${loadBefore}; after the cold scan: ${loadAfterScan}; at the end: ${load()}; ${cpus().length} cores shared with other work`,
          ...notes,
        );
      } finally {
        await dropKeys(connections.redis, [`${config.queuePrefix}:*`, `${config.cacheKeyPrefix}*`]).catch(
          () => 0,
        );
        await wiring.close();
        await connections.close();
      }
    });
  } finally {
    await rm(base, { recursive: true, force: true });
    dir = undefined;
  }
  await writeBenchResult(
    'library-import',
    `## Library import (bench/library-import.ts)\n\nMeasured ${new Date().toISOString()}; \`node --import tsx bench/library-import.ts\` (BENCH_LIBRARY_FILES=${FILES}, BENCH_LIBRARY_AVG_MB=${AVG_MB}, BENCH_LIBRARY_CONCURRENCY=${CONCURRENCY}).\n\n${lines.join('\n')}\n`,
  );
}

try {
  await main();
} catch (err) {
  if (!stop.signal.aborted) throw err;
  process.stderr.write('interrupted: the folder, the copies, the database and the Redis keys are deleted\n');
  process.exitCode = 130;
}

/**
 * Library import benchmark (docs/library-import.md), one run:
 *
 * 1. bare walk-and-read: every file of a generated folder of BENCH_LIBRARY_FILES (10,000) files
 *    listed and read whole, 4 at a time (the importer's concurrency): the floor of any scan;
 * 2. scan: the importer on the same folder (walk, music-metadata, sha256, asset + track +
 *    version + file row in PostgreSQL, the flow enqueued in Redis; no transcoding, no worker);
 *    files per minute and the ratio to (1);
 * 3. backlog: a music-worker started on the queued flows; imported tracks per hour from its
 *    first BENCH_LIBRARY_BACKLOG (12) versions ready.
 *
 * Needs PostgreSQL, Redis and ffmpeg; makes and drops its own database. Writes
 * bench/results/library-import.md.   npx tsx bench/library-import.ts
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, readdir, realpath, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLibraryImporter } from '../src/music/library-wiring.js';
import { generateLibraryTree } from '../test/helpers/library-tree.js';
import {
  benchMusicConfig,
  benchMusicConnections,
  startBenchWorker,
  writeBenchResult,
} from './lib/music-app.js';
import { withBenchDatabase } from './lib/music-database.js';

const FILES = Number(process.env.BENCH_LIBRARY_FILES ?? 10_000);
const BACKLOG = Number(process.env.BENCH_LIBRARY_BACKLOG ?? 12);
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function bareWalkAndRead(root: string): Promise<number> {
  const names = (await readdir(root, { recursive: true, withFileTypes: true }))
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
  let bytes = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < names.length) {
        const file = names[next++] as string;
        bytes += (await readFile(file)).length;
      }
    }),
  );
  void bytes;
  return names.length;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-library-'));
  const lines: string[] = [];
  try {
    const t0 = Date.now();
    const tree = await generateLibraryTree(join(dir, 'music'), { bulk: FILES - 23, bad: false });
    const root = await realpath(tree.root);
    lines.push(
      `- folder: ${tree.good.length} audio files (23 by ffmpeg in 5 formats, the rest MP3 copies with their own ID3v1 tag), made in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
    );
    const loadBefore = load();
    const b0 = Date.now();
    const listed = await bareWalkAndRead(root);
    const bareMs = Date.now() - b0;
    const bareRate = (listed / bareMs) * 60_000;
    await withBenchDatabase(async (databaseUrl) => {
      const config = benchMusicConfig(databaseUrl, join(dir, 'data'));
      const connections = await benchMusicConnections(config);
      const wiring = createLibraryImporter(config, connections);
      try {
        const owner = await connections.prisma.user.create({
          data: {
            handle: 'bench_library',
            email: 'bench_library@example.org',
            passwordHash: 'x',
            displayName: 'Bench',
          },
        });
        const record = await wiring.library.createImport({
          ownerUserId: owner.id,
          requestedBy: null,
          root,
          visibility: 'public',
          prune: false,
        });
        const s0 = Date.now();
        const done = await wiring.importer.run(record.id, randomUUID());
        const scanMs = Date.now() - s0;
        const scanRate = (done.scanned / scanMs) * 60_000;
        const loadAfterScan = load();
        // Re-run: nothing new.
        const again = await wiring.library.createImport({
          ownerUserId: owner.id,
          requestedBy: null,
          root,
          visibility: 'public',
          prune: false,
        });
        const r0 = Date.now();
        const rerun = await wiring.importer.run(again.id, randomUUID());
        const rerunMs = Date.now() - r0;
        // Backlog: a worker on the queued flows.
        const worker = await startBenchWorker(config);
        const w0 = Date.now();
        let ready = 0;
        while (ready < BACKLOG) {
          await sleep(500);
          ready = await connections.prisma.trackVersion.count({ where: { status: 'ready' } });
        }
        const backlogMs = Date.now() - w0;
        await worker.stop();
        const perHour = (ready / backlogMs) * 3_600_000;
        lines.push(
          '',
          '| measure | files | time | files per minute |',
          '| --- | ---: | ---: | ---: |',
          `| bare walk-and-read (readdir + read whole, 4 at once) | ${listed} | ${(bareMs / 1000).toFixed(1)} s | ${Math.round(bareRate)} |`,
          `| scan: walk, tags, sha256, records, flows enqueued | ${done.scanned} | ${(scanMs / 1000).toFixed(1)} s | ${Math.round(scanRate)} |`,
          `| re-run of the same folder (nothing new: ${rerun.imported} imported, ${rerun.skipped} skipped) | ${rerun.scanned} | ${(rerunMs / 1000).toFixed(1)} s | ${Math.round((rerun.scanned / rerunMs) * 60_000)} |`,
          '',
          `- scan / bare walk-and-read: **${(scanRate / bareRate).toFixed(2)}** (goal >= 0.5); scan rate **${Math.round(scanRate)} files/min** (goal >= 2,000 on 2 cores); imported ${done.imported}, failed ${done.failed}`,
          `- backlog: ${ready} imported tracks ready in ${(backlogMs / 1000).toFixed(1)} s by one music-worker (default concurrency: one ffmpeg per media queue): **${Math.round(perHour)} tracks/hour** for 0.3 s clips (per-track cost grows with duration: docs/media-pipeline.md's bench for a 3-minute track)`,
          `- load (1/5/15 min) before: ${loadBefore}; after the scan: ${loadAfterScan}; at the end: ${load()}; ${cpus().length} cores shared with other engineers' builds and tests`,
        );
      } finally {
        await wiring.close();
        await connections.close();
      }
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  await writeBenchResult(
    'library-import',
    `## Library import (bench/library-import.ts)\n\nMeasured ${new Date().toISOString()}; \`npx tsx bench/library-import.ts\`.\n\n${lines.join('\n')}\n`,
  );
}

await main();

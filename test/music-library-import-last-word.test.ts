/**
 * F17: a resume sent while a paused import is still stopping (its files in hand not yet recorded)
 * is the last word: the run that was stopping goes on to the end, and no second run is started.
 * The run is held mid-batch by a lock on `tracks` (the batch's INSERT waits), so the resume
 * lands inside that window every time. And a run stopped before it began decides nothing
 * missing: only a walk that reached the end may report (and prune) files.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLibraryImporter } from '../src/music/library-wiring.js';
import type { LibraryImportProgress } from '../src/music/services/live-events.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';
import { testDatabaseUrl } from './helpers/music-env.js';
import { generateAudio, tokenWithRole } from './helpers/music-worker.js';
import { waitForLockWaiter } from './helpers/postgres.js';

const FILES = 6;
let t: MusicTestApp;
let dir: string;
let owner: TestUser;
let admin: string;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'library-last-word-')));
  await mkdir(join(dir, 'music'), { recursive: true });
  await mkdir(join(dir, 'again'), { recursive: true });
  await Promise.all([
    ...Array.from({ length: FILES }, (_, n) =>
      generateAudio(join(dir, 'music', `${String(n).padStart(2, '0')}.flac`), {
        seconds: 0.5,
        tags: { title: `Last word ${n}` },
      }),
    ),
    ...[1, 2].map((n) =>
      generateAudio(join(dir, 'again', `${n}.flac`), { seconds: 0.5, tags: { title: `Again ${n}` } }),
    ),
  ]);
  t = await createMusicTestApp({ RATE_LIMITS: 'off', LIBRARY_IMPORT_ROOTS: dir });
  owner = await signupUser(t.app, 'last');
  admin = await tokenWithRole(t, 'admin');
}, 120_000);

afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const post = (url: string, payload?: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${admin}` },
    ...(payload === undefined ? {} : { payload }),
  });

async function importJobs(importId: string): Promise<number> {
  const redis = new Redis(t.config.cacheUrl, { maxRetriesPerRequest: null });
  const queue = new Queue('library-import', { connection: redis, prefix: t.config.queuePrefix });
  try {
    const jobs = await queue.getJobs(['waiting', 'active', 'delayed', 'prioritized']);
    return jobs.filter((j) => (j.data as { importId?: string }).importId === importId).length;
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

/** Resolves at the first progress report (one a beat) that `test` accepts. */
type ProgressWhere = (test: (p: LibraryImportProgress) => boolean) => Promise<void>;

/**
 * Runs the import as the job does, its first batch held by a lock on `tracks` (its file in hand,
 * not recorded) while `whileHeld` runs; the lock goes after.
 */
async function runLocked(
  importId: string,
  whileHeld: (progressWhere: ProgressWhere) => Promise<void>,
  signal?: AbortSignal,
) {
  const lock = new pg.Client({ connectionString: testDatabaseUrl() });
  await lock.connect();
  const wiring = createLibraryImporter(t.config, t.connections, { batchSize: 1, beatMs: 20 });
  const waiting = new Set<{ test: (p: LibraryImportProgress) => boolean; resolve: () => void }>();
  const progressWhere: ProgressWhere = (test) =>
    new Promise<void>((resolve) => waiting.add({ test, resolve }));
  try {
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE tracks IN SHARE MODE');
    const running = wiring.importer.run(importId, randomUUID(), {
      from: ['queued', 'running'],
      ...(signal ? { signal } : {}),
      onProgress: (p) => {
        for (const w of waiting)
          if (w.test(p)) {
            waiting.delete(w);
            w.resolve();
          }
      },
    });
    await waitForLockWaiter(t.connections.pool, '%INSERT INTO "tracks"%');
    await whileHeld(progressWhere);
    await lock.query('COMMIT');
    return await running;
  } finally {
    await lock.query('ROLLBACK').catch(() => undefined);
    await lock.end();
    await wiring.close();
  }
}

/** runLocked, paused while held; `whileStopping` runs once the run has read the pause. */
function runHeld(importId: string, whileStopping: () => Promise<void>, signal?: AbortSignal) {
  return runLocked(
    importId,
    async (progressWhere) => {
      const pauseSeen = progressWhere((p) => p.status === 'paused');
      const paused = await post(`/api/v1/admin/library/imports/${importId}/pause`);
      expect(paused.statusCode, paused.body).toBe(200);
      // The run has read the pause: it is stopping after the files in hand, which it cannot record yet.
      await pauseSeen;
      await whileStopping();
    },
    signal,
  );
}

async function startImport(handle: string): Promise<string> {
  const started = await post('/api/v1/admin/library/imports', {
    directory: join(dir, 'music'),
    owner: handle,
  });
  expect(started.statusCode, started.body).toBe(202);
  return started.json<{ import_id: string }>().import_id;
}

const resume = async (importId: string) => {
  const resumed = await post(`/api/v1/admin/library/imports/${importId}/resume`);
  expect(resumed.statusCode, resumed.body).toBe(200);
  return resumed.json<{ status: string }>().status;
};

describe('a resume while the paused import is stopping', () => {
  it('wins: the stopping run goes on to the end, and no second run is started', async () => {
    const importId = await startImport(owner.handle);
    expect(await importJobs(importId)).toBe(1);
    const done = await runHeld(importId, async () => {
      // Queued, or running again if a heartbeat of the run took it back already.
      expect(['queued', 'running']).toContain(await resume(importId));
    });
    expect(done).toMatchObject({ status: 'done', imported: FILES, failed: 0 });
    // One run did it all: the start's job is the only one, every file is one track.
    expect(await importJobs(importId)).toBe(1);
    const tracks = await t.connections.prisma.track.findMany({
      where: { ownerUserId: owner.id },
      include: { versions: true },
    });
    expect(tracks).toHaveLength(FILES);
    expect(tracks.every((tr) => tr.versions.length === 1)).toBe(true);
    const record = await t.connections.prisma.libraryImport.findUniqueOrThrow({ where: { id: importId } });
    expect(record).toMatchObject({ status: 'done', runner: null });
  }, 120_000);

  it('pause, resume, pause while it stops: the pause wins; a resume after it stopped starts one new run', async () => {
    const other = await signupUser(t.app, 'last2');
    const importId = await startImport(other.handle);
    const stopped = await runHeld(importId, async () => {
      await resume(importId);
      const again = await post(`/api/v1/admin/library/imports/${importId}/pause`);
      expect(again.statusCode, again.body).toBe(200);
    });
    expect(stopped).toMatchObject({ status: 'paused' });
    expect(stopped.imported).toBeLessThan(FILES);
    expect(await importJobs(importId)).toBe(1);
    // Nothing holds it now: the resume is a new run (a job).
    expect(await resume(importId)).toBe('queued');
    expect(await importJobs(importId)).toBe(2);
  }, 120_000);

  it('a resume taken by a run that its process then stops is not lost: the import is queued with a job', async () => {
    const other = await signupUser(t.app, 'last3');
    const importId = await startImport(other.handle);
    const stop = new AbortController();
    const stopped = await runHeld(
      importId,
      async () => {
        await resume(importId);
        // Ctrl-C, or the worker shutting down, after the run took the resume.
        stop.abort();
      },
      stop.signal,
    );
    expect(stopped.imported).toBeLessThan(FILES);
    expect(stopped.status).toBe('queued');
    expect(await importJobs(importId)).toBe(2);
  }, 120_000);

  it('an import whose run was killed after it took a resume gets one new run from the next resume or start', async () => {
    const other = await signupUser(t.app, 'last4');
    const importId = await startImport(other.handle);
    const queued = { status: 'queued' as const, runner: randomUUID() };
    // As SIGKILL leaves it: queued (the resume), held by a runner that no longer beats.
    await t.connections.prisma.libraryImport.update({
      where: { id: importId },
      data: { ...queued, heartbeatAt: new Date(Date.now() - 60_000) },
    });
    expect(await resume(importId)).toBe('queued');
    expect(await importJobs(importId)).toBe(2);
    expect(await resume(importId)).toBe('queued');
    expect(await importJobs(importId)).toBe(2);
    // A live runner is left alone, and so is the start of the same folder.
    await t.connections.prisma.libraryImport.update({
      where: { id: importId },
      data: { ...queued, heartbeatAt: new Date() },
    });
    expect(await resume(importId)).toBe('queued');
    const again = await post('/api/v1/admin/library/imports', {
      directory: join(dir, 'music'),
      owner: other.handle,
    });
    expect(again.json<{ import_id: string }>().import_id).toBe(importId);
    expect(await importJobs(importId)).toBe(2);
    // Killed again: the start of the same folder is the resume.
    await t.connections.prisma.libraryImport.update({
      where: { id: importId },
      data: { ...queued, heartbeatAt: new Date(Date.now() - 60_000) },
    });
    const restarted = await post('/api/v1/admin/library/imports', {
      directory: join(dir, 'music'),
      owner: other.handle,
    });
    expect(restarted.json<{ import_id: string; status: string }>()).toMatchObject({
      import_id: importId,
      status: 'queued',
    });
    expect(await importJobs(importId)).toBe(3);
  }, 120_000);

  it('a queued import whose job was lost (no runner, nothing for a while) gets a new run from a resume', async () => {
    const other = await signupUser(t.app, 'last5');
    const importId = await startImport(other.handle);
    expect(await resume(importId)).toBe('queued');
    expect(await importJobs(importId)).toBe(1);
    await t.connections.pool.query(
      `UPDATE library_imports SET updated_at = now() - interval '1 minute' WHERE id = $1`,
      [importId],
    );
    expect(await resume(importId)).toBe('queued');
    expect(await importJobs(importId)).toBe(2);
  }, 120_000);

  it('a run let go as abandoned stops at its next beat and leaves the import to the run that holds it', async () => {
    const other = await signupUser(t.app, 'last6');
    const importId = await startImport(other.handle);
    const taker = randomUUID();
    const stopped = await runLocked(importId, async (progressWhere) => {
      // Another run took it (as after letGoIfAbandoned and a claim), while this one was held.
      await t.connections.prisma.libraryImport.update({
        where: { id: importId },
        data: { runner: taker, heartbeatAt: new Date() },
      });
      // Two beats after it: one began after the change, and found the import held by another.
      let beats = 0;
      await progressWhere(() => ++beats >= 2);
    });
    expect(stopped.imported).toBeLessThan(FILES);
    const record = await t.connections.prisma.libraryImport.findUniqueOrThrow({ where: { id: importId } });
    expect(record).toMatchObject({ status: 'running', runner: taker });
  }, 120_000);

  it('a run stopped before it starts (Ctrl-C while the CLI waits for a claim) decides nothing missing', async () => {
    const other = await signupUser(t.app, 'again');
    const root = join(dir, 'again');
    const wiring = createLibraryImporter(t.config, t.connections);
    const newImport = async (prune: boolean) =>
      (
        await wiring.library.createUnlessUnfinished({
          ownerUserId: other.id,
          requestedBy: null,
          root,
          visibility: 'public',
          prune,
        })
      ).record;
    try {
      const first = await wiring.importer.run((await newImport(false)).id, randomUUID());
      expect(first).toMatchObject({ status: 'done', imported: 2 });
      // Imported again with --prune, its signal already aborted: nothing was walked.
      const stopped = await wiring.importer.run((await newImport(true)).id, randomUUID(), {
        signal: AbortSignal.abort(),
      });
      expect(stopped).toMatchObject({ status: 'paused', missing: 0, removed: 0 });
    } finally {
      await wiring.close();
    }
    expect(await t.connections.prisma.track.count({ where: { ownerUserId: other.id } })).toBe(2);
  }, 120_000);
});

/**
 * Pausing an import holds its media jobs already queued, not only the walk: the music-worker
 * moves each one to `delayed` instead of running it, and the resume puts them back at once.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_STEPS } from '../src/music/jobs/media-steps.js';
import { versionJobId } from '../src/music/jobs/queues.js';
import { createLibraryImporter } from '../src/music/library-wiring.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';
import {
  generateAudio,
  startWorkerProcess,
  stopWorkerProcess,
  tokenWithRole,
  type WorkerProcess,
} from './helpers/music-worker.js';

const FILES = 8;
let t: MusicTestApp;
let dir: string;
let owner: TestUser;
let admin: string;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'library-pause-')));
  await mkdir(join(dir, 'music'), { recursive: true });
  await Promise.all(
    Array.from({ length: FILES }, (_, n) =>
      generateAudio(join(dir, 'music', `${String(n).padStart(2, '0')}.flac`), {
        seconds: 0.5,
        tags: { title: `Held ${n}` },
      }),
    ),
  );
  t = await createMusicTestApp({ RATE_LIMITS: 'off', LIBRARY_IMPORT_ROOTS: dir });
  owner = await signupUser(t.app, 'hold');
  admin = await tokenWithRole(t, 'admin');
}, 120_000);

afterAll(async () => {
  if (worker) await stopWorkerProcess(worker);
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

describe('pausing a library import', () => {
  it('holds its queued media jobs while paused and releases them on resume', async () => {
    const started = await post('/api/v1/admin/library/imports', {
      directory: join(dir, 'music'),
      owner: owner.handle,
    });
    expect(started.statusCode, started.body).toBe(202);
    const importId = started.json<{ import_id: string }>().import_id;
    // The run as the job does it, one file per batch; paused by the API once a version is queued.
    const wiring = createLibraryImporter(t.config, t.connections, { batchSize: 1, beatMs: 20 });
    let pausing: Promise<unknown> | undefined;
    const run = await wiring.importer
      .run(importId, randomUUID(), {
        from: ['queued', 'running'],
        onProgress: (p) => {
          if (p.imported > 0) pausing ??= post(`/api/v1/admin/library/imports/${importId}/pause`);
        },
      })
      .finally(() => wiring.close());
    expect(await pausing).toMatchObject({ statusCode: 200 });
    expect(run.status).toBe('paused');
    expect(run.scanned).toBeLessThan(FILES);
    const versions = await t.connections.prisma.trackVersion.findMany({
      where: { track: { ownerUserId: owner.id } },
      select: { id: true },
    });
    expect(versions.length).toBeGreaterThan(0);

    // Every media job of those versions is taken by the worker and delayed, none run.
    const redis = new Redis(t.config.cacheUrl, { maxRetriesPerRequest: null });
    const options = { connection: redis, prefix: t.config.queuePrefix };
    // QueueEvents block on their connection: one each.
    const listening = [...MEDIA_STEPS.map((s) => s.queue), 'library-import'].map((queue) => {
      const connection = redis.duplicate();
      return { connection, events: new QueueEvents(queue, { connection, prefix: t.config.queuePrefix }) };
    });
    const events = listening.map((l) => l.events);
    const queues = MEDIA_STEPS.map((s) => new Queue(s.queue, options));
    try {
      await Promise.all(events.map((e) => e.waitUntilReady()));
      const expected = new Set(MEDIA_STEPS.flatMap((s) => versions.map((v) => versionJobId(s.queue, v.id))));
      const held = new Promise<void>((resolve) => {
        for (const e of events)
          e.on('delayed', ({ jobId }) => {
            expected.delete(jobId);
            if (expected.size === 0) resolve();
          });
      });
      worker = await startWorkerProcess(t.config);
      await held;
      for (const [n, s] of MEDIA_STEPS.entries())
        for (const v of versions)
          expect(await queues[n]?.getJobState(versionJobId(s.queue, v.id))).toBe('delayed');
      const statuses = await t.connections.prisma.trackVersion.findMany({
        where: { id: { in: versions.map((v) => v.id) } },
        select: { status: true },
      });
      expect(statuses.every((v) => v.status === 'pending')).toBe(true);

      // The resume puts them back (not after the hold); its job walks the rest of the folder.
      const walked = new Promise<void>((resolve) =>
        events[MEDIA_STEPS.length]?.on('completed', () => resolve()),
      );
      const completed = new Promise<void>((resolve) => {
        const left = new Set(versions.map((v) => versionJobId(MEDIA_STEPS[0].queue, v.id)));
        events[0]?.on('completed', ({ jobId }) => {
          left.delete(jobId);
          if (left.size === 0) resolve();
        });
      });
      expect((await post(`/api/v1/admin/library/imports/${importId}/resume`)).statusCode).toBe(200);
      await completed;
      await walked;
      const record = await t.connections.prisma.libraryImport.findUniqueOrThrow({ where: { id: importId } });
      expect(record).toMatchObject({ status: 'done', imported: FILES });
    } finally {
      await Promise.all([...events.map((e) => e.close()), ...queues.map((q) => q.close())]);
      for (const l of listening) l.connection.disconnect();
      redis.disconnect();
    }
  }, 300_000);
});

/**
 * The music-worker as a process under signals, with a long transcode running:
 * - SIGKILL mid-transcode, then a new worker: the job completes once, and nothing was ever
 *   published under the version's final keys by the killed attempt;
 * - SIGTERM mid-transcode: exit 0 within the shutdown bound, the job finished or back in the
 *   queue, and a new worker completes the version.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BullVersionFlowStarter } from '../src/music/jobs/flow.js';
import { versionJobId, type MediaJobData } from '../src/music/jobs/queues.js';
import { parseMediaPlaylist } from '../src/music/media/hls-master.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import {
  createVersionRows,
  run,
  startWorkerProcess,
  stopWorkerProcess,
  type WorkerProcess,
} from './helpers/music-worker.js';

// The worker about to be killed holds 3 s locks, so its jobs are soon seen as stalled; the
// workers that take over check often but hold long locks themselves, so a starved machine
// cannot make their own jobs look stalled (a second stall fails a job: maxStalledCount 1).
const FAST_STALL = { WORKER_LOCK_MS: '3000', WORKER_STALLED_INTERVAL_MS: '2000' };
const TAKE_OVER = { WORKER_LOCK_MS: '30000', WORKER_STALLED_INTERVAL_MS: '2000' };
const SHUTDOWN_MS = 3000;

describe('music-worker process signals', () => {
  let t: MusicTestApp;
  let bull: Redis;
  let finalizeEvents: QueueEvents;
  let transcodeEvents: QueueEvents;
  let starter: BullVersionFlowStarter;
  let dir: string;
  let source: Buffer;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    bull = new Redis(t.config.cacheUrl, { maxRetriesPerRequest: null });
    const prefix = t.config.queuePrefix;
    finalizeEvents = new QueueEvents('version-finalize', { connection: bull.duplicate(), prefix });
    transcodeEvents = new QueueEvents('transcode', { connection: bull.duplicate(), prefix });
    await Promise.all([finalizeEvents.waitUntilReady(), transcodeEvents.waitUntilReady()]);
    starter = new BullVersionFlowStarter(bull, { prefix });
    dir = await mkdtemp(join(tmpdir(), 'worker-signals-'));
    // Long enough that the transcode is still running when the first progress is reported.
    const path = join(dir, 'long.flac');
    await run('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=90:sample_rate=44100',
      '-ac',
      '2',
      path,
    ]);
    source = await readFile(path);
  });

  afterAll(async () => {
    for (const w of workers) await stopWorkerProcess(w, 'SIGKILL');
    await Promise.all([finalizeEvents?.close(), transcodeEvents?.close()]);
    await starter?.close();
    bull?.disconnect();
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function startVersion(): Promise<MediaJobData> {
    const sourceKey = `long/${Date.now()}-${Math.random().toString(36).slice(2)}.flac`;
    await t.connections.stores.originals.put(sourceKey, source);
    return createVersionRows(t.connections, sourceKey);
  }

  const firstProgress = (jobId: string): Promise<void> =>
    new Promise((resolve) => {
      const on = ({ jobId: id }: { jobId: string }): void => {
        if (id !== jobId) return;
        transcodeEvents.off('progress', on);
        resolve();
      };
      transcodeEvents.on('progress', on);
    });

  const finalized = (versionId: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const id = versionJobId('version-finalize', versionId);
      finalizeEvents.on('completed', ({ jobId }) => jobId === id && resolve());
      finalizeEvents.on(
        'failed',
        ({ jobId, failedReason }) => jobId === id && reject(new Error(failedReason)),
      );
    });

  async function launch(env: Record<string, string> = {}): Promise<WorkerProcess> {
    const w = await startWorkerProcess(t.config, { ...FAST_STALL, ...env });
    workers.push(w);
    return w;
  }

  /** Every playlist, init section and segment the master names is in the store. */
  async function expectCompleteHls(versionId: string): Promise<void> {
    const store = t.connections.stores.transcodes;
    const text = async (key: string) =>
      Buffer.concat(await (await store.get(key))!.body.toArray()).toString();
    const master = await text(`${versionId}/master.m3u8`);
    const variants = master.split('\n').filter((l) => l && !l.startsWith('#'));
    expect(variants.length).toBeGreaterThan(0);
    for (const v of variants) {
      const folder = `${versionId}/${v.slice(0, v.lastIndexOf('/'))}`;
      const playlist = parseMediaPlaylist(await text(`${versionId}/${v}`));
      const seconds = playlist.segments.reduce((sum, s) => sum + s.duration, 0);
      expect(Math.abs(seconds - 90)).toBeLessThan(0.1);
      for (const uri of [playlist.initUri!, ...playlist.segments.map((s) => s.uri)])
        expect(await store.head(`${folder}/${uri}`), uri).toBeDefined();
    }
  }

  it(
    'SIGKILL mid-transcode: nothing partial is published, and the restarted worker completes the job once',
    { timeout: 300_000 },
    async () => {
      const data = await startVersion();
      const transcodeId = versionJobId('transcode', data.versionId);
      let completions = 0;
      transcodeEvents.on('completed', ({ jobId }) => {
        if (jobId === transcodeId) completions++;
      });
      const first = await launch();
      const progressed = firstProgress(transcodeId);
      const done = finalized(data.versionId);
      await starter.start(data);
      await progressed;
      first.child.kill('SIGKILL');
      expect(await first.exited).toBe('SIGKILL');
      workers.splice(workers.indexOf(first), 1);
      // The killed attempt was inside ffmpeg: its output never reached the store.
      expect(await t.connections.stores.transcodes.list(`${data.versionId}/`)).toEqual([]);

      await launch(TAKE_OVER);
      await done;
      expect(completions).toBe(1);
      const queue = new Queue('transcode', { connection: bull, prefix: t.config.queuePrefix });
      const job = (await queue.getJob(transcodeId))!;
      expect(await job.getState()).toBe('completed');
      expect(job.attemptsStarted).toBeGreaterThanOrEqual(2); // started again after the kill
      await queue.close();
      await expectCompleteHls(data.versionId);
      const version = await t.connections.prisma.trackVersion.findUniqueOrThrow({
        where: { id: data.versionId },
      });
      expect(version.status).toBe('ready');
      for (const w of workers.splice(0)) expect(await stopWorkerProcess(w)).toBe(0);
    },
  );

  it(
    'SIGTERM mid-transcode: exits 0 within the bound, the job is finished or back in the queue',
    { timeout: 300_000 },
    async () => {
      const data = await startVersion();
      const transcodeId = versionJobId('transcode', data.versionId);
      // The default 30 s lock, not FAST_STALL: hand-back (moveToWait) needs the job's lock, and a
      // 3 s lock can lapse on a starved machine before the cancelled job is moved, which left it
      // `active` until a stall check. This test is about the hand-back, not stall recovery.
      const worker = await launch({
        WORKER_SHUTDOWN_MS: String(SHUTDOWN_MS),
        WORKER_LOCK_MS: '30000',
        WORKER_STALLED_INTERVAL_MS: '30000',
      });
      const progressed = firstProgress(transcodeId);
      const done = finalized(data.versionId);
      await starter.start(data);
      await progressed;
      const started = Date.now();
      expect(await stopWorkerProcess(worker, 'SIGTERM')).toBe(0);
      // The bound for running jobs plus the connection close (see src/main/music-worker.ts).
      expect(Date.now() - started).toBeLessThan(SHUTDOWN_MS + 10_000);
      workers.splice(workers.indexOf(worker), 1);
      const queue = new Queue('transcode', { connection: bull, prefix: t.config.queuePrefix });
      const state = await (await queue.getJob(transcodeId))!.getState();
      expect(['completed', 'waiting', 'prioritized'], worker.lines.slice(-15).join('\n')).toContain(state);
      expect(worker.lines.some((l) => l.includes('could not hand the job back'))).toBe(false);
      await queue.close();

      await launch(TAKE_OVER);
      await done;
      await expectCompleteHls(data.versionId);
    },
  );
});

/**
 * A job whose worker dies twice (SIGKILL, real processes): BullMQ fails it without running the
 * processor (maxStalledCount exceeded), and the worker that does so marks the version `failed`
 * with a reason an admin can act on; the admin retry route then re-runs it to `ready`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BullVersionFlowStarter } from '../src/music/jobs/flow.js';
import { versionJobId } from '../src/music/jobs/queues.js';
import { STALLED_TOO_OFTEN } from '../workers/music/version-failure.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import {
  createVersionRows,
  run,
  startWorkerProcess,
  stopWorkerProcess,
  type WorkerProcess,
} from './helpers/music-worker.js';

// Workers that will be killed hold 3 s locks (their jobs are soon seen as stalled); the one
// that takes over checks every 2 s but holds 30 s locks, so load cannot make its own job stall.
const DOOMED = { WORKER_LOCK_MS: '3000', WORKER_STALLED_INTERVAL_MS: '2000' };
const SURVIVOR = { WORKER_LOCK_MS: '30000', WORKER_STALLED_INTERVAL_MS: '2000' };

describe('a job whose worker dies twice', () => {
  let t: MusicTestApp;
  let bull: Redis;
  let transcodeEvents: QueueEvents;
  let finalizeEvents: QueueEvents;
  let starter: BullVersionFlowStarter;
  let dir: string;
  let adminToken: string;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    bull = new Redis(t.config.cacheUrl, { maxRetriesPerRequest: null });
    const prefix = t.config.queuePrefix;
    transcodeEvents = new QueueEvents('transcode', { connection: bull.duplicate(), prefix });
    finalizeEvents = new QueueEvents('version-finalize', { connection: bull.duplicate(), prefix });
    await Promise.all([transcodeEvents.waitUntilReady(), finalizeEvents.waitUntilReady()]);
    starter = new BullVersionFlowStarter(bull, { prefix });
    dir = await mkdtemp(join(tmpdir(), 'worker-stall-'));
    const handle = `admin_${randomBytes(3).toString('hex')}`;
    const password = 'a long enough password 123';
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { handle, email: `${handle}@example.org`, password },
    });
    expect(signup.statusCode).toBe(201);
    await t.connections.prisma.user.update({ where: { handle }, data: { role: 'admin' } });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { login: handle, password },
    });
    adminToken = login.json<{ token: string }>().token;
  });

  afterAll(async () => {
    for (const w of workers) await stopWorkerProcess(w, 'SIGKILL');
    await Promise.all([transcodeEvents?.close(), finalizeEvents?.close()]);
    await starter?.close();
    bull?.disconnect();
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const nextProgress = (jobId: string): Promise<void> =>
    new Promise((resolve) => {
      const on = ({ jobId: id }: { jobId: string }): void => {
        if (id !== jobId) return;
        transcodeEvents.off('progress', on);
        resolve();
      };
      transcodeEvents.on('progress', on);
    });

  async function launch(env: Record<string, string>): Promise<WorkerProcess> {
    const w = await startWorkerProcess(t.config, env);
    workers.push(w);
    return w;
  }

  async function kill(w: WorkerProcess): Promise<void> {
    w.child.kill('SIGKILL');
    expect(await w.exited).toBe('SIGKILL');
    workers.splice(workers.indexOf(w), 1);
  }

  it(
    'fails the version with a readable reason, and the admin retry makes it ready',
    { timeout: 400_000 },
    async () => {
      const path = join(dir, 'long.flac');
      await run('ffmpeg', [
        ...['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=90:sample_rate=44100'],
        ...['-ac', '2', path],
      ]);
      const sourceKey = `stall/${randomBytes(4).toString('hex')}.flac`;
      await t.connections.stores.originals.put(sourceKey, await readFile(path));
      const data = await createVersionRows(t.connections, sourceKey);
      const transcodeId = versionJobId('transcode', data.versionId);
      const transcodeFailed = new Promise<string>((resolve) =>
        transcodeEvents.on(
          'failed',
          ({ jobId, failedReason }) => jobId === transcodeId && resolve(failedReason),
        ),
      );

      // First death: the job goes back to the queue (stalled once).
      const first = await launch(DOOMED);
      const firstRun = nextProgress(transcodeId);
      await starter.start(data);
      await firstRun;
      await kill(first);

      // Second death, after the next worker took the job over and was transcoding it.
      const secondRun = nextProgress(transcodeId);
      const second = await launch(DOOMED);
      await secondRun;
      await kill(second);

      // The third worker finds it stalled a second time: BullMQ fails it without running it.
      const third = await launch(SURVIVOR);
      const marked = (line: string): boolean =>
        line.includes('"version failed"') && line.includes(transcodeId);
      const markedLine = third.lines.find(marked) ?? (await third.nextLine(marked));
      expect(await transcodeFailed).toBe(STALLED_TOO_OFTEN);
      expect(markedLine).toContain('stopped twice');

      const failed = await t.connections.prisma.trackVersion.findUniqueOrThrow({
        where: { id: data.versionId },
      });
      expect(failed.status).toBe('failed');
      // A sibling killed twice alongside may have failed first; the reason is the same.
      expect(failed.error).toMatch(
        /^(transcode|waveform|artwork-extract|loudness): the worker running this job stopped twice before finishing it \(killed, crashed or out of memory\); retry it with POST \/api\/v1\/admin\/jobs\/retry$/,
      );

      // The admin retry route re-runs it; the surviving worker completes the version.
      const finalizeId = versionJobId('version-finalize', data.versionId);
      const finalized = new Promise<void>((resolve, reject) => {
        finalizeEvents.on('completed', ({ jobId }) => jobId === finalizeId && resolve());
        finalizeEvents.on(
          'failed',
          ({ jobId, failedReason }) => jobId === finalizeId && reject(new Error(failedReason)),
        );
      });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/jobs/retry',
        payload: { queue: 'transcode', limit: 10 },
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ queue: 'transcode', retried: 1, job_ids: [transcodeId] });
      await finalized;
      const ready = await t.connections.prisma.trackVersion.findUniqueOrThrow({
        where: { id: data.versionId },
      });
      expect(ready.status).toBe('ready');
      expect(ready.error).toBeNull();
      const queue = new Queue('transcode', { connection: bull, prefix: t.config.queuePrefix });
      expect(await (await queue.getJob(transcodeId))!.getState()).toBe('completed');
      await queue.close();
      expect(await stopWorkerProcess(third)).toBe(0);
      workers.splice(workers.indexOf(third), 1);
    },
  );
});

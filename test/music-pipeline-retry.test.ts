/**
 * A corrupt original fails its version at once (UnrecoverableError: no retries wasted); after
 * the asset is replaced, the admin retry endpoint re-runs the flow and the version becomes
 * ready. Also the endpoint's access rules and validation.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BullVersionFlowStarter } from '../src/music/jobs/flow.js';
import { MEDIA_QUEUES, versionJobId } from '../src/music/jobs/queues.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import {
  createVersionRows,
  generateAudio,
  startWorkerProcess,
  stopWorkerProcess,
  type WorkerProcess,
} from './helpers/music-worker.js';

describe('failed versions and POST /api/v1/admin/jobs/retry', () => {
  let t: MusicTestApp;
  let worker: WorkerProcess;
  let bull: Redis;
  let events: QueueEvents;
  let starter: BullVersionFlowStarter;
  let dir: string;
  let adminToken: string;
  let userToken: string;

  async function token(handle: string, role: 'user' | 'admin'): Promise<string> {
    const password = 'a long enough password 123';
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { handle, email: `${handle}@example.org`, password },
    });
    expect(signup.statusCode).toBe(201);
    await t.connections.prisma.user.update({ where: { handle }, data: { role } });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { login: handle, password },
    });
    return login.json<{ token: string }>().token;
  }

  const retry = (payload: unknown, bearer?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/jobs/retry',
      payload: payload as object,
      headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
    });

  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    bull = new Redis(t.config.cacheUrl, { maxRetriesPerRequest: null });
    events = new QueueEvents('version-finalize', {
      connection: bull.duplicate(),
      prefix: t.config.queuePrefix,
    });
    await events.waitUntilReady();
    starter = new BullVersionFlowStarter(bull, { prefix: t.config.queuePrefix });
    dir = await mkdtemp(join(tmpdir(), 'pipeline-retry-'));
    const suffix = randomBytes(3).toString('hex');
    adminToken = await token(`admin_${suffix}`, 'admin');
    userToken = await token(`user_${suffix}`, 'user');
  });

  afterAll(async () => {
    if (worker) expect(await stopWorkerProcess(worker)).toBe(0);
    await events?.close();
    await starter?.close();
    bull?.disconnect();
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('refuses without a token (401), for a user (403), and explains bad input (400)', async () => {
    expect((await retry({ queue: 'transcode', limit: 1 })).statusCode).toBe(401);
    const forbidden = await retry({ queue: 'transcode', limit: 1 }, userToken);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.headers['content-type']).toMatch(/^application\/problem\+json/);
    const unknown = await retry({ queue: 'transcodes', limit: 1 }, adminToken);
    expect(unknown.statusCode).toBe(400);
    for (const name of ['transcode', 'waveform', 'artwork-extract', 'loudness', 'analytics-rollup'])
      expect(unknown.json().detail).toContain(name);
    expect(unknown.json().errors).toEqual([
      { path: '/queue', message: expect.stringContaining('transcode') },
    ]);
    for (const limit of [0, 1001, 1.5, '10']) {
      const bad = await retry({ queue: 'transcode', limit }, adminToken);
      expect(bad.statusCode, String(limit)).toBe(400);
      expect(bad.json().errors[0].path).toBe('/limit');
    }
    expect((await retry({ queue: 'transcode', limit: 1, extra: 1 }, adminToken)).statusCode).toBe(400);
    const none = await retry({ queue: 'analytics-rollup', limit: 5 }, adminToken);
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json()).toEqual({ queue: 'analytics-rollup', retried: 0, job_ids: [] });
  });

  it('fails a corrupt original without retries, then re-runs it after the asset is replaced', async () => {
    worker = await startWorkerProcess(t.config);
    const sourceKey = `corrupt/${randomBytes(4).toString('hex')}.mp3`;
    await t.connections.stores.originals.put(sourceKey, randomBytes(64 * 1024));
    const data = await createVersionRows(t.connections, sourceKey);
    const parentId = versionJobId('version-finalize', data.versionId);
    const outcome = (): Promise<string> =>
      new Promise((resolve) => {
        const onCompleted = ({ jobId }: { jobId: string }): void => {
          if (jobId === parentId) resolve('completed');
        };
        const onFailed = ({ jobId, failedReason }: { jobId: string; failedReason: string }): void => {
          if (jobId === parentId) resolve(`failed: ${failedReason}`);
        };
        events.on('completed', onCompleted);
        events.on('failed', onFailed);
      });
    const failed = outcome();
    await starter.start(data);
    expect(await failed).toMatch(/^failed/);

    const version = await t.connections.prisma.trackVersion.findUniqueOrThrow({
      where: { id: data.versionId },
    });
    expect(version.status).toBe('failed');
    expect(version.error).toMatch(/^(transcode|waveform|artwork-extract|loudness): the file is not audio/);
    for (const name of MEDIA_QUEUES) {
      const queue = new Queue(name, { connection: bull, prefix: t.config.queuePrefix });
      const job = await queue.getJob(versionJobId(name, data.versionId));
      // Either it failed in its one and only attempt, or it never ran (the flow had failed already).
      if (job && (await job.getState()) === 'failed') expect(job.attemptsMade).toBe(1);
      await queue.close();
    }

    // The owner replaces the original with real audio; an operator retries.
    const good = join(dir, 'good.flac');
    await generateAudio(good, { seconds: 2 });
    await t.connections.stores.originals.put(sourceKey, await readFile(good));
    const ready = outcome();
    const res = await retry({ queue: 'transcode', limit: 10 }, adminToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      queue: 'transcode',
      retried: 1,
      job_ids: [versionJobId('transcode', data.versionId)],
    });
    expect(await ready).toBe('completed');
    const after = await t.connections.prisma.trackVersion.findUniqueOrThrow({
      where: { id: data.versionId },
    });
    expect(after.status).toBe('ready');
    expect(after.error).toBeNull();
    expect(after.hlsKey).toBe(`${data.versionId}/master.m3u8`);
  });
});

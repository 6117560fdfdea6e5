/**
 * A corrupt original fails its version at once (UnrecoverableError: no retries wasted); after
 * the asset is replaced, the admin retry endpoint re-runs the flow and the version becomes
 * ready. Also the endpoint's access rules and validation.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requiredQueues } from '../src/music/jobs/media-steps.js';
import { MEDIA_QUEUES, QUEUE_NAMES, versionJobId } from '../src/music/jobs/queues.js';
import { BullJobQueueRepository } from '../src/music/repositories/job-queue-repository.js';
import { openFlowEvents, type FlowEvents } from './helpers/flow-events.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import {
  createVersionRows,
  generateAudio,
  startWorkerProcess,
  retryFailedJobs,
  stopWorkerProcess,
  tokenWithRole,
  type WorkerProcess,
} from './helpers/music-worker.js';
import { startStallingProxy, type StallingProxy } from './helpers/stalling-proxy.js';

describe('failed versions and POST /api/v1/admin/jobs/retry', () => {
  let t: MusicTestApp;
  let worker: WorkerProcess;
  let flow: FlowEvents;
  let dir: string;
  let adminToken: string;
  let userToken: string;

  const retry = (payload: unknown, bearer?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/jobs/retry',
      payload: payload as object,
      headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
    });

  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    flow = await openFlowEvents(t.config, [...MEDIA_QUEUES, 'version-finalize']);
    dir = await mkdtemp(join(tmpdir(), 'pipeline-retry-'));
    adminToken = await tokenWithRole(t, 'admin');
    userToken = await tokenWithRole(t, 'user');
  });

  afterAll(async () => {
    if (worker) expect(await stopWorkerProcess(worker)).toBe(0);
    await flow?.close();
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
    for (const name of QUEUE_NAMES) expect(unknown.json().detail).toContain(name);
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

  // Two flows and a worker start: minutes on a loaded machine.
  it(
    'fails a corrupt original without retries, then re-runs it after the asset is replaced',
    { timeout: 300_000 },
    async () => {
      worker = await startWorkerProcess(t.config);
      const sourceKey = `corrupt/${randomBytes(4).toString('hex')}.mp3`;
      await t.connections.stores.originals.put(sourceKey, randomBytes(64 * 1024));
      const data = await createVersionRows(t.connections, sourceKey);
      const parentId = versionJobId('version-finalize', data.versionId);
      const failed = flow.outcome('version-finalize', parentId);
      const children = MEDIA_QUEUES.map((q) => flow.outcome(q, versionJobId(q, data.versionId)));
      await flow.starter.start(data);
      expect(await failed).toMatch(/^failed/);
      // The parent fails with the first child; the others still run on the corrupt copy. All must
      // have ended before the original is replaced, or one would fail the retried flow again.
      // Random bytes are either nothing ffprobe reads, or a container it reads without an audio stream.
      for (const child of children)
        expect(await child).toMatch(
          /^failed: the file is not (audio that ffmpeg can decode|playable audio: )/,
        );

      const version = await t.connections.prisma.trackVersion.findUniqueOrThrow({
        where: { id: data.versionId },
      });
      expect(version.status).toBe('failed');
      expect(requiredQueues()).toContain(version.error?.split(':')[0]);
      expect(version.error).toMatch(/^[a-z-]+: the file is not audio/);
      // Unrecoverable: each failed in its one and only attempt.
      for (const name of MEDIA_QUEUES)
        expect(await flow.inspect(name, versionJobId(name, data.versionId))).toMatchObject({
          state: 'failed',
          attemptsMade: 1,
        });

      // The owner replaces the original with real audio; an operator retries.
      const good = join(dir, 'good.flac');
      await generateAudio(good, { seconds: 2 });
      await t.connections.stores.originals.put(sourceKey, await readFile(good));
      const ready = flow.outcome('version-finalize', parentId);
      const res = await retryFailedJobs(t, adminToken, { queue: 'transcode', limit: 10 });
      expect(res.statusCode, res.body).toBe(200);
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
    },
  );
});

describe('POST /api/v1/admin/jobs/retry while Redis stops answering', () => {
  let proxy: StallingProxy;
  let t: MusicTestApp;

  beforeAll(async () => {
    proxy = await startStallingProxy(process.env.TEST_CACHE_URL ?? 'redis://127.0.0.1:6379');
    t = await createMusicTestApp({ RATE_LIMITS: 'off', CACHE_URL: proxy.url });
  });

  afterAll(async () => {
    await proxy?.close();
    await t?.close();
  });

  it('answers 503 with Retry-After (a Redis command timing out was a 500)', async () => {
    const token = await tokenWithRole(t, 'admin');
    // Sign-up and log-in went through Redis; from the first command naming the queue on, it hangs.
    proxy.stallOn(`${t.config.queuePrefix}:transcode`);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/jobs/retry',
      payload: { queue: 'transcode', limit: 5 },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(proxy.stalled()).toBe(true);
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ status: 503, code: 'unavailable' });
  });
});

describe('BullJobQueueRepository.retry', () => {
  let t: MusicTestApp;
  let flow: FlowEvents;

  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    flow = await openFlowEvents(t.config, ['upload-cleanup']);
  });

  afterAll(async () => {
    await flow?.close();
    await t?.close();
  });

  it('retries the failed jobs it is given and skips any that is no longer failed', async () => {
    const prefix = t.config.queuePrefix;
    const queue = new Queue('upload-cleanup', { connection: flow.bull, prefix });
    const failing = new Worker('upload-cleanup', () => Promise.reject(new UnrecoverableError('refused')), {
      connection: flow.bull.duplicate(),
      prefix,
    });
    const failed = ['a', 'b'].map((id) => flow.outcome('upload-cleanup', id));
    await Promise.all(['a', 'b'].map((jobId) => queue.add('cleanup', {}, { jobId })));
    expect(await Promise.all(failed)).toEqual(['failed: refused', 'failed: refused']);
    await failing.close();
    await (await queue.getJob('b'))!.remove(); // gone before its turn
    await queue.add('cleanup', {}, { jobId: 'c' }); // waiting: never failed
    const repository = new BullJobQueueRepository(flow.bull, { prefix });
    expect(await repository.retry('upload-cleanup', ['a', 'b', 'c', 'missing'])).toEqual(['a']);
    expect(await queue.getJobState('a')).toBe('waiting');
    // Retried by someone else meanwhile: skipped, not an error.
    expect(await repository.retry('upload-cleanup', ['a'])).toEqual([]);
    await repository.close();
    await queue.close();
  });
});

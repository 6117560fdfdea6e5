/**
 * A media step is its descriptor: a throw-away optional step added in memory (no file of the
 * registry touched) runs in a version's flow, is told on the live feed with its own label, is
 * listed by /health and the ffmpeg check, fails without failing the version, and is retried on
 * its own. The real steps run beside it on a real file (PostgreSQL, Redis, ffmpeg).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnrecoverableError, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineMediaStep } from '../src/music/jobs/media-step.js';
import { MEDIA_STEPS, requiredFfmpeg } from '../src/music/jobs/media-steps.js';
import { DEFAULT_CONCURRENCY } from '../src/music/jobs/registry.js';
import {
  QUEUE_NAMES,
  versionJobId,
  type MediaJobData,
  type MediaQueueName,
} from '../src/music/jobs/queues.js';
import { RedisEventStream } from '../src/music/repositories/event-stream-repository.js';
import { FfmpegRunner } from '../src/music/repositories/ffmpeg-runner.js';
import { BullJobQueueRepository } from '../src/music/repositories/job-queue-repository.js';
import { PrismaTrackOwners } from '../src/music/repositories/track-owner-repository.js';
import { BullVersionFlowStarter } from '../src/music/repositories/version-flow.js';
import { PrismaVersionProcessingRepository } from '../src/music/repositories/version-processing-repository.js';
import { buildWorkerApp } from '../src/music/worker-app.js';
import { createWorkerMetrics } from '../src/music/worker-metrics.js';
import type { ProcessorRegistry } from '../workers/music/job-processor.js';
import { announcingVersions, VersionEvents } from '../workers/music/live-steps.js';
import { runMediaJob } from '../workers/music/media-job.js';
import { OriginalCache } from '../workers/music/original-cache.js';
import { createProcessors } from '../workers/music/registry.js';
import { checkFfmpeg } from '../workers/music/startup-check.js';
import { failVersionOfJob } from '../workers/music/version-failure.js';
import { WorkerPool } from '../workers/music/worker-pool.js';
import { LiveClient, type LiveMessage } from './helpers/live-client.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';
import { generateAudio } from './helpers/music-worker.js';

const scratch = defineMediaStep({
  queue: `spectrogram-${randomUUID().slice(0, 6)}`,
  reads: 'audio',
  step: 'spectrogram',
  label: 'Spectrogram (scratch)',
  ffmpeg: { encoders: ['png'], filters: ['showspectrumpic'], muxers: ['image2'] },
  writes: [],
  required: false,
  concurrency: 1,
  bareCommands: () => [],
});
const steps = [...MEDIA_STEPS, scratch];
const scratchQueue = scratch.queue as unknown as MediaQueueName;

describe('a throw-away media step, from its descriptor alone', () => {
  let t: MusicTestApp;
  let bull: Redis;
  let pool: WorkerPool;
  let queues: BullJobQueueRepository;
  let starter: BullVersionFlowStarter;
  let owner: TestUser;
  let watcher: LiveClient;
  let dir: string;
  let runs = 0;

  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    dir = await mkdtemp(join(tmpdir(), 'scratch-step-'));
    bull = new Redis(t.config.cacheUrl, { maxRetriesPerRequest: null });
    const naming = { prefix: t.config.queuePrefix };
    queues = new BullJobQueueRepository(bull, naming, [...QUEUE_NAMES, scratchQueue]);
    starter = new BullVersionFlowStarter(bull, naming, steps);
    const feed = new RedisEventStream(t.connections.redis, t.config.cacheUrl, {
      prefix: t.config.cacheKeyPrefix,
      window: t.config.liveEvents.resumeWindow,
    });
    const events = new VersionEvents(feed, new PrismaTrackOwners(t.connections.prisma), undefined, steps);
    const versions = announcingVersions(new PrismaVersionProcessingRepository(t.connections.prisma), events);
    const runner = new FfmpegRunner();
    const log = pino({ level: 'silent' });
    const deps = {
      stores: t.connections.stores,
      versions,
      runner,
      originals: new OriginalCache({
        dir: join(dir, 'originals'),
        store: t.connections.stores.originals,
        runner,
        maxBytes: 1e9,
      }),
      maintenance: {
        rollupAnalytics: () => Promise.reject(new Error('not consumed here')),
        cleanupUploads: () => Promise.reject(new Error('not consumed here')),
      },
      payments: { process: () => Promise.reject(new Error('not consumed here')) },
      library: { run: () => Promise.reject(new Error('not consumed here')) },
      mail: { transport: undefined, from: 'x@example.org', publicUrl: 'http://localhost' },
      tmpDir: dir,
      log,
      events,
      steps,
    };
    // The scratch processor: its first run fails for good, a retry succeeds.
    const processors = {
      ...createProcessors(deps),
      [scratch.queue]: (job: Job<MediaJobData>, token: string | undefined, signal: AbortSignal | undefined) =>
        runMediaJob(deps, job, token, signal, () => {
          runs += 1;
          if (runs === 1) throw new UnrecoverableError('no spectrogram on the first run');
          return Promise.resolve({ drawn: true });
        }),
    } as ProcessorRegistry;
    pool = new WorkerPool({
      connection: bull,
      prefix: naming.prefix,
      processors,
      queues: [...MEDIA_STEPS.map((s) => s.queue), 'version-finalize', scratchQueue],
      concurrency: { ...DEFAULT_CONCURRENCY, [scratch.queue]: scratch.concurrency },
      lockMs: 30_000,
      stalledIntervalMs: 30_000,
      metrics: createWorkerMetrics(() => queues.counts()),
      log,
      onFailed: async (queue, job, err) => {
        await failVersionOfJob(versions, queue, job, err, steps);
      },
    });
    pool.start();
    owner = await signupUser(t.app, 'scratch');
    const port = (t.app.server.address() as AddressInfo).port;
    watcher = await LiveClient.connect(`ws://127.0.0.1:${port}/api/v1/events`, { token: owner.token });
  }, 120_000);

  afterAll(async () => {
    await watcher?.close();
    await pool?.close(5_000);
    await starter?.close();
    await queues?.close();
    bull?.disconnect();
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('needs its ffmpeg capabilities at start-up', async () => {
    expect(requiredFfmpeg(steps).filters).toContain('showspectrumpic');
    expect(await checkFfmpeg(new FfmpegRunner(), steps)).toBeUndefined();
    const impossible = [
      ...steps,
      { ...scratch, ffmpeg: { encoders: [], filters: ['no_such_filter'], muxers: [] } },
    ];
    expect(await checkFfmpeg(new FfmpegRunner(), impossible)).toMatch(/ffmpeg lacks filter no_such_filter/);
  });

  it(
    'runs in the flow, fails alone, and the version is ready and playable',
    { timeout: 180_000 },
    async () => {
      const file = join(dir, 'song.flac');
      await generateAudio(file, { seconds: 3, codec: 'flac' });
      const sourceKey = `scratch/${randomUUID()}.flac`;
      await t.connections.stores.originals.put(sourceKey, await readFile(file));
      const prisma = t.connections.prisma;
      const track = await prisma.track.create({ data: { title: 'Scratch', ownerUserId: owner.id } });
      const asset = await prisma.asset.create({
        data: {
          ownerUserId: owner.id,
          objectKey: sourceKey,
          filename: 'song.flac',
          contentType: 'audio/flac',
          size: 1n,
          status: 'uploaded',
        },
      });
      const version = await prisma.trackVersion.create({
        data: { trackId: track.id, number: 1, assetId: asset.id },
      });
      const mine = (m: LiveMessage): boolean => m.data?.version_id === version.id;
      const failedStep = watcher.next(
        (m) =>
          mine(m) &&
          m.type === 'version.step' &&
          m.data?.step === 'spectrogram' &&
          m.data.status === 'failed',
      );
      const ready = watcher.next(
        (m) => mine(m) && (m.type === 'version.ready' || m.type === 'version.failed'),
      );
      await starter.start({ versionId: version.id, trackId: track.id, assetId: asset.id, sourceKey });

      expect((await ready).type).toBe('version.ready');
      expect((await failedStep).data).toMatchObject({
        label: 'Spectrogram (scratch)',
        required: false,
        reason: `${scratch.queue}: no spectrogram on the first run`,
      });
      const row = await prisma.trackVersion.findUniqueOrThrow({ where: { id: version.id } });
      expect(row).toMatchObject({ status: 'ready', error: null });
      expect(row.hlsKey).not.toBeNull();
      // Every real step was told with its descriptor's label, and is required.
      const told = watcher
        .events()
        .filter((m) => mine(m) && m.type === 'version.step' && m.data?.status === 'done');
      for (const s of MEDIA_STEPS.filter((s) => s.reads === 'audio'))
        expect(told.find((m) => m.data?.step === s.step)?.data).toMatchObject({
          label: s.label,
          required: true,
        });

      // /health lists the step's queue with its failed job, marked optional; one failure is healthy.
      const app = buildWorkerApp({
        logLevel: 'silent',
        nodeEnv: 'test',
        queues,
        metrics: createWorkerMetrics(() => queues.counts()),
        metricsScrapers: [],
        domain: 'localhost',
        steps,
      });
      const health = await app.inject({ method: 'GET', url: '/health' });
      await app.close();
      expect(health.statusCode).toBe(200);
      expect(health.json<{ queues: Record<string, unknown> }>().queues[scratch.queue]).toEqual({
        waiting: 0,
        active: 0,
        failed: 1,
        step: 'spectrogram',
        required: false,
      });

      // Retried on its own: the job runs again, the version stays ready throughout.
      const done = watcher.next((m) => mine(m) && m.data?.step === 'spectrogram' && m.data.status === 'done');
      expect(await queues.retry(scratchQueue, [versionJobId(scratchQueue, version.id)])).toHaveLength(1);
      expect((await done).data).toMatchObject({ label: 'Spectrogram (scratch)', required: false });
      expect(await prisma.trackVersion.findUniqueOrThrow({ where: { id: version.id } })).toMatchObject({
        status: 'ready',
      });
    },
  );
});

/**
 * Entry of the `music-worker` process: configuration, connections, the ffmpeg check, one
 * BullMQ worker per queue, the repeatable jobs, GET /health and /metrics on WORKER_PORT, and a
 * graceful SIGTERM (stop taking jobs, finish or hand back the running ones, exit 0).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { ConfigError } from '../core/env.js';
import { installGracefulShutdown } from '../core/shutdown.js';
import { loadMusicConfig } from '../music/config.js';
import { REPEATABLE_JOB_OPTIONS, REPEATABLE_JOBS } from '../music/jobs/schedule.js';
import { FfmpegRunner } from '../music/repositories/ffmpeg-runner.js';
import { BullJobQueueRepository } from '../music/repositories/job-queue-repository.js';
import { housekeepingTasks } from '../music/housekeeping.js';
import { createLibraryImporter } from '../music/library-wiring.js';
import { ensureObjectStores } from '../music/repositories/object-store/index.js';
import { PrismaVersionProcessingRepository } from '../music/repositories/version-processing-repository.js';
import { PrismaPaymentEventRepository } from '../music/repositories/payment-event-repository.js';
import { PaymentEventProcessor } from '../music/services/payment-events.js';
import { StripeGateway } from '../music/repositories/stripe-gateway.js';
import { SmtpMailTransport } from '../music/repositories/smtp-transport.js';
import { createMusicConnections } from '../music/repositories/connections.js';
import { buildWorkerApp } from '../music/worker-app.js';
import { loadWorkerConfig } from '../music/worker-config.js';
import { createWorkerMetrics } from '../music/worker-metrics.js';
import { createProcessors } from '../../workers/music/registry.js';
import { checkFfmpeg } from '../../workers/music/startup-check.js';
import { OriginalCache } from '../../workers/music/original-cache.js';
import { failVersionOfJob } from '../../workers/music/version-failure.js';
import { WorkerPool } from '../../workers/music/worker-pool.js';
import { announcingVersions, VersionEvents } from '../../workers/music/live-steps.js';
import { RedisEventStream } from '../music/repositories/event-stream-repository.js';
import { PrismaTrackOwners } from '../music/repositories/track-owner-repository.js';

function configs() {
  try {
    return { music: loadMusicConfig(process.env), worker: loadWorkerConfig(process.env) };
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`music-worker: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

/**
 * Prisma loads its query compiler (WebAssembly) on the first query: CPU that would otherwise
 * land inside the first job (docs/media-pipeline.md, "Process, health, metrics, shutdown"). A
 * database that is down now is not fatal here: jobs retry, and health reports the queues.
 */
async function warmUp(versions: PrismaVersionProcessingRepository, log: FastifyBaseLogger): Promise<void> {
  try {
    await versions.find(NIL_UUID);
  } catch (err) {
    log.warn({ err: (err as Error).message }, 'database not reachable at start-up; jobs will retry');
  }
}

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

async function main(): Promise<void> {
  const { music, worker } = configs();
  const runner = new FfmpegRunner({ niceness: music.ffmpegNiceness });
  // The check runs at normal priority: on a busy machine a niced `ffprobe -version` can starve.
  const problem = await checkFfmpeg(new FfmpegRunner());
  if (problem) {
    process.stderr.write(`music-worker: ${problem}\n`);
    process.exit(3);
  }
  const resources = createMusicConnections(music);
  await ensureObjectStores(resources.stores);
  const bull = new Redis(music.cacheUrl, { maxRetriesPerRequest: null });
  bull.on('error', () => undefined);
  const naming = { prefix: music.queuePrefix };
  const queues = new BullJobQueueRepository(bull, naming);
  const metrics = createWorkerMetrics(() => queues.counts());
  const app = buildWorkerApp({
    logLevel: music.logLevel,
    nodeEnv: music.nodeEnv,
    queues,
    metrics,
    metricsScrapers: music.metricsScrapers,
    domain: music.domain,
  });
  const tmpDir = await mkdtemp(join(tmpdir(), 'music-worker-'));
  const liveFeed = new RedisEventStream(resources.redis, music.cacheUrl, {
    prefix: music.cacheKeyPrefix,
    window: music.liveEvents.resumeWindow,
  });
  const events = new VersionEvents(liveFeed, new PrismaTrackOwners(resources.prisma), (err) =>
    app.log.warn({ err: err.message }, 'live event not published'),
  );
  const prismaVersions = new PrismaVersionProcessingRepository(resources.prisma);
  const versions = announcingVersions(prismaVersions, events);
  const library = createLibraryImporter(music, resources);
  const mailTransport = music.smtp ? new SmtpMailTransport(music.smtp) : undefined;
  if (!mailTransport) app.log.info('mail: SMTP_HOST is not set; mail jobs fail with that reason');
  const pool = new WorkerPool({
    connection: bull,
    prefix: naming.prefix,
    processors: createProcessors({
      stores: resources.stores,
      versions,
      runner,
      originals: new OriginalCache({
        dir: join(tmpDir, 'originals'),
        store: resources.stores.originals,
        runner,
        maxBytes: worker.originalCacheBytes,
      }),
      maintenance: housekeepingTasks(music, resources),
      payments: new PaymentEventProcessor(new PrismaPaymentEventRepository(resources.prisma), liveFeed, {
        onPublishError: (err) => app.log.warn({ err: err.message }, 'live event not published'),
        // A sale paid twice is refunded through the provider (docs/payments.md).
        ...(music.payment
          ? {
              refunds: new StripeGateway({
                secretKey: music.payment.secretKey,
                webhookSecret: music.payment.webhookSecret,
              }),
            }
          : {}),
      }),
      mail: { transport: mailTransport, from: music.mail.from, publicUrl: music.mail.publicUrl },
      tmpDir,
      log: app.log,
      events,
      library: library.importer,
      importPaused: async (id) => (await library.library.findImport(id))?.status === 'paused',
    }),
    concurrency: worker.concurrency,
    lockMs: worker.lockMs,
    stalledIntervalMs: worker.stalledIntervalMs,
    metrics,
    log: app.log,
    onFailed: async (queue, job, err) => {
      const reason = await failVersionOfJob(versions, queue, job, err);
      if (reason) app.log.warn({ queue, jobId: job.id, reason }, 'version failed');
    },
  });

  installGracefulShutdown({
    app,
    closers: [
      () => pool.close(worker.shutdownMs),
      () => queues.close(),
      () => Promise.resolve(mailTransport?.close()),
      () => library.close(),
      () => bull.quit().then(() => undefined),
      () => resources.close(),
      () => rm(tmpDir, { recursive: true, force: true }),
    ],
    logger: app.log,
    // Running jobs get `shutdownMs`; closing connections afterwards gets a few seconds more.
    timeoutMs: worker.shutdownMs + 10_000,
  });

  if (worker.schedules) {
    for (const r of REPEATABLE_JOBS) {
      const queue = new Queue(r.queue, { connection: bull, prefix: naming.prefix });
      await queue.upsertJobScheduler(
        r.schedulerId,
        { every: r.everyMs },
        { name: r.queue, data: {}, opts: REPEATABLE_JOB_OPTIONS },
      );
      await queue.close();
    }
  }
  await warmUp(prismaVersions, app.log);
  pool.start();
  await app.listen({ port: worker.port, host: worker.host });
  const address = app.server.address();
  app.log.info(
    {
      port: typeof address === 'object' && address ? address.port : worker.port,
      concurrency: worker.concurrency,
      prefix: naming.prefix,
    },
    'music-worker listening (GET /health, /metrics)',
  );
}

await main();

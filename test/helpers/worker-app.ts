/**
 * The music worker's HTTP app (/health, /metrics) as src/main/music-worker.ts builds it, over
 * real Redis queues under a BullMQ prefix of its own.
 */
import { Redis } from 'ioredis';
import { BullJobQueueRepository } from '../../src/music/repositories/job-queue-repository.js';
import { buildWorkerApp } from '../../src/music/worker-app.js';
import { createWorkerMetrics } from '../../src/music/worker-metrics.js';
import { testQueuePrefix } from './music-env.js';

export interface WorkerTestApp {
  app: ReturnType<typeof buildWorkerApp>;
  /** The Redis connection the queues use (a test adds jobs and workers on it). */
  bull: Redis;
  /** The BullMQ prefix of this app's queues. */
  prefix: string;
  close(): Promise<void>;
}

export async function createWorkerTestApp(options: {
  domain: string;
  metricsScrapers: readonly string[];
}): Promise<WorkerTestApp> {
  const prefix = testQueuePrefix();
  const bull = new Redis(process.env.TEST_CACHE_URL ?? 'redis://127.0.0.1:6379', {
    maxRetriesPerRequest: null,
  });
  const queues = new BullJobQueueRepository(bull, { prefix });
  const app = buildWorkerApp({
    logLevel: 'silent',
    nodeEnv: 'test',
    queues,
    metrics: createWorkerMetrics(() => queues.counts()),
    ...options,
  });
  await app.ready();
  return {
    app,
    bull,
    prefix,
    close: async () => {
      await app.close();
      await queues.close();
      bull.disconnect();
    },
  };
}

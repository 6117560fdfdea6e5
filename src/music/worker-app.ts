/** The music-worker's HTTP side: GET /health and GET /metrics on WORKER_PORT, nothing else. */
import type { FastifyInstance } from 'fastify';
import { buildBaseApp } from '../core/app.js';
import { loggerOptions } from '../core/logger.js';
import { registerMetricsRoute } from '../core/metrics.js';
import type { JobQueueRepository } from './repositories/job-queue-repository.js';
import { registerWorkerHealthRoute } from './routes/worker-health.js';
import type { WorkerMetrics } from './worker-metrics.js';

export function buildWorkerApp(options: {
  logLevel: string;
  queues: JobQueueRepository;
  metrics: WorkerMetrics;
}): FastifyInstance {
  const app = buildBaseApp({
    logger: loggerOptions(options.logLevel, 'music-worker'),
    bodyLimit: 1024,
    metrics: options.metrics,
  });
  registerWorkerHealthRoute(app, options.queues);
  registerMetricsRoute(app, options.metrics.registry);
  return app;
}

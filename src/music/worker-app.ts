/**
 * The music-worker's HTTP side: GET /health and GET /metrics (configured scrapers only) on
 * WORKER_PORT (loopback by default), nothing else, with the api's security headers.
 */
import type { FastifyInstance } from 'fastify';
import { buildBaseApp } from '../core/app.js';
import { loggerOptions } from '../core/logger.js';
import { registerMetricsRoute } from '../core/metrics.js';
import { MetricsScrapers } from '../core/metrics-access.js';
import { registerSecurityHeaders, securityHeaders } from '../core/security-headers.js';
import type { MediaStep } from './jobs/media-step.js';
import type { JobQueueRepository } from './repositories/job-queue-repository.js';
import { registerWorkerHealthRoute } from './routes/worker-health.js';
import type { WorkerMetrics } from './worker-metrics.js';

export function buildWorkerApp(options: {
  logLevel: string;
  nodeEnv: string;
  queues: JobQueueRepository;
  metrics: WorkerMetrics;
  /** METRICS_SCRAPERS: who may read /metrics. */
  metricsScrapers: readonly string[];
  /** DOMAIN: the security headers name it (CSP connect-src). */
  domain: string;
  /** The media steps (jobs/media-steps.ts) unless a test adds one. */
  steps?: readonly MediaStep[];
}): FastifyInstance {
  const app = buildBaseApp({
    logger: loggerOptions(options.logLevel, 'music-worker', options.nodeEnv),
    bodyLimit: 1024,
    metrics: options.metrics,
    edgeHeaders: securityHeaders(options.domain),
  });
  // The same headers as every answer of the api, errors included.
  registerSecurityHeaders(app, options.domain);
  registerWorkerHealthRoute(app, options.queues, options.steps);
  registerMetricsRoute(app, options.metrics.registry, new MetricsScrapers(options.metricsScrapers));
  return app;
}

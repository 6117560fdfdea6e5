/**
 * Prometheus metrics (prom-client). Each app gets its own registry so two apps in one
 * process (tests) never share counters. `route` is the route template, never the raw URL,
 * so label cardinality stays bounded.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { MetricsScrapers } from './metrics-access.js';

export const DURATION_BUCKETS = [0.1, 0.5, 1, 2, 5];

export interface HttpMetrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  duration: Histogram<'method' | 'route'>;
}

export function createHttpMetrics(options: { defaultMetrics?: boolean } = {}): HttpMetrics {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) {
    collectDefaultMetrics({ register: registry });
    // prom-client names these gauges *_total, which `promtool check metrics` rejects
    // (a _total suffix is reserved for counters); the handle and request counts stay
    // visible through the event-loop and heap metrics that remain.
    for (const name of [
      'nodejs_active_handles_total',
      'nodejs_active_requests_total',
      'nodejs_active_resources_total',
    ]) {
      registry.removeSingleMetric(name);
    }
  }
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration in seconds, by method and route template.',
    labelNames: ['method', 'route'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  return { registry, requests, duration };
}

/** The label for requests that matched no route: one value, not one per probed URL. */
export const UNMATCHED_ROUTE = 'unmatched';

export function routeLabel(request: FastifyRequest): string {
  return request.routeOptions.url ?? UNMATCHED_ROUTE;
}

export function registerHttpMetricsHooks(app: FastifyInstance, metrics: HttpMetrics): void {
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done) => {
    const route = routeLabel(request);
    metrics.requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    metrics.duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    done();
  });
}

/** GET /metrics; with `scrapers`, only they are answered (metrics-access.ts). */
export function registerMetricsRoute(
  app: FastifyInstance,
  registry: Registry,
  scrapers?: MetricsScrapers,
): void {
  if (scrapers) app.addHook('onReady', () => scrapers.resolve());
  app.get('/metrics', async (request, reply) => {
    scrapers?.assertScraper(request);
    const text = await registry.metrics();
    return reply.type(registry.contentType).send(text);
  });
}

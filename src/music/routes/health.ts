/** GET /api/v1/health (full report) and /api/v1/health/ready (readiness probe). */
import type { FastifyInstance } from 'fastify';
import { checkHealth, type NamedProbe } from '../services/health-service.js';

export function registerHealthRoutes(app: FastifyInstance, probes: readonly NamedProbe[]): void {
  app.get('/api/v1/health', async (_request, reply) => {
    const report = await checkHealth(probes, new Date());
    return reply
      .code(report.status === 'healthy' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(report);
  });

  app.get('/api/v1/health/ready', async (_request, reply) => {
    const report = await checkHealth(probes, new Date());
    const ready = report.status === 'healthy';
    return reply
      .code(ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: ready ? 'ready' : 'not_ready', checks: report.checks, timestamp: report.timestamp });
  });
}

/** GET /health of the music-worker: queue counts; 503 above 100 failed jobs or without Redis. */
import type { FastifyInstance } from 'fastify';
import type { MediaStep } from '../jobs/media-step.js';
import type { JobQueueRepository } from '../repositories/job-queue-repository.js';
import { workerHealth } from '../services/worker-health.js';

export function registerWorkerHealthRoute(
  app: FastifyInstance,
  queues: JobQueueRepository,
  steps?: readonly MediaStep[],
): void {
  app.get('/health', async (request, reply) => {
    let health;
    try {
      health = workerHealth(await queues.counts(), steps);
    } catch (err) {
      request.log.warn({ err }, 'queue counts unavailable');
      return reply
        .code(503)
        .header('retry-after', '5')
        .header('cache-control', 'no-store')
        .send({ status: 'unhealthy', error: 'the job queues (Redis) cannot be read' });
    }
    return reply
      .code(health.status === 'healthy' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(health);
  });
}

/** The worker's health: queue counts and the seed's rule (unhealthy above 100 failed jobs in all). */
import type { QueueName } from '../jobs/queues.js';
import type { QueueCounts } from '../repositories/job-queue-repository.js';

export const MAX_FAILED_JOBS = 100;

export interface WorkerHealth {
  status: 'healthy' | 'unhealthy';
  queues: Record<QueueName, { waiting: number; active: number; failed: number }>;
}

export function workerHealth(counts: Record<QueueName, QueueCounts>): WorkerHealth {
  let failed = 0;
  const queues = {} as WorkerHealth['queues'];
  for (const [name, c] of Object.entries(counts) as [QueueName, QueueCounts][]) {
    queues[name] = { waiting: c.waiting, active: c.active, failed: c.failed };
    failed += c.failed;
  }
  return { status: failed > MAX_FAILED_JOBS ? 'unhealthy' : 'healthy', queues };
}

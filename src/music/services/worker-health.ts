/**
 * The worker's health: queue counts and the seed's rule (unhealthy above 100 failed jobs in all);
 * a media step's queue also says which step it is and whether a version waits for it.
 */
import type { MediaStep } from '../jobs/media-step.js';
import { MEDIA_STEPS, mediaStepOf } from '../jobs/media-steps.js';
import type { QueueName } from '../jobs/queues.js';
import type { QueueCounts } from '../repositories/job-queue-repository.js';

export const MAX_FAILED_JOBS = 100;

export interface WorkerHealth {
  status: 'healthy' | 'unhealthy';
  queues: Record<
    QueueName,
    { waiting: number; active: number; failed: number; step?: string; required?: boolean }
  >;
}

export function workerHealth(
  counts: Record<QueueName, QueueCounts>,
  steps: readonly MediaStep[] = MEDIA_STEPS,
): WorkerHealth {
  let failed = 0;
  const queues = {} as WorkerHealth['queues'];
  for (const [name, c] of Object.entries(counts) as [QueueName, QueueCounts][]) {
    const step = mediaStepOf(name, steps);
    queues[name] = {
      waiting: c.waiting,
      active: c.active,
      failed: c.failed,
      ...(step ? { step: step.step, required: step.required } : {}),
    };
    failed += c.failed;
  }
  return { status: failed > MAX_FAILED_JOBS ? 'unhealthy' : 'healthy', queues };
}

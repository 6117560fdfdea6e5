/**
 * The music-worker's Prometheus metrics beside the HTTP ones: per-queue job gauges (read from
 * Redis at scrape time, so every worker reports the same shared queues) and job durations.
 */
import { Gauge, Histogram } from 'prom-client';
import { createHttpMetrics, type HttpMetrics } from '../core/metrics.js';
import type { QueueName } from './jobs/queues.js';
import type { QueueCounts } from './repositories/job-queue-repository.js';

/** Media jobs take seconds to minutes; a 3-hour file can take a quarter of an hour. */
export const JOB_DURATION_BUCKETS = [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900];

export interface WorkerMetrics extends HttpMetrics {
  jobDuration: Histogram<'queue' | 'outcome'>;
}

export function createWorkerMetrics(counts: () => Promise<Record<QueueName, QueueCounts>>): WorkerMetrics {
  const http = createHttpMetrics();
  const states = ['waiting', 'active', 'failed', 'completed'] as const;
  new Gauge({
    name: 'music_queue_jobs',
    help: 'Jobs in each BullMQ queue, by state (waiting includes delayed retries).',
    labelNames: ['queue', 'state'] as const,
    registers: [http.registry],
    async collect() {
      const all = await counts();
      this.reset();
      for (const [queue, c] of Object.entries(all)) {
        for (const state of states) this.set({ queue, state }, c[state]);
      }
    },
  });
  const jobDuration = new Histogram({
    name: 'music_job_duration_seconds',
    help: 'Time a job spent in its processor, by queue and outcome (completed, failed, requeued).',
    labelNames: ['queue', 'outcome'] as const,
    buckets: JOB_DURATION_BUCKETS,
    registers: [http.registry],
  });
  return { ...http, jobDuration };
}

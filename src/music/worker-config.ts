/**
 * Settings of the music-worker process beside the shared music configuration: its health
 * port, per-queue concurrency, stall detection and shutdown bound. Read once, validated, frozen.
 */
import { Type } from 'typebox';
import { ConfigError, parseEnv } from '../core/env.js';
import { DEFAULT_CONCURRENCY } from './jobs/registry.js';
import { QUEUE_NAMES, type QueueName } from './jobs/queues.js';

export const WorkerEnvSchema = Type.Object({
  WORKER_HOST: Type.String({
    default: '127.0.0.1',
    description:
      'listen address of GET /health and /metrics (loopback by default; 0.0.0.0 for a scrape network)',
  }),
  WORKER_PORT: Type.Integer({ default: 8082, minimum: 0, maximum: 65535 }),
  WORKER_CONCURRENCY: Type.String({
    default: '',
    description: 'per-queue parallel jobs, e.g. "transcode=2,loudness=1"',
  }),
  WORKER_LOCK_MS: Type.Integer({
    default: 30_000,
    minimum: 1_000,
    maximum: 600_000,
    description: 'job lock duration in ms: a worker silent this long has its jobs taken back',
  }),
  WORKER_STALLED_INTERVAL_MS: Type.Integer({ default: 30_000, minimum: 1_000, maximum: 600_000 }),
  WORKER_SHUTDOWN_MS: Type.Integer({
    default: 25_000,
    minimum: 1_000,
    maximum: 600_000,
    description: 'on SIGTERM, how long running jobs may finish before they are handed back',
  }),
  WORKER_ORIGINAL_CACHE_MB: Type.Integer({
    default: 1024,
    minimum: 0,
    maximum: 1_000_000,
    description:
      'local copies of originals kept for the other jobs of a version (MB; in-use copies always stay)',
  }),
  WORKER_SCHEDULES: Type.Union([Type.Literal('on'), Type.Literal('off')], {
    default: 'on',
    description: 'on or off: register the repeatable analytics-rollup and upload-cleanup jobs',
  }),
});

export interface WorkerConfig {
  host: string;
  port: number;
  concurrency: Readonly<Record<QueueName, number>>;
  lockMs: number;
  stalledIntervalMs: number;
  shutdownMs: number;
  originalCacheBytes: number;
  schedules: boolean;
}

/** "transcode=2, loudness=1" over the defaults; names and numbers are checked. */
export function parseConcurrency(text: string): Record<QueueName, number> {
  const result: Record<QueueName, number> = { ...DEFAULT_CONCURRENCY };
  const problems: string[] = [];
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([a-z-]+)=([0-9]{1,3})$/.exec(part);
    const name = m?.[1] as QueueName | undefined;
    const n = Number(m?.[2]);
    if (!name || !(QUEUE_NAMES as readonly string[]).includes(name) || n < 1 || n > 64) {
      problems.push(
        `WORKER_CONCURRENCY (got ${JSON.stringify(part)}): each entry is queue=N with N from 1 to 64 and queue one of ${QUEUE_NAMES.join(', ')}`,
      );
      continue;
    }
    result[name] = n;
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return result;
}

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): Readonly<WorkerConfig> {
  const e = parseEnv(WorkerEnvSchema, env);
  return Object.freeze({
    host: e.WORKER_HOST,
    port: e.WORKER_PORT,
    concurrency: Object.freeze(parseConcurrency(e.WORKER_CONCURRENCY)),
    lockMs: e.WORKER_LOCK_MS,
    stalledIntervalMs: e.WORKER_STALLED_INTERVAL_MS,
    shutdownMs: e.WORKER_SHUTDOWN_MS,
    originalCacheBytes: e.WORKER_ORIGINAL_CACHE_MB * 1024 * 1024,
    schedules: e.WORKER_SCHEDULES === 'on',
  });
}

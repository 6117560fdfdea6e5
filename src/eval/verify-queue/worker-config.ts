/** Configuration of the `verify-worker` process, read once at start-up. */
import os from 'node:os';
import { Type } from 'typebox';
import { parseEnv } from '../../core/env.js';

export const VerifyWorkerEnv = Type.Object({
  NODE_ENV: Type.String({ default: 'development', description: 'development, test or production' }),
  CACHE_URL: Type.String({
    pattern: '^rediss?://',
    default: 'redis://127.0.0.1:6379',
    description: 'Redis URL holding the verify queue',
  }),
  VERIFY_QUEUE_PREFIX: Type.String({
    default: 'bull',
    pattern: '^[A-Za-z0-9_-]{1,64}$',
    description: 'BullMQ key prefix of the verify queue (the same as eval)',
  }),
  VERIFY_WORKER_THREADS: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 256, description: 'verifier threads, and jobs taken at once' }),
  ),
  GRAPH_KERNEL: Type.Union([Type.Literal('auto'), Type.Literal('native'), Type.Literal('ts')], {
    default: 'auto',
    description: 'graph kernel: auto (native when built), native (required), ts',
  }),
  EVAL_TASK_TIMEOUT_MS: Type.Integer({
    minimum: 1,
    default: 60000,
    description: 'deadline of one verification on a thread',
  }),
  VERIFY_LOCK_MS: Type.Integer({
    minimum: 500,
    maximum: 600_000,
    default: 5_000,
    description: 'job lock in ms: a worker silent this long (killed) has its jobs retried elsewhere',
  }),
  VERIFY_STALLED_INTERVAL_MS: Type.Integer({
    minimum: 500,
    maximum: 600_000,
    default: 5_000,
    description: 'how often each worker looks for jobs of dead workers',
  }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    default: 10000,
    description: 'on SIGTERM, how long running jobs may finish before they are left to another worker',
  }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
});

export interface VerifyWorkerConfig {
  redisUrl: string;
  prefix: string;
  threads: number;
  graphKernel: 'auto' | 'native' | 'ts';
  taskTimeoutMs: number;
  lockMs: number;
  stalledIntervalMs: number;
  shutdownMs: number;
  nodeEnv: string;
  logLevel: string;
}

export function loadVerifyWorkerConfig(env: NodeJS.ProcessEnv = process.env): Readonly<VerifyWorkerConfig> {
  const e = parseEnv(VerifyWorkerEnv, env);
  return Object.freeze({
    redisUrl: e.CACHE_URL,
    prefix: e.VERIFY_QUEUE_PREFIX,
    threads: e.VERIFY_WORKER_THREADS ?? Math.max(1, os.availableParallelism()),
    graphKernel: e.GRAPH_KERNEL,
    taskTimeoutMs: e.EVAL_TASK_TIMEOUT_MS,
    lockMs: e.VERIFY_LOCK_MS,
    stalledIntervalMs: e.VERIFY_STALLED_INTERVAL_MS,
    shutdownMs: e.SHUTDOWN_TIMEOUT_MS,
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
  });
}

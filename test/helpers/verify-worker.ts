/** verify-worker processes and queue-mode eval apps sharing one test-unique verify queue. */
import type { FastifyInstance } from 'fastify';
import { makeEvalApp } from './eval-app.js';
import { startLoggedProcess, type LoggedProcess } from './logged-process.js';
import { testKeyPrefix, testQueuePrefix } from './music-env.js';

export const TEST_REDIS_URL = process.env.TEST_CACHE_URL ?? 'redis://127.0.0.1:6379';

export interface VerifyWorkerProcess extends LoggedProcess {
  /** The BullMQ worker id (prefix of its lock tokens). */
  workerId: string;
}

/** A fresh queue prefix; every worker and app of one test uses the same. */
export function verifyQueuePrefix(): string {
  return testQueuePrefix();
}

export async function startVerifyWorker(
  prefix: string,
  env: Record<string, string> = {},
): Promise<VerifyWorkerProcess> {
  const p = await startLoggedProcess(
    'verify-worker',
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      CACHE_URL: TEST_REDIS_URL,
      VERIFY_QUEUE_PREFIX: prefix,
      VERIFY_WORKER_THREADS: '1',
      ...env,
    },
    (line) => line.includes('verify-worker ready'),
  );
  return { ...p, workerId: (JSON.parse(p.readyLine) as { workerId: string }).workerId };
}

/** An eval app in queue mode on `prefix`; every tool request goes to the queue (no inline). */
export function makeQueueEvalApp(prefix: string, env: Record<string, string> = {}): Promise<FastifyInstance> {
  return makeEvalApp({
    VERIFY_MODE: 'queue',
    CACHE_URL: TEST_REDIS_URL,
    CACHE_KEY_PREFIX: testKeyPrefix(),
    VERIFY_QUEUE_PREFIX: prefix,
    EVAL_INLINE_MAX_BYTES: '0',
    EVAL_POOL_SIZE: '1',
    ...env,
  });
}

/**
 * VERIFY_MODE=queue with real verify-worker processes and a real Redis:
 * - every example's receipt is byte-identical to local mode's;
 * - SIGKILL of one worker during a burst of 200 counterexample requests: each is answered 200 or
 *   503 within the deadline, and the jobs the dead worker held are retried and completed;
 * - a full queue answers 503 with Retry-After before enqueueing; with no worker, waiting
 *   requests end in 503 at the deadline;
 * - /api/health reports the mode, the queue depth and the live workers;
 * - SIGTERM: the worker exits 0.
 */
import { Queue, QueueEvents } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../src/eval/registry.js';
import { examples } from '../src/eval/routes/info.js';
import { VERIFY_QUEUE } from '../src/eval/verify-queue/verify-job.js';
import { freePort } from './helpers/free-port.js';
import { makeEvalApp, postJson } from './helpers/eval-app.js';
import { stopLoggedProcess } from './helpers/logged-process.js';
import {
  makeQueueEvalApp,
  startVerifyWorker,
  TEST_REDIS_URL,
  verifyQueuePrefix,
  type VerifyWorkerProcess,
} from './helpers/verify-worker.js';

const DEADLINE_MS = 30_000;
// The worker to be killed holds short locks, so its jobs are soon seen as stalled.
const WORKER_ENV = {
  VERIFY_LOCK_MS: '2000',
  VERIFY_STALLED_INTERVAL_MS: '1000',
  EVAL_TASK_TIMEOUT_MS: '30000',
};

interface HealthBody {
  verify: { mode: string; depth: number; workers: number; max_depth: number };
}

describe('VERIFY_MODE=queue with verify-worker processes', () => {
  const prefix = verifyQueuePrefix();
  const workers: VerifyWorkerProcess[] = [];
  let queued: FastifyInstance;
  let local: FastifyInstance;
  let redis: Redis;
  let events: QueueEvents;

  beforeAll(async () => {
    workers.push(
      ...(await Promise.all([startVerifyWorker(prefix, WORKER_ENV), startVerifyWorker(prefix, WORKER_ENV)])),
    );
    queued = await makeQueueEvalApp(prefix, { EVAL_TASK_TIMEOUT_MS: String(DEADLINE_MS) });
    local = await makeEvalApp({ EVAL_INLINE_MAX_BYTES: '0' });
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    events = new QueueEvents(VERIFY_QUEUE, { connection: redis.duplicate(), prefix });
    await events.waitUntilReady();
  }, 60_000);

  afterAll(async () => {
    for (const w of workers) await stopLoggedProcess(w, 'SIGKILL');
    await events?.close();
    redis?.disconnect();
    await queued?.close();
    await local?.close();
  });

  it('health reports queue mode, depth and both live workers', async () => {
    const health = (await queued.inject({ method: 'GET', url: '/api/health' })).json<HealthBody>();
    expect(health.verify).toMatchObject({ mode: 'queue', depth: 0, workers: 2 });
    const localHealth = (await local.inject({ method: 'GET', url: '/api/health' })).json<HealthBody>();
    expect(localHealth.verify).toEqual({ mode: 'local' });
  });

  it('every example: the queued receipt is byte-identical to local mode', { timeout: 60_000 }, async () => {
    const all = examples().examples;
    for (const tool of TOOLS) {
      const body = JSON.stringify(all[tool.id]);
      const [a, b] = await Promise.all([postJson(local, tool.path, body), postJson(queued, tool.path, body)]);
      expect(a.statusCode, tool.id).toBe(200);
      expect(b.statusCode, tool.id).toBe(200);
      expect(b.rawPayload.equals(a.rawPayload), tool.id).toBe(true);
      expect(b.headers['x-receipt-status']).toBe(a.headers['x-receipt-status']);
    }
    // An input error crosses the queue as the same problem.
    const [a, b] = await Promise.all([
      postJson(local, '/api/counterexample', '{"ns": [8]'),
      postJson(queued, '/api/counterexample', '{"ns": [8]'),
    ]);
    expect(b.statusCode).toBe(a.statusCode);
    expect(b.body).toBe(a.body);
  });

  it(
    'SIGKILL of a worker mid-burst: 200 requests all answered 200 or 503 within the deadline; its jobs are retried',
    { timeout: 120_000 },
    async () => {
      const victim = workers[0]!;
      const completed = new Set<string>();
      const failed = new Set<string>();
      events.on('completed', ({ jobId }) => completed.add(jobId));
      events.on('failed', ({ jobId }) => failed.add(jobId));
      // Killed on the first job seen locked by the victim: the active list is polled (one round trip
      // each) rather than read from 'active' events, whose reader can lag a job of a millisecond or two.
      const activeKey = `${prefix}:${VERIFY_QUEUE}:active`;
      let bursting = true;
      const killed = (async (): Promise<boolean> => {
        while (bursting) {
          const ids = await redis.lrange(activeKey, 0, -1);
          const locks = ids.length
            ? await redis.mget(ids.map((id) => `${prefix}:${VERIFY_QUEUE}:${id}:lock`))
            : [];
          if (locks.some((token) => token?.startsWith(victim.workerId))) {
            victim.child.kill('SIGKILL');
            return true;
          }
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        return false;
      })();
      // A claim that holds: every job runs all its restarts and the exhaustive pass (~10 ms, not the
      // ~1 ms of the falsified example), so the victim surely holds locks while the burst lasts.
      const holds = { expression: 'is_tree => m == n - 1', restarts: 6, steps: 1500 };
      const burst = Array.from({ length: 200 }, async (_, i) => {
        const started = performance.now();
        const res = await postJson(queued, '/api/counterexample', { ...holds, seed: i });
        return {
          status: res.statusCode,
          ms: performance.now() - started,
          retryAfter: res.headers['retry-after'],
        };
      });
      const settled = Promise.all(burst).finally(() => (bursting = false));
      expect(await killed).toBe(true);
      expect(await victim.exited).toBe('SIGKILL');
      // The jobs the dead worker held: still active, locked by its token.
      const active = await new Queue(VERIFY_QUEUE, { connection: redis, prefix }).getActive();
      const tokens = await Promise.all(
        active.map((j) => redis.get(`${prefix}:${VERIFY_QUEUE}:${j.id}:lock`)),
      );
      const orphans = active.filter((_, i) => tokens[i]?.startsWith(victim.workerId)).map((j) => j.id!);
      expect(orphans.length).toBeGreaterThan(0);

      const results = await settled;
      for (const r of results) {
        expect([200, 503]).toContain(r.status);
        expect(r.ms).toBeLessThan(DEADLINE_MS + 2_000);
        if (r.status === 503) expect(r.retryAfter).toBeDefined();
      }
      // Retried elsewhere, and finished there: seen completing, or removed on completion while every
      // request got its receipt (this listener's event reader can miss a few under bullmq 6).
      const everyAnswered = results.every((r) => r.status === 200);
      const queue = new Queue(VERIFY_QUEUE, { connection: redis, prefix });
      for (const id of orphans) {
        expect(failed.has(id), id).toBe(false);
        const finished = completed.has(id) || (everyAnswered && (await queue.getJob(id)) === undefined);
        expect(finished, id).toBe(true);
      }
      expect(results.filter((r) => r.status === 200).length).toBeGreaterThan(0);
      workers.splice(workers.indexOf(victim), 1);
    },
  );

  it('SIGTERM: the worker finishes and exits 0', { timeout: 30_000 }, async () => {
    const w = await startVerifyWorker(prefix, WORKER_ENV);
    expect(await stopLoggedProcess(w, 'SIGTERM')).toBe(0);
  });
});

describe('VERIFY_MODE=queue back-pressure', () => {
  it('a full queue answers 503 with Retry-After; with no worker, waiting requests get 503 at the deadline', async () => {
    const prefix = verifyQueuePrefix();
    const app = await makeQueueEvalApp(prefix, { VERIFY_QUEUE_MAX_DEPTH: '3', EVAL_TASK_TIMEOUT_MS: '4000' });
    const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new Queue(VERIFY_QUEUE, { connection: redis, prefix });
    try {
      const body = examples().examples.gate;
      const started = performance.now();
      const held = [0, 1, 2].map(() => postJson(app, '/api/gate', body));
      // Polled (one round trip each) rather than counted from 'waiting' events, which bullmq 6's
      // event reader can miss, leaving the test waiting for ever.
      while ((await queue.getWaitingCount()) < 3) await new Promise<void>((resolve) => setImmediate(resolve));
      const health = (await app.inject({ method: 'GET', url: '/api/health' })).json<HealthBody>();
      expect(health.verify).toMatchObject({ mode: 'queue', depth: 3, workers: 0, max_depth: 3 });

      const refused = await postJson(app, '/api/gate', body);
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.headers['content-type']).toMatch(/problem\+json/);
      expect(await queue.getWaitingCount()).toBe(3);

      for (const res of await Promise.all(held)) {
        expect(res.statusCode).toBe(503);
        expect(res.headers['retry-after']).toMatch(/^\d+$/);
      }
      expect(performance.now() - started).toBeLessThan(4000 + 2000);
      // Withdrawn at the deadline: no worker will spend a thread on them later.
      expect(await queue.getWaitingCount()).toBe(0);
    } finally {
      await queue.close();
      redis.disconnect();
      await app.close();
    }
  });

  it('Redis away: eval starts, a queued request is 503 with Retry-After at once, health reports it', async () => {
    const port = await freePort();
    const app = await makeQueueEvalApp(verifyQueuePrefix(), { CACHE_URL: `redis://127.0.0.1:${port}` });
    try {
      const started = performance.now();
      const res = await postJson(app, '/api/gate', examples().examples.gate);
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(performance.now() - started).toBeLessThan(5_000);
      const health = await app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json<{ verify: object }>().verify).toMatchObject({
        mode: 'queue',
        error: expect.any(String),
      });
    } finally {
      await app.close();
    }
  });
});

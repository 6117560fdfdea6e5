/**
 * VERIFY_MODE=queue: the VerifierPool whose `run` puts each verification on the BullMQ `verify`
 * queue and awaits its outcome from the queue's event stream, within the task deadline. Other
 * task files (`runTask`, the report card) stay on this process's own threads.
 */
import { randomUUID } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { AppError } from '../../../core/errors.js';
import { createRedis } from '../../../core/repositories/redis.js';
import type { PooledOutcome, VerifierPool } from '../../speed/pool.js';
import {
  encodeJob,
  VERIFY_QUEUE,
  type VerifyJobData,
  type VerifyJobResult,
} from '../../verify-queue/verify-job.js';
import {
  queuedVerificationTimedOut,
  verifyJobFailed,
  verifyQueueFull,
  verifyQueueShuttingDown,
  verifyQueueUnreachable,
} from '../../errors.js';

export interface QueueVerifierPoolOptions {
  redisUrl: string;
  prefix: string;
  /** Waiting jobs at or above which `run` answers 503 without enqueueing. */
  maxDepth: number;
  /** Deadline of one task from submission, queueing and a retry after a dead worker included. */
  taskTimeoutMs: number;
  /** Runs `runTask` (report-card work) and is closed with this pool. */
  local: VerifierPool;
}

export interface VerifyQueueHealth {
  mode: 'queue';
  queue: string;
  /** Jobs waiting for a worker. */
  depth: number;
  /** Jobs a worker holds now. */
  active: number;
  max_depth: number;
  /** verify-worker connections BullMQ sees on the queue. */
  workers: number;
  /** Tasks this process is awaiting. */
  in_flight: number;
}

export interface QueueVerifierPool extends VerifierPool {
  health(): Promise<VerifyQueueHealth>;
}

interface Waiter {
  resolve: (outcome: PooledOutcome) => void;
  reject: (err: Error) => void;
}

/** Finished jobs leave Redis at once; the event stream keeps at most this many entries. */
const EVENTS_MAX_LEN = 2_000;
/** Longer than the HTTP services' 500 ms: an enqueue is a script call that a busy Redis may queue. */
const PRODUCER_TIMEOUT_MS = 2_000;

/**
 * A producer call within PRODUCER_TIMEOUT_MS, or 503: BullMQ waits for its connection to be
 * ready before sending, so while Redis is away a call would otherwise wait without end.
 */
async function reachable<T>(call: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const away = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(verifyQueueUnreachable()), PRODUCER_TIMEOUT_MS);
  });
  try {
    return await Promise.race([call, away]);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw verifyQueueUnreachable();
  } finally {
    clearTimeout(timer);
  }
}

export async function createQueueVerifierPool(options: QueueVerifierPoolOptions): Promise<QueueVerifierPool> {
  // Producer commands fail fast while Redis is away (a 503, not a hang); QueueEvents blocks on
  // XREAD and must not time out.
  const producer = createRedis(options.redisUrl, { commandTimeoutMs: PRODUCER_TIMEOUT_MS });
  const listener = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  listener.on('error', () => undefined);
  const queue = new Queue<VerifyJobData, VerifyJobResult>(VERIFY_QUEUE, {
    connection: producer,
    prefix: options.prefix,
    streams: { events: { maxLen: EVENTS_MAX_LEN } },
  });
  queue.on('error', () => undefined);
  // Read from the stream's current end, so no completion between start-up and the first XREAD
  // is missed ('$' would start at the first read). With Redis away at start-up, '$': eval
  // starts anyway and answers 503 until Redis is back.
  const eventsKey = `${options.prefix}:${VERIFY_QUEUE}:events`;
  const last = await producer.xrevrange(eventsKey, '+', '-', 'COUNT', 1).catch(() => undefined);
  const events = new QueueEvents(VERIFY_QUEUE, {
    connection: listener,
    prefix: options.prefix,
    lastEventId: last ? (last[0]?.[0] ?? '0-0') : '$',
  });
  events.on('error', () => undefined);
  if (last) await events.waitUntilReady();

  const waiters = new Map<string, Waiter>();
  events.on('completed', ({ jobId, returnvalue }) => {
    const waiter = waiters.get(jobId);
    if (waiter) waiter.resolve(returnvalue as VerifyJobResult);
  });
  events.on('failed', ({ jobId, failedReason }) => {
    const waiter = waiters.get(jobId);
    if (waiter) waiter.reject(verifyJobFailed(failedReason));
  });

  // One depth read at a time; requests arriving meanwhile share it, counting what they enqueue.
  let depthRead: Promise<number> | undefined;
  let enqueuedSinceRead = 0;
  async function admit(): Promise<void> {
    if (!depthRead) {
      enqueuedSinceRead = 0;
      depthRead = reachable(queue.getJobCountByTypes('wait')).finally(() => {
        depthRead = undefined;
      });
    }
    const depth = (await depthRead) + enqueuedSinceRead;
    if (depth >= options.maxDepth) {
      throw verifyQueueFull(depth);
    }
    enqueuedSinceRead++;
  }

  async function runQueued(toolId: string, bytes: Uint8Array): Promise<PooledOutcome> {
    const deadline = Date.now() + options.taskTimeoutMs;
    await admit();
    const jobId = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const settled = new Promise<PooledOutcome>((resolve, reject) => {
      waiters.set(jobId, { resolve, reject });
      timer = setTimeout(
        () => {
          reject(queuedVerificationTimedOut(toolId, options.taskTimeoutMs));
          // A job no worker has taken yet is withdrawn; a running one is skipped by nobody
          // waiting for it.
          queue.remove(jobId).catch(() => undefined);
        },
        Math.max(0, deadline - Date.now()),
      );
    });
    try {
      await reachable(
        queue.add(toolId, encodeJob(toolId, bytes, deadline), {
          jobId,
          attempts: 1,
          removeOnComplete: true,
          removeOnFail: true,
        }),
      );
      return await settled;
    } finally {
      clearTimeout(timer);
      waiters.delete(jobId);
    }
  }

  const inFlight = new Set<Promise<unknown>>();
  let closing: Promise<void> | undefined;
  return {
    get size() {
      return options.local.size;
    },
    run(toolId, bytes) {
      const running = runQueued(toolId, bytes);
      inFlight.add(running);
      void running.then(
        () => inFlight.delete(running),
        () => inFlight.delete(running),
      );
      return running;
    },
    runTask: (taskFile, task) => options.local.runTask(taskFile, task),
    stats: () => options.local.stats(),
    async health() {
      const [counts, workers] = await reachable(
        Promise.all([queue.getJobCounts('wait', 'active'), queue.getWorkersCount()]),
      );
      return {
        mode: 'queue',
        queue: VERIFY_QUEUE,
        depth: counts.wait ?? 0,
        active: counts.active ?? 0,
        max_depth: options.maxDepth,
        workers,
        in_flight: inFlight.size,
      };
    },
    async close(graceMs) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      const pending = inFlight.size;
      const [local] = await Promise.all([
        options.local.close(graceMs),
        Promise.race([Promise.allSettled([...inFlight]), grace]),
      ]);
      clearTimeout(timer);
      const cutOff = inFlight.size + local.cutOff;
      for (const waiter of waiters.values()) waiter.reject(verifyQueueShuttingDown());
      await shutdown();
      return { pending: pending + local.pending, cutOff };
    },
    async destroy() {
      await options.local.destroy();
      await shutdown();
    },
  };

  function shutdown(): Promise<void> {
    closing ??= (async () => {
      await reachable(events.close()).catch(() => undefined);
      await reachable(queue.close()).catch(() => undefined);
      await producer.quit().catch(() => producer.disconnect());
      listener.disconnect();
    })();
    return closing;
  }
}

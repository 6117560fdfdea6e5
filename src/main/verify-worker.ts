/**
 * Entry of the `verify-worker` process (VERIFY_MODE=queue): its own verifier thread pool, a
 * BullMQ consumer of the `verify` queue taking as many jobs at once as it has threads, and a
 * graceful SIGTERM (stop taking jobs, let running ones finish within the bound, exit 0; jobs
 * still running then are retried by another worker once their lock expires).
 */
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { ConfigError } from '../core/env.js';
import { loggerOptions } from '../core/logger.js';
import { installGracefulShutdown } from '../core/shutdown.js';
import { resolveGraphKernel } from '../eval/speed/graph-kernel-native.js';
import { createVerifierPool } from '../eval/speed/pool.js';
import { createVerifyConsumer } from '../eval/repositories/verify-queue/verify-consumer.js';
import { VERIFY_QUEUE } from '../eval/verify-queue/verify-job.js';
import { loadVerifyWorkerConfig, type VerifyWorkerConfig } from '../eval/verify-queue/worker-config.js';

function configure(): Readonly<VerifyWorkerConfig> {
  try {
    return loadVerifyWorkerConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`verify-worker: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

const config = configure();
const options = loggerOptions(config.logLevel, 'verify-worker', config.nodeEnv);
const log = pino(typeof options === 'object' ? options : { level: 'silent' });
const graphKernel = resolveGraphKernel(config.graphKernel);
const pool = createVerifierPool({ size: config.threads, taskTimeoutMs: config.taskTimeoutMs, graphKernel });
const connection = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
connection.on('error', () => undefined);
const worker = createVerifyConsumer({
  connection,
  prefix: config.prefix,
  pool,
  lockMs: config.lockMs,
  stalledIntervalMs: config.stalledIntervalMs,
});
worker.on('error', (err) => log.error({ err: err.message }, 'verify worker error'));
worker.on('failed', (job, err) =>
  log.warn({ jobId: job?.id, tool: job?.data.tool, err: err.message }, 'job failed'),
);

installGracefulShutdown({
  closers: [
    async () => {
      // Running jobs finish (and report) within the bound; after it they stay locked until the
      // lock expires and another worker retries them.
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, config.shutdownMs);
      });
      await Promise.race([worker.close(), bound]);
      clearTimeout(timer);
    },
    () => pool.destroy(),
    () => connection.quit().then(() => undefined),
  ],
  logger: log,
  timeoutMs: config.shutdownMs + 5_000,
});

void worker.run();
await worker.waitUntilReady();
log.info(
  {
    workerId: worker.id,
    queue: VERIFY_QUEUE,
    prefix: config.prefix,
    threads: config.threads,
    graphKernel,
    lockMs: config.lockMs,
  },
  'verify-worker ready',
);

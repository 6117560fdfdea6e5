/**
 * VERIFY_MODE chooses the VerifierPool behind the tool routes: `local` (this process's threads,
 * the default, no Redis) or `queue` (the BullMQ `verify` queue served by verify-workers).
 */
import type { EvalConfig } from '../config.js';
import { createVerifierPool, type VerifierPool } from './pool.js';
import { createQueueVerifierPool } from '../repositories/verify-queue/queue-pool.js';

/** What /api/health reports under `verify`. */
export type VerifyHealth = () => Promise<object>;

export const localVerifyHealth: VerifyHealth = () => Promise.resolve({ mode: 'local' });

export async function createPoolForMode(
  config: Readonly<EvalConfig>,
  graphKernel: 'native' | 'ts',
): Promise<{ pool: VerifierPool; verifyHealth: VerifyHealth }> {
  const local = createVerifierPool({
    size: config.poolSize,
    taskTimeoutMs: config.taskTimeoutMs,
    graphKernel,
  });
  const verify = config.verify;
  if (verify.mode === 'local') return { pool: local, verifyHealth: localVerifyHealth };
  const pool = await createQueueVerifierPool({
    redisUrl: verify.redisUrl,
    prefix: verify.prefix,
    maxDepth: verify.maxDepth,
    taskTimeoutMs: config.taskTimeoutMs,
    local,
  });
  return {
    pool,
    // An unreachable queue is reported, not thrown: health must answer while Redis is away.
    verifyHealth: () =>
      pool.health().catch(() => ({ mode: 'queue', error: 'the verify queue is unreachable' })),
  };
}

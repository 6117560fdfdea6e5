/**
 * The one Redis connection factory of the HTTP services (ioredis). Fails fast while Redis is
 * away: every command is bounded by a short timeout, so a Redis outage costs a request at most
 * that long instead of the seconds of ioredis' reconnect-and-retry cycle.
 */
import { Redis } from 'ioredis';

/** How long a command may wait for Redis (queued while reconnecting, or in flight). */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

export interface RedisOptions {
  /** Connect on the first command instead of at once. */
  lazy?: boolean;
  commandTimeoutMs?: number;
}

export function createRedis(url: string, options: RedisOptions = {}): Redis {
  const redis = new Redis(url, {
    lazyConnect: options.lazy ?? false,
    // The offline queue stays on so commands sent before the first connect completes are not
    // refused; commandTimeout bounds how long any of them waits once Redis is down.
    enableOfflineQueue: true,
    commandTimeout: options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // Outages are reported by health checks and by the callers' own errors; without a listener
  // ioredis' 'error' event would crash the process.
  redis.on('error', () => undefined);
  return redis;
}

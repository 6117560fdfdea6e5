/** The Redis connection of the music processes (ioredis). */
import { Redis } from 'ioredis';

export function createRedis(url: string, options: { lazy?: boolean } = {}): Redis {
  return new Redis(url, {
    lazyConnect: options.lazy ?? false,
    // Commands fail fast while Redis is away instead of piling up (health checks must answer).
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    connectTimeout: 5_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
}

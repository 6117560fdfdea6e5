/**
 * The connections a music process holds: PostgreSQL (Prisma), Redis and the object stores.
 * Created once by the entry point (or a test) and closed on shutdown.
 */
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { MusicConfig } from '../config.js';
import { createObjectStores } from './object-store/index.js';
import type { ObjectStores } from './object-store/object-store.js';
import { createRedis } from '../../core/repositories/redis.js';
import { createMusicDatabase, type PrismaClient } from './prisma.js';

export interface MusicConnections {
  prisma: PrismaClient;
  /** A pg pool beside Prisma's, for the Subsonic library's prepared statements. */
  pool: pg.Pool;
  redis: Redis;
  stores: ObjectStores;
  close(): Promise<void>;
}

const CLOSE_MS = 5_000;

/** `work`, or nothing once `ms` have passed. */
function bounded(work: Promise<unknown>, ms: number): Promise<unknown> {
  return Promise.race([work, new Promise((resolve) => setTimeout(resolve, ms).unref())]);
}

export function createMusicConnections(config: MusicConfig): MusicConnections {
  const database = createMusicDatabase(config.databaseUrl);
  const prisma = database.prisma;
  const redis = createRedis(config.cacheUrl);
  const objectStores = createObjectStores(config);
  return {
    prisma,
    pool: database.pool,
    redis,
    stores: objectStores.stores,
    close: async () => {
      // Shutdown is bounded: a client still checked out of a pool must not hold the process open.
      await Promise.allSettled([
        bounded(database.close(), CLOSE_MS),
        bounded(
          redis.quit().catch(() => undefined),
          CLOSE_MS,
        ),
        bounded(objectStores.close(), CLOSE_MS),
      ]);
      if (redis.status !== 'end') redis.disconnect();
    },
  };
}

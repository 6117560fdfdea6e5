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
      await Promise.allSettled([
        database.close(),
        redis.quit().catch(() => redis.disconnect()),
        objectStores.close(),
      ]);
    },
  };
}

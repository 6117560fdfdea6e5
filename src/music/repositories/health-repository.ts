/**
 * The real checks behind /api/v1/health: PostgreSQL `SELECT 1`, Redis `PING`, and a HEAD on
 * each object store's bucket or root. Each is bounded by a timeout so a hung dependency makes
 * the check fail instead of the probe hang.
 */
import type { Redis } from 'ioredis';
import type { ObjectStores } from './object-store/object-store.js';
import { databaseErrorLine } from './database-errors.js';
import type { PrismaClient } from './prisma.js';

export type HealthProbe = () => Promise<void>;

export function databaseProbe(prisma: PrismaClient): HealthProbe {
  return async () => {
    try {
      await prisma.$queryRaw`SELECT 1`;
    } catch (err) {
      // The cause would carry the connection details; the line is what may be shown.
      // eslint-disable-next-line preserve-caught-error
      throw new Error(databaseErrorLine(err));
    }
  };
}

export function cacheProbe(redis: Redis): HealthProbe {
  return async () => {
    const answer = await redis.ping();
    if (answer !== 'PONG') throw new Error(`unexpected PING answer ${JSON.stringify(answer)}`);
  };
}

export function objectStoreProbe(stores: ObjectStores): HealthProbe {
  return async () => {
    await Promise.all(
      Object.values(stores).map((s) =>
        s.ping().catch((err: unknown) => {
          throw new Error(`${s.name}: ${err instanceof Error ? err.message || err.name : String(err)}`);
        }),
      ),
    );
  };
}

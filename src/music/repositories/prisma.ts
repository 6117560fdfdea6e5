/**
 * The Prisma client of the music platform: JS query engine over @prisma/adapter-pg (no native
 * engine binary). The CLI side (migrations) is configured in prisma.config.ts.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../../../generated/prisma/client.js';

export type { PrismaClient };

/** The Prisma client, and a pg pool of its own for the statements Prisma cannot prepare (subsonic/sql-reader.ts). */
export interface MusicDatabase {
  prisma: PrismaClient;
  pool: pg.Pool;
  /** Disconnects Prisma, then ends both pools. */
  close(): Promise<void>;
}

export function createMusicDatabase(databaseUrl: string, options: { poolSize?: number } = {}): MusicDatabase {
  const pgPool = (config: pg.PoolConfig): pg.Pool => {
    // Fail a health check or request quickly instead of queueing forever when PostgreSQL is down.
    const pool = new pg.Pool({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000, ...config });
    // An idle connection's error (server restart) is reported by the next query; it must not crash the process.
    pool.on('error', () => undefined);
    return pool;
  };
  const prismaPool = pgPool({ max: options.poolSize ?? 10 });
  // The named statements keep one plan instead of re-planning whenever a custom plan looks cheaper;
  // on their own pool, so Prisma's parameterised queries keep plans made for their values.
  const pool = pgPool({ max: 5, options: '-c plan_cache_mode=force_generic_plan' });
  const prisma = new PrismaClient({ adapter: new PrismaPg(prismaPool) });
  return {
    prisma,
    pool,
    close: async () => {
      await prisma.$disconnect();
      await Promise.all([prismaPool.end(), pool.end()]);
    },
  };
}

export function createPrismaClient(databaseUrl: string, options: { poolSize?: number } = {}): PrismaClient {
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5_000,
  });
  return new PrismaClient({ adapter });
}

/** Prisma's "unique constraint failed" error, with the columns it names (as far as the adapter says). */
export function uniqueViolation(err: unknown): string | undefined {
  const e = err as { code?: string; meta?: unknown; message?: string };
  if (e.code !== 'P2002') return undefined;
  return JSON.stringify(e.meta ?? {}) + ' ' + (e.message ?? '');
}

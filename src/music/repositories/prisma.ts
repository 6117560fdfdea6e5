/**
 * The Prisma client of the music platform: JS query engine over @prisma/adapter-pg (no native
 * engine binary). The CLI side (migrations) is configured in prisma.config.ts.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../../../generated/prisma/client.js';

export type { PrismaClient };

export function createPrismaClient(databaseUrl: string, options: { poolSize?: number } = {}): PrismaClient {
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    max: options.poolSize ?? 10,
    // Fail a health check or request quickly instead of queueing forever when PostgreSQL is down.
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

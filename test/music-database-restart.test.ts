/**
 * A PostgreSQL restart under load (make cluster-test, scenario 5) answered 500s: the server's
 * "shutting down" / "starting up" (SQLSTATE 57P03) reached the API as the adapter's own error
 * (model queries) or as P2010 (raw queries), neither recognised as an outage. The server raises
 * the same SQLSTATEs here on demand, through the real adapter and client.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import { afterAll, describe, expect, it } from 'vitest';
import { isDatabaseOutage } from '../src/music/repositories/database-errors.js';
import { createPrismaClient } from '../src/music/repositories/prisma.js';
import { testDatabaseUrl } from './helpers/music-env.js';

const raise = (sqlstate: string, message: string): string =>
  `DO $$ BEGIN RAISE EXCEPTION '${message}' USING ERRCODE = '${sqlstate}'; END $$`;

const adapter = new PrismaPg({ connectionString: testDatabaseUrl(), max: 2 });
const prisma = createPrismaClient(testDatabaseUrl(), { poolSize: 2 });

afterAll(async () => {
  await prisma.$disconnect();
});

async function adapterError(sql: string): Promise<unknown> {
  const connection = await adapter.connect();
  try {
    await connection.queryRaw({ sql, args: [], argTypes: [] });
  } catch (err) {
    return err;
  } finally {
    await connection.dispose();
  }
  throw new Error(`no error from ${sql}`);
}

async function rawQueryError(sql: string): Promise<unknown> {
  return prisma.$executeRawUnsafe(sql).then(
    () => {
      throw new Error(`no error from ${sql}`);
    },
    (err: unknown) => err,
  );
}

describe('a restarting PostgreSQL is an outage (503), not a 500', () => {
  const restarting = [
    ['57P03', 'the database system is shutting down'],
    ['57P03', 'the database system is starting up'],
    ['57P01', 'terminating connection due to administrator command'],
    ['08006', 'connection failure'],
  ] as const;

  it.each(restarting)('%s (%s): the adapter’s own error and P2010 both', async (sqlstate, message) => {
    const own = await adapterError(raise(sqlstate, message));
    expect((own as Error).name).toBe('DriverAdapterError');
    expect(isDatabaseOutage(own)).toBe(true);
    const raw = await rawQueryError(raise(sqlstate, message));
    expect((raw as { code?: string }).code).toBe('P2010');
    expect(isDatabaseOutage(raw)).toBe(true);
  });

  it('an error of the query itself stays a fault (500), whichever shape', async () => {
    const sql = raise('22012', 'division by zero');
    expect(isDatabaseOutage(await adapterError(sql))).toBe(false);
    expect(isDatabaseOutage(await rawQueryError(sql))).toBe(false);
  });
});

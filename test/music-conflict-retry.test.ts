/**
 * retryConflicts against real PostgreSQL deadlocks: two transactions that take the same two locks
 * in opposite orders, each holding its first before asking for the second, so PostgreSQL must
 * abort one. Both through raw statements (advisory locks, as the library triggers take) and through
 * model updates (row locks on two tracks), whose errors Prisma reports differently.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isRetryableConflict, retryConflicts } from '../src/music/repositories/conflict-retry.js';
import { createMusicDatabase, type MusicDatabase } from '../src/music/repositories/prisma.js';
import { testDatabaseUrl, uniqueSuffix } from './helpers/music-env.js';

type Tx = Parameters<Parameters<MusicDatabase['prisma']['$transaction']>[0]>[0];

let db: MusicDatabase;
beforeAll(() => {
  db = createMusicDatabase(testDatabaseUrl());
});
afterAll(async () => {
  await db.close();
});

/** A gate both transactions pass only once each holds its first lock. */
function rendezvous(parties: number): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return async () => {
    if (++arrived === parties) open();
    await opened;
  };
}

/** Runs `lockFirst` then `lockSecond` in two transactions, in opposite orders, meeting in between on the first try. */
async function deadlockPair(
  take: (tx: Tx, which: 0 | 1) => Promise<void>,
  wrap: <T>(write: () => Promise<T>) => Promise<T>,
): Promise<{ settled: PromiseSettledResult<void>[]; runs: number }> {
  const meet = rendezvous(2);
  let runs = 0;
  const one = (first: 0 | 1): Promise<void> =>
    wrap(() =>
      db.prisma.$transaction(async (tx) => {
        const attempt = ++runs;
        await take(tx, first);
        // Only the first two runs meet; a retry takes its locks in turn behind the survivor.
        if (attempt <= 2) await meet();
        await take(tx, first === 0 ? 1 : 0);
      }),
    );
  const settled = await Promise.allSettled([one(0), one(1)]);
  return { settled, runs };
}

const bare = <T>(write: () => Promise<T>): Promise<T> => write();
const key = Math.floor(Math.random() * 1e9);
const advisory = (tx: Tx, which: 0 | 1): Promise<unknown> =>
  tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${key}, ${which})`);

describe('retryConflicts (real PostgreSQL deadlocks)', () => {
  test('without it, PostgreSQL aborts one of two transactions locking in opposite orders, as a conflict', async () => {
    const { settled } = await deadlockPair(async (tx, w) => void (await advisory(tx, w)), bare);
    const failed = settled.filter((s) => s.status === 'rejected');
    expect(failed).toHaveLength(1);
    expect(isRetryableConflict((failed[0] as PromiseRejectedResult).reason)).toBe(true);
  });

  test('with it, both transactions commit and the aborted one ran again', async () => {
    const { settled, runs } = await deadlockPair(
      async (tx, w) => void (await advisory(tx, w)),
      retryConflicts,
    );
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(runs).toBe(3);
  });

  test('model updates deadlocking on two rows are recognised and retried too', async () => {
    const owner = await db.prisma.user.create({
      data: {
        handle: `dl_${uniqueSuffix()}`,
        email: `dl_${uniqueSuffix()}@example.org`,
        passwordHash: 'x',
        displayName: 'Deadlock',
      },
    });
    const tracks = await Promise.all(
      ['a', 'b'].map((title) => db.prisma.track.create({ data: { title, ownerUserId: owner.id } })),
    );
    const touch = async (tx: Tx, which: 0 | 1): Promise<void> => {
      await tx.track.update({ where: { id: tracks[which]!.id }, data: { description: `by ${which}` } });
    };
    const without = await deadlockPair(touch, bare);
    const failed = without.settled.filter((s) => s.status === 'rejected');
    expect(failed).toHaveLength(1);
    expect(isRetryableConflict((failed[0] as PromiseRejectedResult).reason)).toBe(true);
    const withRetry = await deadlockPair(touch, retryConflicts);
    expect(withRetry.settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled']);
  });

  test('any other error is thrown at once, not retried', async () => {
    let runs = 0;
    await expect(
      retryConflicts(async () => {
        runs++;
        await db.prisma.$executeRawUnsafe('SELECT 1/0');
      }),
    ).rejects.toThrow(/division by zero/);
    expect(runs).toBe(1);
    expect(isRetryableConflict(new Error('deadlock detected'))).toBe(false);
    expect(isRetryableConflict(null)).toBe(false);
  });
});

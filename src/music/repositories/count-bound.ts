/**
 * Inserts bounded by how many of a kind an owner already has (playlists, client keys, unfinished
 * uploads): the count and the insert run in one transaction holding a per-owner advisory lock,
 * so inserts of one owner at once are counted one after the other and never pass the bound
 * together. Other owners never wait for each other.
 */
import type { Prisma } from '../../../generated/prisma/client.js';
import type { PrismaClient } from './prisma.js';

/** Each bounded kind and the first key of its two-key advisory lock (distinct within the database). */
export const COUNT_BOUNDS = { playlists: 26, clientKeys: 27, unfinishedUploads: 28 } as const;

export type CountBound = keyof typeof COUNT_BOUNDS;

export interface BoundedInsert<T> {
  kind: CountBound;
  ownerId: string;
  max: number;
  /** How many the owner has now, read under the lock. */
  count(tx: Prisma.TransactionClient): Promise<number>;
  insert(tx: Prisma.TransactionClient): Promise<T>;
}

/** The inserted row, or undefined when the owner already has `max`. */
export function insertWithinBound<T>(prisma: PrismaClient, b: BoundedInsert<T>): Promise<T | undefined> {
  return prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${COUNT_BOUNDS[b.kind]}::int, hashtext(${b.ownerId}))`;
    if ((await b.count(tx)) >= b.max) return undefined;
    return b.insert(tx);
  });
}

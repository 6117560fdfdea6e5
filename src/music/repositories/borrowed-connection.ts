/**
 * BullMQ objects of the API process borrow its Redis connection, which fails fast (a short
 * command timeout). Two BullMQ behaviours need care on such a connection.
 */
import type { Redis } from 'ioredis';

/**
 * BullMQ's start-up version check is an INFO command: one timeout under load would leave the
 * object failing for the life of the process. The music worker, on a connection without that
 * timeout, checks the version instead.
 */
export const BORROWED_CONNECTION_OPTIONS = { skipVersionCheck: true } as const;

interface BullObject {
  waitUntilReady(): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Closing an object whose start-up still waits for Redis drops its listeners, and that start-up
 * then rejects unheard when the connection ends: such objects are left to end with the connection.
 */
export async function closeBorrowed(objects: readonly BullObject[], redis: Redis): Promise<void> {
  if (redis.status !== 'ready') return;
  await Promise.all(
    objects.map(async (o) => {
      await o.waitUntilReady().catch(() => undefined);
      await o.close();
    }),
  );
}

/** Client keys in PostgreSQL (ciphertext and lookup hash only: never the key). */
import type { PrismaClient } from './prisma.js';
import { insertWithinBound } from './count-bound.js';

export interface ClientKeyRow {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  keyHash: string;
  keyCiphertext: Uint8Array;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export class ClientKeyRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** The new key, unless the user holds `max` already (undefined then; count-bound.ts). */
  create(
    row: Omit<ClientKeyRow, 'id' | 'createdAt' | 'lastUsedAt'>,
    max: number,
  ): Promise<ClientKeyRow | undefined> {
    return insertWithinBound(this.prisma, {
      kind: 'clientKeys',
      ownerId: row.userId,
      max,
      count: (tx) => tx.clientKey.count({ where: { userId: row.userId } }),
      insert: (tx) =>
        tx.clientKey.create({ data: { ...row, keyCiphertext: Buffer.from(row.keyCiphertext) } }),
    });
  }

  listByUser(userId: string): Promise<ClientKeyRow[]> {
    return this.prisma.clientKey.findMany({
      where: { userId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  async findByHash(keyHash: string): Promise<ClientKeyRow | undefined> {
    return (await this.prisma.clientKey.findUnique({ where: { keyHash } })) ?? undefined;
  }

  /** true when the user had that key. */
  async delete(userId: string, id: string): Promise<boolean> {
    return (await this.prisma.clientKey.deleteMany({ where: { id, userId } })).count === 1;
  }

  /** Deletes every key of the user (a password change); how many there were. */
  async deleteAllOfUser(userId: string): Promise<number> {
    return (await this.prisma.clientKey.deleteMany({ where: { userId } })).count;
  }

  /** Last use is kept to the minute: one write per key per minute, not per request. */
  async touch(id: string, now: Date): Promise<void> {
    await this.prisma.clientKey.updateMany({
      where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - 60_000) } }] },
      data: { lastUsedAt: now },
    });
  }
}

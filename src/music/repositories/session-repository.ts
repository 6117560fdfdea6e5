/**
 * Signed-in sessions in PostgreSQL, one row per access token (its jti), for the user's list.
 * Ending a session is a revocation (token-revocation-repository.ts) plus removing its row.
 */
import type { PrismaClient } from './prisma.js';

export interface SessionRecord {
  jti: string;
  userId: string;
  device: string;
  addressHash: string;
  issuedAt: Date;
  expiresAt: Date;
  lastSeenAt: Date;
}

export interface SessionRepository {
  /** Adds a session; the user's expired ones are removed on the way. */
  record(session: SessionRecord): Promise<void>;
  /** The session was used now (from this address hash); no row, nothing happens. */
  touch(jti: string, addressHash: string, now: Date): Promise<void>;
  /** The user's sessions not yet expired, most recently seen first. */
  list(userId: string, now: Date): Promise<SessionRecord[]>;
  /** Removes one session of the user: false when the user has none with this id. */
  remove(userId: string, jti: string): Promise<boolean>;
  removeAll(userId: string): Promise<number>;
}

export class PrismaSessionRepository implements SessionRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async record(session: SessionRecord): Promise<void> {
    // Interactive, not a batch: a batch $transaction through the pg adapter left its client checked out.
    await this.prisma.$transaction(async (tx) => {
      await tx.userSession.deleteMany({
        where: { userId: session.userId, expiresAt: { lte: session.issuedAt } },
      });
      await tx.userSession.upsert({
        where: { jti: session.jti },
        create: session,
        update: { lastSeenAt: session.lastSeenAt, addressHash: session.addressHash },
      });
    });
  }

  async touch(jti: string, addressHash: string, now: Date): Promise<void> {
    await this.prisma.userSession.updateMany({ where: { jti }, data: { lastSeenAt: now, addressHash } });
  }

  list(userId: string, now: Date): Promise<SessionRecord[]> {
    return this.prisma.userSession.findMany({
      where: { userId, expiresAt: { gt: now } },
      orderBy: [{ lastSeenAt: 'desc' }, { jti: 'asc' }],
      take: 200,
    });
  }

  async remove(userId: string, jti: string): Promise<boolean> {
    const { count } = await this.prisma.userSession.deleteMany({ where: { userId, jti } });
    return count === 1;
  }

  async removeAll(userId: string): Promise<number> {
    return (await this.prisma.userSession.deleteMany({ where: { userId } })).count;
  }
}

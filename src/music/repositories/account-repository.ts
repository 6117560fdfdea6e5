/**
 * The account side of users in PostgreSQL: mailed tokens (stored as hashes only, consumed at
 * most once), the verified address and the password set by a reset.
 */
import { emailTaken } from '../errors/accounts.js';
import type { PrismaClient } from './prisma.js';
import { uniqueViolation } from './prisma.js';

export type AccountTokenPurpose = 'verify_email' | 'password_reset';

export interface NewAccountToken {
  userId: string;
  purpose: AccountTokenPurpose;
  tokenHash: string;
  email: string;
  expiresAt: Date;
}

export interface AccountRepository {
  /**
   * Stores a token; the user's earlier unused tokens of the same purpose stop working. With
   * `minIntervalMs`, nothing is stored (false) when the newest token of the purpose is younger.
   * Serialised per account (its row is locked), so concurrent calls issue one token at a time.
   */
  issueToken(token: NewAccountToken, now: Date, minIntervalMs?: number): Promise<boolean>;
  /** Marks the token used if it is unused and unexpired: its user and address, else undefined. */
  consumeToken(
    purpose: AccountTokenPurpose,
    tokenHash: string,
    now: Date,
  ): Promise<{ userId: string; email: string } | undefined>;
  /** The unused, unexpired token's user and address, without using it. */
  findToken(
    purpose: AccountTokenPurpose,
    tokenHash: string,
    now: Date,
  ): Promise<{ userId: string; email: string } | undefined>;
  /** Ends every unused token of the user of this purpose. */
  voidTokens(userId: string, purpose: AccountTokenPurpose, now: Date): Promise<void>;
  verifiedAt(userId: string): Promise<Date | null | undefined>;
  /** Sets the address, verified at `verifiedAt` (null: unverified); a taken address is a 409. */
  setEmail(userId: string, email: string, verifiedAt: Date | null): Promise<void>;
  setPasswordHash(userId: string, passwordHash: string): Promise<void>;
}

export class PrismaAccountRepository implements AccountRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async issueToken(token: NewAccountToken, now: Date, minIntervalMs?: number): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      // The account's row lock: the check below and the insert are one step for concurrent requests.
      await tx.$queryRaw`SELECT 1 FROM "users" WHERE "id" = ${token.userId}::uuid FOR UPDATE`;
      if (minIntervalMs !== undefined) {
        const newest = await tx.accountToken.findFirst({
          where: { userId: token.userId, purpose: token.purpose },
          orderBy: { createdAt: 'desc' },
          select: { createdAt: true },
        });
        if (newest && now.getTime() - newest.createdAt.getTime() < minIntervalMs) return false;
      }
      await tx.accountToken.updateMany({
        where: { userId: token.userId, purpose: token.purpose, usedAt: null },
        data: { usedAt: now },
      });
      // Used and expired tokens of the user are kept no longer than needed.
      await tx.accountToken.deleteMany({
        where: { userId: token.userId, OR: [{ usedAt: { not: null } }, { expiresAt: { lt: now } }] },
      });
      await tx.accountToken.create({ data: { ...token, createdAt: now } });
      return true;
    });
  }

  async consumeToken(
    purpose: AccountTokenPurpose,
    tokenHash: string,
    now: Date,
  ): Promise<{ userId: string; email: string } | undefined> {
    // One conditional update: of two concurrent uses, exactly one sees count 1.
    const { count } = await this.prisma.accountToken.updateMany({
      where: { tokenHash, purpose, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (count !== 1) return undefined;
    const row = await this.prisma.accountToken.findUnique({
      where: { tokenHash },
      select: { userId: true, email: true },
    });
    return row ?? undefined;
  }

  async findToken(
    purpose: AccountTokenPurpose,
    tokenHash: string,
    now: Date,
  ): Promise<{ userId: string; email: string } | undefined> {
    const row = await this.prisma.accountToken.findFirst({
      where: { tokenHash, purpose, usedAt: null, expiresAt: { gt: now } },
      select: { userId: true, email: true },
    });
    return row ?? undefined;
  }

  async voidTokens(userId: string, purpose: AccountTokenPurpose, now: Date): Promise<void> {
    await this.prisma.accountToken.updateMany({
      where: { userId, purpose, usedAt: null },
      data: { usedAt: now },
    });
  }

  async verifiedAt(userId: string): Promise<Date | null | undefined> {
    const row = await this.prisma.user.findUnique({
      where: { id: userId },
      select: { emailVerifiedAt: true },
    });
    return row === null ? undefined : row.emailVerifiedAt;
  }

  async setEmail(userId: string, email: string, verifiedAt: Date | null): Promise<void> {
    try {
      await this.prisma.user.update({ where: { id: userId }, data: { email, emailVerifiedAt: verifiedAt } });
    } catch (err) {
      if (uniqueViolation(err) !== undefined) throw emailTaken();
      throw err;
    }
  }

  async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    await this.prisma.user.update({ where: { id: userId }, data: { passwordHash } });
  }
}

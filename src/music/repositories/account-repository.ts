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
  /** Stores a token; the user's earlier unused tokens of the same purpose stop working. */
  issueToken(token: NewAccountToken, now: Date): Promise<void>;
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
  /** When the user's newest token of this purpose was issued (undefined: none kept). */
  lastIssuedAt(userId: string, purpose: AccountTokenPurpose): Promise<Date | undefined>;
  /** Ends every unused token of the user of this purpose. */
  voidTokens(userId: string, purpose: AccountTokenPurpose, now: Date): Promise<void>;
  verifiedAt(userId: string): Promise<Date | null | undefined>;
  /** Sets the address, verified at `verifiedAt` (null: unverified); a taken address is a 409. */
  setEmail(userId: string, email: string, verifiedAt: Date | null): Promise<void>;
  setPasswordHash(userId: string, passwordHash: string): Promise<void>;
}

export class PrismaAccountRepository implements AccountRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async issueToken(token: NewAccountToken, now: Date): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      await tx.accountToken.updateMany({
        where: { userId: token.userId, purpose: token.purpose, usedAt: null },
        data: { usedAt: now },
      });
      // Used and expired tokens of the user are kept no longer than needed.
      await tx.accountToken.deleteMany({
        where: { userId: token.userId, OR: [{ usedAt: { not: null } }, { expiresAt: { lt: now } }] },
      });
      await tx.accountToken.create({ data: { ...token, createdAt: now } });
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

  async lastIssuedAt(userId: string, purpose: AccountTokenPurpose): Promise<Date | undefined> {
    const row = await this.prisma.accountToken.findFirst({
      where: { userId, purpose },
      orderBy: { createdAt: 'desc' },
      select: { createdAt: true },
    });
    return row?.createdAt;
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

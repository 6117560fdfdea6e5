/** Users in PostgreSQL. Handles and emails are stored lower-cased (the service normalises). */
import type { PrismaClient } from './prisma.js';
import { uniqueViolation } from './prisma.js';
import type { Role } from '../auth-context.js';
import { emailTaken, handleTaken } from '../errors/users.js';

export interface UserRecord {
  id: string;
  handle: string;
  email: string;
  passwordHash: string;
  role: Role;
  displayName: string;
  bio: string;
  pictureKey: string | null;
  createdAt: Date;
}

export interface NewUser {
  handle: string;
  email: string;
  passwordHash: string;
  displayName: string;
  role?: Role;
}

export interface UserRepository {
  create(user: NewUser): Promise<UserRecord>;
  findById(id: string): Promise<UserRecord | undefined>;
  findByHandle(handle: string): Promise<UserRecord | undefined>;
  /** By handle or email (both lower-case). */
  findByLogin(login: string): Promise<UserRecord | undefined>;
  setRole(id: string, role: Role): Promise<UserRecord>;
  update(
    id: string,
    changes: { displayName?: string; passwordHash?: string; bio?: string },
  ): Promise<UserRecord>;
  /**
   * Sets the stored key of the profile picture (under the images store), or null for none, and
   * returns the key it replaced in the same step (undefined when the account is gone): of two
   * changes at once, each sees the other's key, so every replaced picture is deleted once.
   */
  setPicture(
    id: string,
    pictureKey: string | null,
  ): Promise<{ user: UserRecord; replaced: string | null } | undefined>;
}

export class PrismaUserRepository implements UserRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async create(user: NewUser): Promise<UserRecord> {
    try {
      return await this.prisma.user.create({ data: { ...user, role: user.role ?? 'user' } });
    } catch (err) {
      const which = uniqueViolation(err);
      if (which === undefined) throw err;
      if (which.includes('email')) throw emailTaken();
      throw handleTaken(user.handle);
    }
  }

  async findById(id: string): Promise<UserRecord | undefined> {
    return (await this.prisma.user.findUnique({ where: { id } })) ?? undefined;
  }

  async findByHandle(handle: string): Promise<UserRecord | undefined> {
    return (await this.prisma.user.findUnique({ where: { handle } })) ?? undefined;
  }

  async findByLogin(login: string): Promise<UserRecord | undefined> {
    const where = login.includes('@') ? { email: login } : { handle: login };
    return (await this.prisma.user.findUnique({ where })) ?? undefined;
  }

  async setRole(id: string, role: Role): Promise<UserRecord> {
    return this.prisma.user.update({ where: { id }, data: { role } });
  }

  async update(
    id: string,
    changes: { displayName?: string; passwordHash?: string; bio?: string },
  ): Promise<UserRecord> {
    return this.prisma.user.update({ where: { id }, data: changes });
  }

  async setPicture(id: string, pictureKey: string | null) {
    return this.prisma.$transaction(async (tx) => {
      const [before] = await tx.$queryRaw<{ picture_key: string | null }[]>`
        SELECT picture_key FROM users WHERE id = ${id}::uuid FOR UPDATE`;
      if (!before) return undefined;
      const user = await tx.user.update({ where: { id }, data: { pictureKey } });
      return { user, replaced: before.picture_key };
    });
  }
}

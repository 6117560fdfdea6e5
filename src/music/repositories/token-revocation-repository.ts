/**
 * Revoked tokens in Redis, each entry kept until the tokens it covers would have expired
 * anyway: single tokens by jti (logout), and every token of a user issued before an instant
 * (password change).
 */
import type { Redis } from 'ioredis';
import { sessionStoreUnavailable } from '../errors/auth.js';

export interface TokenRevocationRepository {
  revoke(jti: string, ttlSeconds: number): Promise<void>;
  /** Revokes every token of the user issued before `beforeSeconds` (iat < before). */
  revokeIssuedBefore(userId: string, beforeSeconds: number, ttlSeconds: number): Promise<void>;
  isRevoked(token: { jti: string; userId: string; iat: number }): Promise<boolean>;
}

export class RedisTokenRevocationRepository implements TokenRevocationRepository {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  async revoke(jti: string, ttlSeconds: number): Promise<void> {
    try {
      await this.redis.set(`${this.keyPrefix}revoked:${jti}`, '1', 'EX', Math.max(1, Math.ceil(ttlSeconds)));
    } catch {
      throw sessionStoreUnavailable();
    }
  }

  async revokeIssuedBefore(userId: string, beforeSeconds: number, ttlSeconds: number): Promise<void> {
    try {
      await this.redis.set(
        `${this.keyPrefix}tokens-valid-after:${userId}`,
        String(beforeSeconds),
        'EX',
        Math.max(1, Math.ceil(ttlSeconds)),
      );
    } catch {
      throw sessionStoreUnavailable();
    }
  }

  async isRevoked(token: { jti: string; userId: string; iat: number }): Promise<boolean> {
    let answers: (string | null)[];
    try {
      answers = await this.redis.mget(
        `${this.keyPrefix}revoked:${token.jti}`,
        `${this.keyPrefix}tokens-valid-after:${token.userId}`,
      );
    } catch {
      throw sessionStoreUnavailable();
    }
    const [revoked, validAfter] = answers;
    return revoked !== null || (validAfter != null && token.iat < Number(validAfter));
  }
}

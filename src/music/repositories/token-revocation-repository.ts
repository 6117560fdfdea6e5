/** Revoked token ids in Redis, each kept until the token would have expired anyway. */
import type { Redis } from 'ioredis';
import { AppError } from '../../core/errors.js';

/** Without the revocation list a logged-out token cannot be told apart: fail closed, as a 503. */
function unavailable(): AppError {
  return new AppError('unavailable', 'The session store is unavailable; retry in a few seconds.', {
    headers: { 'retry-after': '5' },
  });
}

export interface TokenRevocationRepository {
  revoke(jti: string, ttlSeconds: number): Promise<void>;
  isRevoked(jti: string): Promise<boolean>;
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
      throw unavailable();
    }
  }

  async isRevoked(jti: string): Promise<boolean> {
    try {
      return (await this.redis.exists(`${this.keyPrefix}revoked:${jti}`)) === 1;
    } catch {
      throw unavailable();
    }
  }
}

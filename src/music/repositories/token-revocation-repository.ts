/** Revoked token ids in Redis, each kept until the token would have expired anyway. */
import type { Redis } from 'ioredis';

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
    await this.redis.set(`${this.keyPrefix}revoked:${jti}`, '1', 'EX', Math.max(1, Math.ceil(ttlSeconds)));
  }

  async isRevoked(jti: string): Promise<boolean> {
    return (await this.redis.exists(`${this.keyPrefix}revoked:${jti}`)) === 1;
  }
}

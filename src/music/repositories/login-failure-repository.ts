/**
 * Login attempts per account in Redis (shared by every API instance): a count and the instant
 * before which the next attempt is refused. Each attempt past the free ones doubles the wait
 * (services/login-backoff.ts decides the numbers); a success clears the count, and the key
 * expires an hour after the last attempt.
 */
import type { Redis } from 'ioredis';
import { sessionStoreUnavailable } from '../errors/auth.js';

export interface BackoffRule {
  free: number;
  baseMs: number;
  maxMs: number;
  forgetMs: number;
}

export interface LoginFailureRepository {
  /**
   * Takes an attempt, counted as a failure until a success clears it (so parallel guesses cannot
   * all pass before the first is counted): 0 when admitted, else the milliseconds to wait. The
   * attempt that passes `free` sets the next wait, `min(baseMs * 2^(n - free - 1), maxMs)`.
   */
  attempt(subject: string, rule: BackoffRule): Promise<number>;
  clear(subject: string): Promise<void>;
}

const ATTEMPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local u = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if u > now then return tostring(u - now) end
local n = redis.call('HINCRBY', KEYS[1], 'n', 1)
local free, base, max, forget = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local wait = 0
if n > free then
  wait = math.min(base * 2 ^ math.min(n - free - 1, 40), max)
  redis.call('HSET', KEYS[1], 'until', tostring(now + wait))
end
redis.call('PEXPIRE', KEYS[1], math.floor(forget + wait))
return '0'
`;

type Run = (key: string, ...args: string[]) => Promise<string>;

export class RedisLoginFailureRepository implements LoginFailureRepository {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {
    redis.defineCommand('loginAttempt', { numberOfKeys: 1, lua: ATTEMPT });
  }

  private key(subject: string): string {
    return `${this.keyPrefix}login-failures:${subject}`;
  }

  async attempt(subject: string, rule: BackoffRule): Promise<number> {
    const command = (this.redis as unknown as Record<string, Run>).loginAttempt!;
    const args = [rule.free, rule.baseMs, rule.maxMs, rule.forgetMs].map(String);
    const wait = await command.call(this.redis, this.key(subject), ...args).catch(() => {
      throw sessionStoreUnavailable();
    });
    return Number(wait);
  }

  async clear(subject: string): Promise<void> {
    await this.redis.del(this.key(subject)).catch(() => {
      throw sessionStoreUnavailable();
    });
  }
}

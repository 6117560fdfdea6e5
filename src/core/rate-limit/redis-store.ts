import type { Redis } from 'ioredis';
import type { GcraLimit } from './gcra.js';
import type { RateLimitResult, RateLimitStore } from './store.js';

/**
 * GCRA in Redis: one Lua script, atomic per key, clock from Redis `TIME` so instances with
 * skewed clocks still agree. Same arithmetic as gcra.ts. Returns {allowed, retry_ms}.
 */
const SCRIPT = `
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local cost = tonumber(ARGV[3] or '1')
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local stored = redis.call('GET', KEYS[1])
local tat = now
if stored then tat = math.max(tonumber(stored), now) end
local wait = tat + (cost - 1) * interval - tolerance - now
if wait > 0 then
  return {0, tostring(wait)}
end
local new_tat = tat + cost * interval
redis.call('SET', KEYS[1], tostring(new_tat), 'PX', math.max(1, math.ceil(new_tat - now)))
return {1, '0'}
`;

export class RedisRateLimitStore implements RateLimitStore {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {
    redis.defineCommand('gcraTake', { numberOfKeys: 1, lua: SCRIPT });
  }

  async take(key: string, limit: GcraLimit, cost = 1): Promise<RateLimitResult> {
    const interval = 1000 / limit.ratePerSecond;
    const redis = this.redis as unknown as {
      gcraTake: (k: string, i: string, t: string, c: string) => Promise<[number, string]>;
    };
    const [allowed, retry] = await redis.gcraTake(
      this.keyPrefix + key,
      String(interval),
      String(limit.burst * interval),
      String(cost),
    );
    return { allowed: allowed === 1, retryAfterMs: Number(retry) };
  }
}

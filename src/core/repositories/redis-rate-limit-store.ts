import type { Redis } from 'ioredis';
import type { GcraLimit } from '../rate-limit/gcra.js';
import type {
  RateLimitBucket,
  RateLimitGrant,
  RateLimitResult,
  RateLimitStore,
} from '../rate-limit/store.js';

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

/** gcraUpTo in Redis: grants as many of ARGV[3] requests as are due now. Returns {granted, retry_ms}. */
const UP_TO_SCRIPT = `
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local most = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local stored = redis.call('GET', KEYS[1])
local tat = now
if stored then tat = math.max(tonumber(stored), now) end
local granted = math.min(most, math.floor((now + tolerance - tat) / interval) + 1)
while granted > 0 and tat + (granted - 1) * interval - tolerance - now > 0 do granted = granted - 1 end
while granted < most and tat + granted * interval - tolerance - now <= 0 do granted = granted + 1 end
if granted <= 0 then
  return {0, tostring(tat - tolerance - now)}
end
local new_tat = tat + granted * interval
redis.call('SET', KEYS[1], tostring(new_tat), 'PX', math.max(1, math.ceil(new_tat - now)))
return {granted, '0'}
`;

/** One request from each key (ARGV: interval, tolerance per key), all or none. Returns {allowed, retry_ms}. */
const ALL_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local tats = {}
local wait = 0
for i, key in ipairs(KEYS) do
  local interval = tonumber(ARGV[2 * i - 1])
  local tolerance = tonumber(ARGV[2 * i])
  local stored = redis.call('GET', key)
  local tat = now
  if stored then tat = math.max(tonumber(stored), now) end
  wait = math.max(wait, tat - tolerance - now)
  tats[i] = tat + interval
end
if wait > 0 then
  return {0, tostring(wait)}
end
for i, key in ipairs(KEYS) do
  redis.call('SET', key, tostring(tats[i]), 'PX', math.max(1, math.ceil(tats[i] - now)))
end
return {1, '0'}
`;

type Script = (key: string, interval: string, tolerance: string, n: string) => Promise<[number, string]>;

export class RedisRateLimitStore implements RateLimitStore {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {
    redis.defineCommand('gcraTake', { numberOfKeys: 1, lua: SCRIPT });
    redis.defineCommand('gcraTakeUpTo', { numberOfKeys: 1, lua: UP_TO_SCRIPT });
    redis.defineCommand('gcraTakeAll', { lua: ALL_SCRIPT });
  }

  async takeAll(buckets: readonly RateLimitBucket[]): Promise<RateLimitResult> {
    const args = buckets.flatMap(({ limit }) => {
      const interval = 1000 / limit.ratePerSecond;
      return [String(interval), String(limit.burst * interval)];
    });
    const run = (
      this.redis as unknown as { gcraTakeAll: (...a: (string | number)[]) => Promise<[number, string]> }
    ).gcraTakeAll;
    const keys = buckets.map((b) => this.keyPrefix + b.key);
    const [allowed, retry] = await run.call(this.redis, keys.length, ...keys, ...args);
    return { allowed: allowed === 1, retryAfterMs: Number(retry) };
  }

  async takeUpTo(key: string, limit: GcraLimit, most: number): Promise<RateLimitGrant> {
    const interval = 1000 / limit.ratePerSecond;
    const run = (this.redis as unknown as { gcraTakeUpTo: Script }).gcraTakeUpTo;
    const [granted, retry] = await run.call(
      this.redis,
      this.keyPrefix + key,
      String(interval),
      String(limit.burst * interval),
      String(most),
    );
    return { granted, retryAfterMs: Number(retry) };
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

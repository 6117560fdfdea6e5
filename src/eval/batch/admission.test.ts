import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from '../../core/rate-limit/memory-store.js';
import { RedisRateLimitStore } from '../../core/repositories/redis-rate-limit-store.js';
import { createRedis } from '../../core/repositories/redis.js';
import type { RateLimitStore } from '../../core/rate-limit/store.js';
import { lineAdmission, type BatchLimiter } from './admission.js';

// lineAdmission reads only the client's address (through the limiter) and the request's logger.
const errors: unknown[] = [];
const request = { log: { error: (entry: unknown) => errors.push(entry) } } as unknown as FastifyRequest;
const scope = { name: 'tools', match: () => true, ratePerSecond: 20, burst: 2 }; // one line per 50 ms

function limiterOn(store: RateLimitStore): BatchLimiter {
  return { store, scope, clientAddress: () => '192.0.2.7' };
}

describe('batch line admission', () => {
  it('takes the lines that are due at each ask, not a group of burst + 1', async () => {
    let now = 1.7e12;
    const admission = lineAdmission(limiterOn(new MemoryRateLimitStore(() => now)), request);
    expect(await admission.now(256)).toEqual({ allowed: true, lines: 3 });
    expect(await admission.now(256)).toEqual({ allowed: false, retryAfterMs: 50 });
    now += 50;
    // One line has fallen due: it runs now rather than waiting for two more.
    expect(await admission.now(256)).toEqual({ allowed: true, lines: 1 });
    now += 125;
    expect(await admission.now(256)).toEqual({ allowed: true, lines: 2 });
    expect(await admission.now(1)).toEqual({ allowed: false, retryAfterMs: 25 });
  });

  it('never takes more lines than were asked for', async () => {
    const admission = lineAdmission(limiterOn(new MemoryRateLimitStore(() => 0)), request);
    expect(await admission.now(2)).toEqual({ allowed: true, lines: 2 });
    expect(await admission.now(2)).toEqual({ allowed: true, lines: 1 });
  });

  it('admits the rest of the batch, logged once, when the limiter fails (Redis unreachable)', async () => {
    const redis = createRedis('redis://127.0.0.1:1');
    errors.length = 0;
    try {
      const admission = lineAdmission(limiterOn(new RedisRateLimitStore(redis, 'unused:')), request);
      expect(await admission.now(40)).toEqual({ allowed: true, lines: 40 });
      expect(await admission.now(7)).toEqual({ allowed: true, lines: 7 });
      expect(errors).toHaveLength(1);
    } finally {
      redis.disconnect();
    }
  });
});

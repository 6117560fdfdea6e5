import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisRateLimitStore } from '../src/core/repositories/redis-rate-limit-store.js';
import { makeEvalApp, postJson } from './helpers/eval-app.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = (): string => `test:${process.env.TEST_RUN_ID ?? 'local'}:${randomBytes(4).toString('hex')}:`;
const redis = new Redis(REDIS_URL);

afterAll(async () => {
  await redis.quit();
});

async function waitMs(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

describe('Redis GCRA store', () => {
  it('admits burst + 1, rejects the next with the wait, admits again once the interval has passed', async () => {
    const store = new RedisRateLimitStore(redis, prefix());
    const limit = { ratePerSecond: 10, burst: 3 };
    const first = [];
    for (let i = 0; i < 5; i++) first.push(await store.take('client', limit));
    expect(first.map((r) => r.allowed)).toEqual([true, true, true, true, false]);
    const rejected = first[4]!;
    expect(rejected.retryAfterMs).toBeGreaterThan(0);
    expect(rejected.retryAfterMs).toBeLessThanOrEqual(100);
    // Waiting exactly the time the limiter named is what a well-behaved client does.
    await waitMs(Math.ceil(rejected.retryAfterMs) + 5);
    expect((await store.take('client', limit)).allowed).toBe(true);
    expect((await store.take('client', limit)).allowed).toBe(false);
  });

  it('takes a cost of several requests at once, all or none, as gcra.ts does', async () => {
    const store = new RedisRateLimitStore(redis, prefix());
    const limit = { ratePerSecond: 1, burst: 3 };
    const takes = [];
    for (const cost of [3, 2, 1, 1]) takes.push(await store.take('client', limit, cost));
    expect(takes.map((r) => r.allowed)).toEqual([true, false, true, false]);
    expect(takes[1]!.retryAfterMs).toBeGreaterThan(900);
  });

  it('takes up to a number of requests, what the bucket holds, as gcraUpTo does', async () => {
    const store = new RedisRateLimitStore(redis, prefix());
    const limit = { ratePerSecond: 1, burst: 3 };
    expect(await store.takeUpTo('client', limit, 10)).toEqual({ granted: 4, retryAfterMs: 0 });
    const empty = await store.takeUpTo('client', limit, 10);
    expect(empty.granted).toBe(0);
    expect(empty.retryAfterMs).toBeGreaterThan(900);
    expect(empty.retryAfterMs).toBeLessThanOrEqual(1000);
    // A cost the all-or-none take refuses is partly granted here, and the rest refused after.
    const other = new RedisRateLimitStore(redis, prefix());
    expect((await other.take('c', limit, 3)).allowed).toBe(true);
    expect(await other.takeUpTo('c', limit, 5)).toEqual({ granted: 1, retryAfterMs: 0 });
    expect((await other.take('c', limit, 1)).allowed).toBe(false);
  });

  it('expires idle keys so Redis does not keep them', async () => {
    const p = prefix();
    const store = new RedisRateLimitStore(redis, p);
    await store.take('idle', { ratePerSecond: 10, burst: 0 });
    const ttl = await redis.pttl(`${p}idle`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(100);
  });
});

describe('eval rate limits over HTTP', () => {
  const body = { baseline: { a: false }, candidate: { a: true } };

  it('in memory: burst + 1 admitted, then 429 with Retry-After', async () => {
    const app = await makeEvalApp({
      RATE_LIMITS: 'on',
      EVAL_RATE_LIMIT_PER_MINUTE: '1',
      EVAL_RATE_LIMIT_BURST: '2',
    });
    try {
      const codes = [];
      for (let i = 0; i < 3; i++) codes.push((await postJson(app, '/api/gate', body)).statusCode);
      expect(codes).toEqual([200, 200, 200]);
      const limited = await postJson(app, '/api/gate', body);
      expect(limited.statusCode).toBe(429);
      // One request a minute: the slot after the burst opens at most 60 s from now.
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(50);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(limited.headers['content-type']).toMatch(/problem\+json/);
      // Read-only endpoints are not limited.
      expect((await app.inject('/api/health')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('in Redis: two instances share one limit', async () => {
    const env = {
      RATE_LIMITS: 'on',
      EVAL_RATE_LIMIT_PER_MINUTE: '1',
      EVAL_RATE_LIMIT_BURST: '2',
      CACHE_URL: REDIS_URL,
      CACHE_KEY_PREFIX: prefix(),
    };
    const a = await makeEvalApp(env);
    const b = await makeEvalApp(env);
    try {
      const codes = [];
      for (const app of [a, b, a]) codes.push((await postJson(app, '/api/gate', body)).statusCode);
      expect(codes).toEqual([200, 200, 200]);
      const limited = await postJson(b, '/api/gate', body);
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(50);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
      // Stats are shared through Redis as well.
      const stats = (await a.inject('/api/stats')).json();
      expect(stats.tools.gate).toMatchObject({ calls: 4, status_2xx: 3, status_4xx: 1 });
    } finally {
      await a.close();
      await b.close();
    }
  });
});

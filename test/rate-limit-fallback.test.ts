/**
 * The limiter under a slow store and IPv6 clients (issue 45, items 3 and 4): a Redis whose
 * answers stop coming (a stalled link: what a busy event loop looks like to the command
 * timeout) keeps the limit closed through the local fallback; an IPv6 client's /64 is one
 * bucket, shared through the real Redis.
 */
import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { limitSubject } from '../src/core/client-address.js';
import { registerRateLimits } from '../src/core/rate-limit/plugin.js';
import { RedisRateLimitStore } from '../src/core/repositories/redis-rate-limit-store.js';
import { createRedis } from '../src/core/repositories/redis.js';
import { testKeyPrefix } from './helpers/music-env.js';
import { startStallingProxy, type StallingProxy } from './helpers/stalling-proxy.js';

const REDIS_URL = process.env.TEST_CACHE_URL ?? 'redis://127.0.0.1:6379';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function limitedApp(redisUrl: string, prefix: string, lines: string[] = []): FastifyInstance {
  const redis = createRedis(redisUrl, { commandTimeoutMs: 200 });
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const logger: FastifyBaseLogger = pino({ level: 'warn' }, sink);
  const app = Fastify({ loggerInstance: logger });
  registerRateLimits(app, {
    store: new RedisRateLimitStore(redis, prefix),
    // Two at once, then one per 20 s.
    scopes: [{ name: 'all', match: () => true, ratePerSecond: 0.05, burst: 1 }],
    clientAddress: (request) => request.ip,
  });
  app.get('/x', (_request, reply) => reply.send('ok'));
  cleanups.push(
    () => app.close(),
    () => redis.disconnect(),
  );
  return app;
}

describe('a slow limiter store', () => {
  it('keeps the limit closed (local fallback) and says so once, instead of admitting everyone', async () => {
    let proxy: StallingProxy | undefined = await startStallingProxy(REDIS_URL);
    cleanups.push(() => proxy?.close());
    const prefix = testKeyPrefix();
    const lines: string[] = [];
    const app = limitedApp(proxy.url, prefix, lines);
    proxy.stallOn(prefix);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await app.inject('/x')).statusCode);
    expect(proxy.stalled()).toBe(true);
    expect(statuses).toEqual([200, 200, 429, 429, 429]);
    const refused = await app.inject('/x');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(1);
    const logged = lines.filter((l) => l.includes('rate limiter store unavailable'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('limiting in this process alone');
    proxy = undefined;
  });
});

describe('IPv6 clients are limited by /64', () => {
  it('names a /64 the same however its addresses are written', () => {
    expect(limitSubject('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(limitSubject('2001:DB8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(limitSubject('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(limitSubject('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(limitSubject('::1')).toBe('0:0:0:0::/64');
    expect(limitSubject('64:ff9b::198.51.100.7')).toBe('64:ff9b:0:0::/64');
    expect(limitSubject('203.0.113.9')).toBe('203.0.113.9');
    expect(limitSubject('unknown')).toBe('unknown');
  });

  it('shares one bucket between the addresses of a /64 (through Redis), not with the next /64', async () => {
    const prefix = testKeyPrefix();
    const app = limitedApp(REDIS_URL, prefix);
    const from = async (remoteAddress: string) => (await app.inject({ url: '/x', remoteAddress })).statusCode;
    expect(await from('2001:db8:45:1::a')).toBe(200);
    expect(await from('2001:db8:45:1:ffff::b')).toBe(200);
    expect(await from('2001:db8:45:1:1234:5678:9abc:def0')).toBe(429);
    expect(await from('2001:db8:45:2::a')).toBe(200);
    // A second process on the same Redis sees the same bucket.
    const other = limitedApp(REDIS_URL, prefix);
    expect((await other.inject({ url: '/x', remoteAddress: '2001:db8:45:1::c' })).statusCode).toBe(429);
  });
});

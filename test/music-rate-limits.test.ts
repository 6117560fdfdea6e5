/**
 * The seed's three rate-limit scopes, nginx limit_req semantics (burst + nodelay) in Redis:
 * an idle client gets burst+1 requests, the next is a 429 with Retry-After; the state is
 * shared by every instance on the same Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { testKeyPrefix } from './helpers/music-env.js';

interface Scope {
  name: string;
  burst: number;
  intervalSeconds: number;
  request: { method: 'GET' | 'POST'; url: string; payload?: object };
}

const SCOPES: Scope[] = [
  {
    name: 'auth',
    burst: 3,
    intervalSeconds: 60 / 5,
    request: { method: 'POST', url: '/api/v1/auth/login', payload: { login: 'x', password: 'y' } },
  },
  {
    name: 'api',
    burst: 20,
    intervalSeconds: 60 / 100,
    request: { method: 'GET', url: '/api/v1/users/nobody_here' },
  },
  {
    name: 'comments',
    burst: 5,
    intervalSeconds: 3600 / 20,
    request: { method: 'GET', url: '/api/v1/comments?track_id=x' },
  },
];

let counter = 0;
/** A client address of its own for each test, so tests never share a bucket. */
const freshAddress = (): string =>
  `10.${Math.floor(Math.random() * 250)}.${(counter >> 8) & 255}.${counter++ & 255}`;

describe('rate limits', () => {
  let a: MusicTestApp;
  let b: MusicTestApp;

  beforeAll(async () => {
    const keyPrefix = testKeyPrefix();
    // Two instances of the API sharing one Redis (same key prefix), as behind a load balancer.
    a = await createMusicTestApp({}, { keyPrefix });
    b = await createMusicTestApp({}, { keyPrefix });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it.each(SCOPES)('$name: burst+1 admitted, the next refused with 429 and Retry-After', async (scope) => {
    const remoteAddress = freshAddress();
    for (let i = 0; i < scope.burst + 1; i++) {
      const res = await a.app.inject({ ...scope.request, remoteAddress });
      expect(res.statusCode, `request ${i + 1}`).not.toBe(429);
    }
    const refused = await a.app.inject({ ...scope.request, remoteAddress });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(scope.intervalSeconds));
    expect(refused.json()).toMatchObject({ status: 429 });
    // A refused request consumes nothing: still refused, same wait (within a second).
    const again = await a.app.inject({ ...scope.request, remoteAddress });
    expect(again.statusCode).toBe(429);
    // Another client is unaffected.
    expect((await a.app.inject({ ...scope.request, remoteAddress: freshAddress() })).statusCode).not.toBe(
      429,
    );
  });

  it('scopes are separate buckets: exhausting auth leaves the rest of /api/ open', async () => {
    const remoteAddress = freshAddress();
    const auth = SCOPES[0]!;
    for (let i = 0; i < auth.burst + 1; i++) await a.app.inject({ ...auth.request, remoteAddress });
    expect((await a.app.inject({ ...auth.request, remoteAddress })).statusCode).toBe(429);
    expect(
      (await a.app.inject({ method: 'GET', url: '/api/v1/health/ready', remoteAddress })).statusCode,
    ).not.toBe(429);
  });

  it.each(SCOPES)('$name: the limit is shared between two API instances on the same Redis', async (scope) => {
    const remoteAddress = freshAddress();
    for (let i = 0; i < scope.burst + 1; i++) {
      const app = i % 2 === 0 ? a.app : b.app;
      expect((await app.inject({ ...scope.request, remoteAddress })).statusCode, `request ${i + 1}`).not.toBe(
        429,
      );
    }
    expect((await b.app.inject({ ...scope.request, remoteAddress })).statusCode).toBe(429);
    expect((await a.app.inject({ ...scope.request, remoteAddress })).statusCode).toBe(429);
  });

  it('does not limit media, the web front-end or metrics', async () => {
    const remoteAddress = freshAddress();
    for (let i = 0; i < 30; i++) {
      expect((await a.app.inject({ url: '/some/page', remoteAddress })).statusCode).toBe(200);
    }
  });

  it('RATE_LIMITS=off turns every limiter off', async () => {
    const off = await createMusicTestApp({ RATE_LIMITS: 'off' });
    try {
      const remoteAddress = freshAddress();
      for (let i = 0; i < 6; i++) {
        expect((await off.app.inject({ ...SCOPES[0]!.request, remoteAddress })).statusCode).not.toBe(429);
      }
    } finally {
      await off.close();
    }
  });
});

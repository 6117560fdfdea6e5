/**
 * The seed's three rate-limit scopes, nginx limit_req semantics (burst + nodelay) in Redis:
 * an idle client gets burst+1 requests, the next is a 429 with Retry-After; the state is
 * shared by every instance on the same Redis.
 */
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerRateLimits } from '../src/core/rate-limit/plugin.js';
import { RedisRateLimitStore } from '../src/core/repositories/redis-rate-limit-store.js';
import { createRedis } from '../src/core/repositories/redis.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { testKeyPrefix } from './helpers/music-env.js';
import { rawHttp } from './helpers/raw-http.js';

interface Scope {
  name: string;
  burst: number;
  intervalSeconds: number;
  request: { method: 'GET' | 'POST' | 'PUT'; url: string; payload?: object };
}

const SCOPES: Scope[] = [
  {
    name: 'auth',
    burst: 3,
    intervalSeconds: 60 / 5,
    // Not a login: the same login name from every test would meet that account's failure backoff.
    request: { method: 'POST', url: '/api/v1/auth/password-reset', payload: { email: 'x@example.org' } },
  },
  {
    name: 'api',
    burst: 20,
    intervalSeconds: 60 / 100,
    // A cheap request (401 without a token, no database): 21 of them fit well inside one 0.6 s interval.
    request: { method: 'GET', url: '/api/v1/users/me' },
  },
  {
    name: 'comments',
    burst: 5,
    intervalSeconds: 3600 / 20,
    // Posting a comment (401 without a token, after the limiter counted it); reads are the api scope's.
    request: { method: 'POST', url: '/api/v1/comments', payload: { track_id: 'x', body: 'hi' } },
  },
  {
    // Its own scope: a 500 MB upload at 5 MiB parts is 100 PUTs, past the api scope's burst.
    name: 'upload-parts',
    burst: 100,
    intervalSeconds: 1,
    request: { method: 'PUT', url: '/api/v1/upload/multipart/6f1c2a3e-0000-4000-8000-000000000001/parts/1' },
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

  it('reading comments spends the api scope; only posting and editing spend the comments allowance', async () => {
    const remoteAddress = freshAddress();
    const statusOf = async (request: Scope['request']) =>
      (await a.app.inject({ ...request, remoteAddress })).statusCode;
    const read = { method: 'GET', url: '/api/v1/comments?track_id=x' } as const;
    for (let i = 0; i < 7; i++) expect(await statusOf(read), `read ${i + 1}`).not.toBe(429);
    const post = SCOPES.find((s) => s.name === 'comments')!.request;
    for (let i = 0; i < 6; i++) expect(await statusOf(post), `post ${i + 1}`).not.toBe(429);
    const edit = await a.app.inject({
      method: 'PATCH',
      url: '/api/v1/comments/6f1c2a3e-0000-4000-8000-000000000001',
      payload: { body: 'edited' },
      remoteAddress,
    });
    expect(edit.statusCode).toBe(429);
    expect(edit.json().detail).toMatch(/"comments" scope/);
    // Reads go on: the 8th is well inside the api scope's burst.
    expect(await statusOf(read)).not.toBe(429);
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
    // b refusing after only half the requests went through it is the sharing; a further check on a
    // would race the 0.6 s refill of the api scope on a loaded machine.
  });

  it('does not limit media, the web front-end or metrics', async () => {
    const remoteAddress = freshAddress();
    for (let i = 0; i < 30; i++) {
      expect((await a.app.inject({ url: '/some/page', remoteAddress })).statusCode).toBe(200);
    }
  });

  it('does not limit the health probes', async () => {
    const remoteAddress = freshAddress();
    for (let i = 0; i < 30; i++) {
      for (const url of ['/api/v1/health', '/api/v1/health/ready', '/metrics']) {
        expect((await a.app.inject({ url, remoteAddress })).statusCode, `${url} #${i + 1}`).not.toBe(429);
      }
    }
    // The health exemption is not a hole in the api scope: the limit still holds next to it.
    for (let i = 0; i < 21; i++) await a.app.inject({ url: '/api/v1/users/me', remoteAddress });
    expect((await a.app.inject({ url: '/api/v1/users/me', remoteAddress })).statusCode).toBe(429);
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

/**
 * Other spellings of a limited path (percent-encoded, doubled slashes, dot segments) sent raw
 * over HTTP once the scope is exhausted: each is still refused, whether the router routes it
 * to the same handler or not.
 */
const DISGUISES: { scope: Scope; spellings: string[] }[] = [
  {
    scope: SCOPES[0]!,
    spellings: [
      '/%61pi/v1/auth/login',
      '/api/v1/%61uth/login',
      '/api/v1/auth/%6Cogin',
      '//api/v1/auth/login',
      '/api//v1/auth/login',
      '/api/v1/./auth/login',
      '/api/v1/x/../auth/login',
    ],
  },
  {
    scope: SCOPES[1]!,
    spellings: ['/%61pi/v1/users/me', '/api/v1/%75sers/me', '//api/v1/users/me', '/api/./v1/users/%6De'],
  },
  {
    scope: SCOPES[2]!,
    spellings: [
      '/api/v1/%63omments?track_id=x',
      '/%61pi/v1/comments?track_id=x',
      '/api//v1/comments?track_id=x',
      '/api/v1/x/../comments?track_id=x',
    ],
  },
];

describe('rate-limit scopes match the routed path, not the raw URL', () => {
  it.each(DISGUISES)(
    '$scope.name: encoded, doubled-slash and dot-segment spellings stay limited',
    async ({ scope, spellings }) => {
      const t = await createMusicTestApp();
      try {
        await t.app.listen({ port: 0, host: '127.0.0.1' });
        const port = (t.app.server.address() as AddressInfo).port;
        const { method, url, payload } = scope.request;
        const send = (path: string) =>
          rawHttp(port, method, path, payload ? { body: JSON.stringify(payload) } : {});
        for (let i = 0; i < scope.burst + 1; i++) expect((await send(url)).status).not.toBe(429);
        expect((await send(url)).status).toBe(429);
        for (const spelling of spellings) expect((await send(spelling)).status, spelling).toBe(429);
      } finally {
        await t.close();
      }
    },
  );
});

describe('limiter outage', () => {
  it('limits in this process alone when Redis is down, and logs the outage once per interval', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const redis = createRedis('redis://127.0.0.1:1');
    const logger: FastifyBaseLogger = pino({ level: 'warn' }, sink);
    const app = Fastify({ loggerInstance: logger });
    registerRateLimits(app, {
      store: new RedisRateLimitStore(redis, 'unused:'),
      scopes: [{ name: 'all', match: () => true, ratePerSecond: 0.05, burst: 0 }],
      clientAddress: () => 'client',
      failureLogIntervalMs: 60_000,
    });
    app.get('/x', (_request, reply) => reply.send('ok'));
    try {
      const started = Date.now();
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await app.inject('/x')).statusCode);
      // One per 20 s, burst 0: the local fallback admits the first and refuses the rest.
      expect(statuses).toEqual([200, 429, 429, 429, 429]);
      // Each request waits at most the factory's command timeout, not ioredis' retry cycle.
      expect(Date.now() - started).toBeLessThan(5 * 1000);
      const outageLines = lines.filter((l) => l.includes('rate limiter store unavailable'));
      expect(outageLines).toHaveLength(1);
    } finally {
      await app.close();
      redis.disconnect();
    }
  });
});

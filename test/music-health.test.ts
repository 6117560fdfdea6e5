/** Health and readiness with real checks of PostgreSQL, Redis and the object store; /metrics. */
import { createServer } from 'node:net';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { s3Settings, uniqueSuffix } from './helpers/music-env.js';

/** A port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('health', () => {
  it('is 200 with three healthy checks when everything is up (filesystem store)', async () => {
    const t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    try {
      const res = await t.app.inject({ url: '/api/v1/health' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.status).toBe('healthy');
      expect(body.checks).toEqual([
        { service: 'database', healthy: true },
        { service: 'cache', healthy: true },
        { service: 'object-store', healthy: true },
      ]);
      expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
      const ready = await t.app.inject({ url: '/api/v1/health/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json().status).toBe('ready');
    } finally {
      await t.close();
    }
  });

  it('is 200 with the S3 store (s3rver) too', async () => {
    const s3 = s3Settings(`h${uniqueSuffix()}-`);
    const t = await createMusicTestApp({
      RATE_LIMITS: 'off',
      OBJECT_STORE_ENDPOINT: s3.endpoint,
      OBJECT_STORE_ROOT_USER: s3.accessKeyId,
      OBJECT_STORE_ROOT_PASSWORD: s3.secretAccessKey,
      OBJECT_STORE_BUCKET_PREFIX: s3.bucketPrefix,
    });
    try {
      const res = await t.app.inject({ url: '/api/v1/health' });
      expect(res.json().checks).toContainEqual({ service: 'object-store', healthy: true });
      expect(res.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('is 503 with the cache check unhealthy and its error when Redis is unreachable', async () => {
    const port = await closedPort();
    const t = await createMusicTestApp({ RATE_LIMITS: 'off', CACHE_URL: `redis://127.0.0.1:${port}` });
    try {
      const res = await t.app.inject({ url: '/api/v1/health' });
      expect(res.statusCode).toBe(503);
      const body = res.json();
      expect(body.status).toBe('unhealthy');
      const cache = body.checks.find((c: { service: string }) => c.service === 'cache');
      expect(cache.healthy).toBe(false);
      expect(cache.error).toEqual(expect.any(String));
      expect(cache.error.length).toBeGreaterThan(0);
      expect(body.checks.find((c: { service: string }) => c.service === 'database')).toEqual({
        service: 'database',
        healthy: true,
      });
      const ready = await t.app.inject({ url: '/api/v1/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().status).toBe('not_ready');
    } finally {
      await t.close();
    }
  });

  it('is 503 with the database check unhealthy when PostgreSQL is unreachable', async () => {
    const port = await closedPort();
    const t = await createMusicTestApp({
      RATE_LIMITS: 'off',
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/none`,
    });
    try {
      const res = await t.app.inject({ url: '/api/v1/health' });
      expect(res.statusCode).toBe(503);
      const db = res.json().checks.find((c: { service: string }) => c.service === 'database');
      expect(db).toMatchObject({ healthy: false, error: expect.any(String) });
    } finally {
      await t.close();
    }
  });

  it('is 503 with the object-store check unhealthy when its root is gone', async () => {
    const t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    try {
      await rm(join(t.config.dataDir, 'objects', 'waveforms'), { recursive: true, force: true });
      const res = await t.app.inject({ url: '/api/v1/health' });
      expect(res.statusCode).toBe(503);
      const store = res.json().checks.find((c: { service: string }) => c.service === 'object-store');
      expect(store.healthy).toBe(false);
      expect(store.error).toMatch(/^waveforms: /);
    } finally {
      await t.close();
    }
  });
});

describe('metrics', () => {
  let t: MusicTestApp;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
  });
  afterAll(async () => t.close());

  it('counts requests by route template and exposes the duration histogram buckets', async () => {
    await t.app.inject({ url: '/api/v1/users/nobody_at_all' });
    await t.app.inject({ url: '/api/v1/users/someone_else' });
    const res = await t.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toContain(
      'http_requests_total{method="GET",route="/api/v1/users/:handle",status="404"} 2',
    );
    for (const le of ['0.1', '0.5', '1', '2', '5', '+Inf']) {
      expect(res.body).toContain(
        `http_request_duration_seconds_bucket{le="${le}",method="GET",route="/api/v1/users/:handle"}`,
      );
    }
    expect(res.body).not.toContain('nobody_at_all');
  });
});

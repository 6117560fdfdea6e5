/**
 * Operational surfaces (issue 30, item 8): /metrics of the api and the worker answers only the
 * configured scrapers (loopback by default, METRICS_SCRAPERS for a scrape network), straight, not
 * through a proxy; the worker listens on loopback by default and its every answer carries the
 * api's security headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders } from '../src/core/security-headers.js';
import { loadMusicConfig } from '../src/music/config.js';
import { loadWorkerConfig } from '../src/music/worker-config.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { createWorkerTestApp, type WorkerTestApp } from './helpers/worker-app.js';

describe('music-api /metrics', () => {
  let t: MusicTestApp;
  let scrapeNet: MusicTestApp;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    scrapeNet = await createMusicTestApp({ RATE_LIMITS: 'off', METRICS_SCRAPERS: '10.9.0.0/16, 192.0.2.7' });
  });
  afterAll(async () => {
    await t?.close();
    await scrapeNet?.close();
  });

  const metrics = (app: MusicTestApp, remoteAddress: string, headers: Record<string, string> = {}) =>
    app.app.inject({ url: '/metrics', remoteAddress, headers });

  it('answers loopback by default, and nobody else', async () => {
    for (const peer of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'])
      expect((await metrics(t, peer)).statusCode, peer).toBe(200);
    for (const peer of ['203.0.113.9', '10.9.1.1', '::ffff:203.0.113.9', 'fd00::1']) {
      const res = await metrics(t, peer);
      expect(res.statusCode, peer).toBe(403);
      expect(res.json().detail).toMatch(/METRICS_SCRAPERS/);
      expect(res.body).not.toContain('http_requests_total');
    }
    // A request relayed by a proxy on this machine is not a scraper.
    expect((await metrics(t, '127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(403);
    expect((await metrics(t, '127.0.0.1', { forwarded: 'for=203.0.113.9' })).statusCode).toBe(403);
  });

  it('METRICS_SCRAPERS names the scrape network instead', async () => {
    expect((await metrics(scrapeNet, '10.9.1.1')).statusCode).toBe(200);
    expect((await metrics(scrapeNet, '192.0.2.7')).statusCode).toBe(200);
    expect((await metrics(scrapeNet, '10.10.1.1')).statusCode).toBe(403);
    expect((await metrics(scrapeNet, '127.0.0.1')).statusCode).toBe(403);
  });

  it('a bad METRICS_SCRAPERS entry stops the start with a message naming it', () => {
    expect(() => loadMusicConfig({ NODE_ENV: 'test', METRICS_SCRAPERS: '10.0.0.0/99' })).toThrow(
      /METRICS_SCRAPERS: "10\.0\.0\.0\/99" is not a CIDR range/,
    );
  });
});

describe('music-worker HTTP surface', () => {
  let worker: WorkerTestApp;
  beforeAll(async () => {
    worker = await createWorkerTestApp({
      domain: 'music.example.org',
      metricsScrapers: loadMusicConfig({ NODE_ENV: 'test' }).metricsScrapers,
    });
  });
  afterAll(() => worker?.close());

  it('listens on loopback unless told otherwise', () => {
    expect(loadWorkerConfig({}).host).toBe('127.0.0.1');
    expect(loadWorkerConfig({ WORKER_HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it("every answer carries the api's security headers; /metrics only for scrapers", async () => {
    const expected = securityHeaders('music.example.org');
    const answers = await Promise.all([
      worker.app.inject({ url: '/health' }),
      worker.app.inject({ url: '/metrics' }),
      worker.app.inject({ url: '/metrics', remoteAddress: '203.0.113.9' }),
      worker.app.inject({ url: '/nowhere' }),
      worker.app.inject({ method: 'POST', url: '/health', payload: 'x'.repeat(5000) }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 403, 404, expect.any(Number)]);
    for (const res of answers)
      for (const [name, value] of Object.entries(expected))
        expect(res.headers[name], `${res.statusCode} ${name}`).toBe(value);
  });
});

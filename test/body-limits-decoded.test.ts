/**
 * The shared app factory (both services) counts each route's own body limit on the DECODED
 * size of a compressed body, so per-route limits (JSON routes small, uploads large) hold
 * whatever the Content-Encoding.
 */
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBaseApp } from '../src/core/app.js';
import { createHttpMetrics } from '../src/core/metrics.js';

let app: FastifyInstance;

beforeAll(async () => {
  app = buildBaseApp({
    logger: false,
    bodyLimit: 64 * 1024,
    metrics: createHttpMetrics({ defaultMetrics: false }),
  });
  const echo = (request: { body: unknown }) =>
    Promise.resolve({ keys: Object.keys(request.body as object).length });
  app.post('/small', { bodyLimit: 2048 }, echo);
  app.post('/default', echo);
  await app.ready();
});
afterAll(async () => app.close());

/** A JSON object of about `bytes` bytes that deflates to a few hundred. */
const padded = (bytes: number): string => JSON.stringify({ pad: ' '.repeat(bytes) });

const send = (url: string, encoding: 'gzip' | 'deflate' | 'br', text: string) => {
  const body =
    encoding === 'gzip'
      ? zlib.gzipSync(text)
      : encoding === 'deflate'
        ? zlib.deflateSync(text)
        : zlib.brotliCompressSync(text);
  return app.inject({ method: 'POST', url, payload: body, headers: { 'content-encoding': encoding } });
};

describe('decoded-size body limits', () => {
  it.each(['gzip', 'deflate', 'br'] as const)(
    '%s: each route its own limit, on the decoded size',
    async (enc) => {
      expect((await send('/small', enc, padded(1500))).statusCode).toBe(200);
      const over = await send('/small', enc, padded(3000));
      expect(over.statusCode).toBe(413);
      expect(over.json().detail).toMatch(/limit of 2048 bytes/);
      // The same body is within the app's default limit on another route.
      expect((await send('/default', enc, padded(3000))).statusCode).toBe(200);
      expect((await send('/default', enc, padded(70_000))).statusCode).toBe(413);
    },
  );
});

/**
 * Clients as they really are, over a real listener: any declared content type, compressed
 * request bodies (gzip, deflate, br) with the limit on the decoded size, compressed answers,
 * and receipts that are byte-identical however the request was sent.
 */
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { TOOLS } from '../src/eval/registry.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvalApp } from './helpers/eval-app.js';
import { encodeBody, listenLocal, rawRequest, type RawAnswer } from './helpers/raw-http.js';

let app: FastifyInstance;
let base: string;
let tools: { id: string; endpoint: string }[];
let examples: Record<string, unknown>;

beforeAll(async () => {
  app = await makeEvalApp();
  base = await listenLocal(app);
  tools = ((await rawRequest(`${base}/api/catalog`)).json() as { tools: typeof tools }).tools;
  examples = ((await rawRequest(`${base}/api/examples`)).json() as { examples: typeof examples }).examples;
});
afterAll(async () => {
  await app.close();
});

const post = (path: string, body: Buffer | string, headers: Record<string, string> = {}) =>
  rawRequest(base + path, { method: 'POST', body, headers });

const problem = (res: RawAnswer) => res.json() as { code: string; detail: string; hint?: string };

describe('any declared content type is read as JSON', () => {
  const declared: [string, Record<string, string>][] = [
    ['curl -d (form-urlencoded)', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['text/plain', { 'content-type': 'text/plain' }],
    ['no content type', {}],
    ['application/json; charset=utf-8', { 'content-type': 'application/json; charset=utf-8' }],
    ['application/json', { 'content-type': 'application/json' }],
  ];

  it.each(declared)('%s: 200 and the same receipt as application/json', async (_label, headers) => {
    const body = JSON.stringify(examples.gate);
    const reference = await post('/api/gate', body, { 'content-type': 'application/json' });
    const res = await post('/api/gate', body, headers);
    expect(res.status, res.text()).toBe(200);
    expect(res.body.equals(reference.body)).toBe(true);
  });

  it('answers a body that is not JSON with 400 problem+json and the examples hint', async () => {
    const res = await post('/api/gate', 'baseline=a&candidate=b', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(problem(res)).toMatchObject({
      code: 'invalid_json',
      hint: expect.stringMatching(/GET \/api\/examples/),
    });
    expect(problem(res).detail).toMatch(/not valid JSON/);
  });
});

describe('compressed request bodies', () => {
  const encodings = ['gzip', 'deflate', 'br'] as const;

  it('gives every tool the byte-identical receipt whether the request is sent plain or compressed', async () => {
    expect(tools.map((t) => t.id)).toEqual(TOOLS.map((t) => t.id));
    for (const tool of tools) {
      const body = JSON.stringify(examples[tool.id]);
      const plain = await post(tool.endpoint, body, { 'content-type': 'application/json' });
      expect(plain.status, `${tool.id}: ${plain.text().slice(0, 200)}`).toBe(200);
      for (const encoding of encodings) {
        const res = await post(tool.endpoint, encodeBody(encoding, body), {
          'content-encoding': encoding,
          'content-type': 'application/x-www-form-urlencoded',
        });
        expect(res.status, `${tool.id} ${encoding}: ${res.text().slice(0, 200)}`).toBe(200);
        expect(res.body.equals(plain.body), `${tool.id} ${encoding}`).toBe(true);
      }
    }
  });

  it('answers an unknown encoding with 415 naming the accepted ones', async () => {
    const res = await post('/api/gate', JSON.stringify(examples.gate), { 'content-encoding': 'zstd-ish' });
    expect(res.status).toBe(415);
    expect(problem(res).detail).toMatch(/gzip, deflate, br/);
    expect(res.headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(problem(res).hint).toMatch(/examples/);
  });

  it('answers bytes that are not what Content-Encoding says with 400', async () => {
    const res = await post('/api/gate', JSON.stringify(examples.gate), { 'content-encoding': 'gzip' });
    expect(res.status).toBe(400);
    expect(problem(res).detail).toMatch(/not valid gzip data/);
  });

  it('applies the body limit to the decoded size, not the compressed one', async () => {
    const small = await makeEvalApp({ EVAL_BODY_LIMIT: '4kb' });
    const smallBase = await listenLocal(small);
    try {
      // Valid JSON of ~20 KB that gzips to well under the 4 KB limit.
      const body = JSON.stringify({ ...(examples.gate as object), pad: ' '.repeat(20_000) });
      const packed = zlib.gzipSync(body);
      expect(packed.length).toBeLessThan(4096);
      const res = await rawRequest(`${smallBase}/api/gate`, {
        method: 'POST',
        body: packed,
        headers: { 'content-encoding': 'gzip' },
      });
      expect(res.status).toBe(413);
      expect(problem(res).detail).toMatch(/decompressed size/);
      // Under the limit once decoded: accepted.
      const ok = await rawRequest(`${smallBase}/api/gate`, {
        method: 'POST',
        body: zlib.gzipSync(JSON.stringify(examples.gate)),
        headers: { 'content-encoding': 'gzip' },
      });
      expect(ok.status).toBe(200);
    } finally {
      await small.close();
    }
  });
});

/** ~2 GB of zeros as brotli: about 390 KB on the wire. */
async function brotliBomb(gigabytes: number): Promise<Buffer> {
  const zeros = Buffer.alloc(16 << 20);
  const encoder = zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });
  const out: Buffer[] = [];
  encoder.on('data', (c: Buffer) => out.push(c));
  for (let i = 0; i < gigabytes * 64; i++) {
    if (!encoder.write(zeros)) await once(encoder, 'drain');
  }
  encoder.end();
  await once(encoder, 'end');
  return Buffer.concat(out);
}

/** gzip members concatenated (RFC 1952 allows it): each 16 KB member inflates to 16 MB. */
function gzipBomb(members: number): Buffer {
  const member = zlib.gzipSync(Buffer.alloc(16 << 20), { level: 9 });
  return Buffer.concat(Array.from({ length: members }, () => member));
}

describe('decompression bombs', () => {
  it.each([
    ['br', () => brotliBomb(2)],
    ['gzip', () => Promise.resolve(gzipBomb(20))],
  ] as const)(
    '%s: 413 within a second, memory bounded, /api/health answering meanwhile',
    async (encoding, build) => {
      const bomb = await build();
      expect(bomb.length).toBeLessThan(1 << 20);
      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      }, 5);
      try {
        const started = performance.now();
        const answer = post('/api/gate', bomb, { 'content-encoding': encoding });
        // Health is asked while the bomb is being read; it must not wait for it.
        const health = await rawRequest(`${base}/api/health`);
        const healthMs = performance.now() - started;
        const res = await answer;
        const bombMs = performance.now() - started;
        expect(health.status).toBe(200);
        expect(healthMs).toBeLessThan(1000);
        expect(res.status).toBe(413);
        expect(problem(res).code).toBe('payload_too_large');
        expect(bombMs).toBeLessThan(1000);
      } finally {
        clearInterval(sampler);
      }
      // The default limit is 16 MB; the bomb inflates to 320 MB (gzip) or 2 GB (br).
      expect(rssPeak - rssBefore).toBeLessThan(128 << 20);
    },
  );
});

describe('compressed answers', () => {
  it('compresses a big receipt with br or gzip as the client accepts, with Vary', async () => {
    const cohort = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`item-${i}`, i % 3 === 0]));
    const body = JSON.stringify({ baseline: cohort, candidate: { ...cohort, 'item-1': true } });
    const plain = await post('/api/gate', body);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const [accept, expected] of [
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
    ] as const) {
      const res = await post('/api/gate', body, { 'accept-encoding': accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(expected);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.wire.length).toBeLessThan(plain.wire.length / 5);
      expect(res.body.equals(plain.body)).toBe(true);
    }
  });

  it('leaves answers under the threshold as they are', async () => {
    const res = await rawRequest(`${base}/api/health`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.status).toBe(200);
    expect(res.wire.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('compresses both ways at once: a br request answered with gzip', async () => {
    const body = JSON.stringify(examples.replay);
    const plain = await post('/api/replay', body);
    const res = await new Promise<{ status: number; encoding?: string; body: Buffer }>((resolve, reject) => {
      const req = httpRequest(
        `${base}/api/replay`,
        { method: 'POST', headers: { 'content-encoding': 'br', 'accept-encoding': 'gzip' } },
        (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () =>
            resolve({
              status: r.statusCode ?? 0,
              encoding: r.headers['content-encoding'],
              body: Buffer.concat(chunks),
            }),
          );
        },
      );
      req.on('error', reject);
      // Chunked (no Content-Length), as a streaming client sends it.
      req.end(encodeBody('br', body));
    });
    expect(res.status).toBe(200);
    const decoded = res.encoding === 'gzip' ? zlib.gunzipSync(res.body) : res.body;
    expect(decoded.equals(plain.body)).toBe(true);
  });
});

/**
 * The edge of music-api before and around routing: the 500 MB body limit, the web front-end for
 * every other path, 405 on a wrong method, and the answers made before any route runs.
 */
import { connect as netConnect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { rawHttp } from './helpers/raw-http.js';

import { expectSeedHeaders } from './helpers/seed-headers.js';

describe('body limit and web front-end', () => {
  let t: MusicTestApp;
  let port: number;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t.close());

  it('answers 413 to a body announced over 500 MB, before reading it', async () => {
    const res = await rawHttp(port, 'POST', '/api/v1/auth/signup', {
      headers: { 'content-type': 'application/json', 'content-length': 500 * 1024 * 1024 + 1 },
      headersOnly: true,
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ status: 413 });
  });

  it('accepts a body at the limit up to the parser (not a 413)', async () => {
    // A small body on the same route shows the 413 above came from the size alone.
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signup', payload: { handle: 'x' } });
    expect(res.statusCode).toBe(400);
  });

  it('serves the web index page for every other path, never an error', async () => {
    for (const path of ['/', '/tracks/123', '/u/alice/likes?tab=2', '/deep/a/b/c.html', '/media/other']) {
      const res = await t.app.inject({ url: path });
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('<!doctype html>');
    }
  });

  it('keeps unknown API paths a JSON 404 problem', async () => {
    const res = await t.app.inject({ url: '/api/v1/not-an-endpoint' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});

describe('wrong method on an existing path', () => {
  let t: MusicTestApp;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off', DOMAIN: 'music.example.org' });
  });
  afterAll(async () => t.close());

  it('is a 405 problem with Allow listing the methods the path has', async () => {
    const cases: [string, string, string][] = [
      ['GET', '/api/v1/auth/login', 'POST'],
      ['GET', '/api/v1/tracks', 'POST'],
      ['PUT', '/api/v1/tracks/0b6f5a8e-4d8e-4a57-9d0e-2b1f6c3a9e10', 'DELETE, GET, HEAD, PATCH'],
      ['DELETE', '/api/v1/tracks/x/versions', 'GET, HEAD, POST'],
      ['PUT', '/api/v1/users/somebody', 'GET, HEAD'],
      ['POST', '/media/hls/v/master.m3u8', 'GET, HEAD'],
      ['POST', '/api/v1/health', 'GET, HEAD'],
    ];
    for (const [method, url, allow] of cases) {
      const res = await t.app.inject({ method: method as 'GET', url });
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.headers.allow, `${method} ${url}`).toBe(allow);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json()).toMatchObject({ status: 405, code: 'method_not_allowed' });
      expect(res.json<{ detail: string }>().detail).toContain(allow);
      expectSeedHeaders(res.headers, `${method} ${url}`);
    }
  });

  it('keeps unknown paths a 404 (API) or the web page (GET elsewhere)', async () => {
    expect((await t.app.inject({ method: 'DELETE', url: '/api/v1/nothing' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/tracks/123' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/tracks/123' })).statusCode).toBe(200);
  });
});

/** Writes `request` on a plain TCP connection and reads the whole answer until the server closes. */
function rawSocket(
  port: number,
  request: string | Buffer,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host: '127.0.0.1', port }, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString();
      const split = raw.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = raw.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: raw.slice(split + 4) });
    });
  });
}

describe('answers made before routing', () => {
  let t: MusicTestApp;
  let port: number;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off', DOMAIN: 'music.example.org' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t.close());

  function expectProblem(
    res: { status: number; headers: Record<string, string>; body: string },
    status: number,
    what: string,
  ): void {
    expect(res.status, what).toBe(status);
    expect(res.headers['content-type'], what).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(res.body), what).toMatchObject({ status });
    expect(Number(res.headers['content-length']), what).toBe(Buffer.byteLength(res.body));
    expectSeedHeaders(res.headers, what);
  }

  it('bad percent-encoding in the path (/images/%ff) is a 400 problem with the security headers', async () => {
    const res = await rawSocket(
      port,
      'GET /images/%ff HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    );
    expectProblem(res, 400, '/images/%ff');
    expect(JSON.parse(res.body).detail).toMatch(/percent-encoding/);
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('headers over the size limit are a 431 problem with the security headers', async () => {
    const big = 'x'.repeat(20 * 1024);
    const res = await rawSocket(
      port,
      `GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${big}\r\n\r\n`,
    );
    expectProblem(res, 431, '431');
    expect(res.headers.connection).toBe('close');
  });

  it('a malformed request line is a 400 problem with the security headers', async () => {
    for (const line of ['GARBAGE\r\n\r\n', 'GET / HTTP/9.Z\r\nHost: x\r\n\r\n', 'G@T / HTTP/1.1\r\n\r\n']) {
      const res = await rawSocket(port, line);
      expectProblem(res, 400, JSON.stringify(line));
    }
  });

  it('the server still answers normally on a new connection afterwards', async () => {
    const res = await rawSocket(
      port,
      'GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    );
    expect(res.status).toBe(200);
  });
});

/** ffmpeg HLS (fMP4) of a short test picture with sound: one rendition that carries video. */

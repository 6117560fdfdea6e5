/**
 * The edge of music-api: the seed's security headers on every kind of response, and TLS 1.2/1.3
 * only with a port-80 style listener answering 301.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders } from '../src/core/security-headers.js';
import { createHttpsRedirectServer } from '../src/music/https-redirect.js';
import { signedUrl } from '../src/music/services/secure-link.js';
import { TLS_VERSIONS } from '../src/music/tls.js';
import {
  createMusicTestApp,
  publishTestHls,
  TEST_SECURE_LINK_SECRET,
  type MusicTestApp,
} from './helpers/music-app.js';
import { rawHttp } from './helpers/raw-http.js';

import { expectSeedHeaders, SEED_HEADERS } from './helpers/seed-headers.js';

describe('security headers', () => {
  let t: MusicTestApp;
  let version: string;
  beforeAll(async () => {
    t = await createMusicTestApp({ DOMAIN: 'music.example.org' });
    version = await publishTestHls(t.connections.stores.transcodes);
  });
  afterAll(async () => t.close());

  it('are on an API response, a media response and error responses, with the seed values', async () => {
    const api = await t.app.inject({ url: '/api/v1/health' });
    expect(api.statusCode).toBe(200);
    expectSeedHeaders(api.headers, 'API');

    const media = await t.app.inject({
      url: signedUrl(`/media/hls/${version}/r0/seg0.m4s`, TEST_SECURE_LINK_SECRET, 60, Date.now() / 1000),
    });
    expect(media.statusCode).toBe(200);
    // Stored bytes carry the media-only policy instead of the page's (issue 30, item 1).
    expectSeedHeaders(
      { ...media.headers, 'content-security-policy': SEED_HEADERS['content-security-policy'] },
      'media',
    );
    expect(media.headers['content-security-policy']).toBe("sandbox; default-src 'none'");

    const forbidden = await t.app.inject({ url: `/media/hls/${version}/master.m3u8` });
    expect(forbidden.statusCode).toBe(403);
    expectSeedHeaders(forbidden.headers, 'media 403');

    const invalid = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signup', payload: {} });
    expect(invalid.statusCode).toBe(400);
    expectSeedHeaders(invalid.headers, 'error 400');

    const missing = await t.app.inject({ method: 'DELETE', url: '/api/v1/nothing' });
    expect(missing.statusCode).toBe(404);
    expectSeedHeaders(missing.headers, 'error 404');

    const web = await t.app.inject({ url: '/tracks/anything' });
    expectSeedHeaders(web.headers, 'web');
  });

  it('are on the 301 of the HTTP listener', async () => {
    const server = createHttpsRedirectServer({
      domain: 'music.example.org',
      httpsPort: 443,
      headers: securityHeaders('music.example.org'),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await rawHttp((server.address() as AddressInfo).port, 'GET', '/x');
      expectSeedHeaders(res.headers, 'redirect');
    } finally {
      server.close();
    }
  });
});

describe('TLS', () => {
  let dir: string;
  let t: MusicTestApp;
  let port: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tls-'));
    await promisify(execFile)('openssl', [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost'],
      ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
    ]);
    const https = {
      key: await readFile(join(dir, 'key.pem')),
      cert: await readFile(join(dir, 'cert.pem')),
      ...TLS_VERSIONS,
    };
    t = await createMusicTestApp({ RATE_LIMITS: 'off' }, { https });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Handshake with the given client settings; the negotiated protocol, or the error. */
  function handshake(options: ConnectionOptions): Promise<{ protocol: string | null } | { error: string }> {
    return new Promise((resolve) => {
      const socket = tlsConnect({
        host: '127.0.0.1',
        port,
        rejectUnauthorized: false,
        servername: 'localhost',
        ...options,
      });
      socket.once('secureConnect', () => {
        const protocol = socket.getProtocol();
        socket.end();
        resolve({ protocol });
      });
      socket.once('error', (err) => resolve({ error: err.message }));
    });
  }

  it('refuses a TLS 1.1 client', async () => {
    // SECLEVEL=0 lets this client really offer TLS 1.1 (OpenSSL 3 disables it by default).
    const result = await handshake({
      minVersion: 'TLSv1.1',
      maxVersion: 'TLSv1.1',
      ciphers: 'DEFAULT@SECLEVEL=0',
    });
    expect(result).toHaveProperty('error');
    expect((result as { error: string }).error).toMatch(/protocol version|unsupported protocol|alert/i);
  });

  it('serves TLS 1.3 and TLS 1.2 clients', async () => {
    expect(await handshake({ minVersion: 'TLSv1.3', maxVersion: 'TLSv1.3' })).toEqual({
      protocol: 'TLSv1.3',
    });
    expect(await handshake({ minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' })).toEqual({
      protocol: 'TLSv1.2',
    });
  });

  it('answers an HTTPS request over TLS 1.3 with the seed headers', async () => {
    const body = await new Promise<{
      status: number;
      headers: Record<string, unknown>;
      text: string;
      protocol: string | null;
    }>((resolve, reject) => {
      const socket = tlsConnect(
        {
          host: '127.0.0.1',
          port,
          rejectUnauthorized: false,
          minVersion: 'TLSv1.3',
          servername: 'localhost',
        },
        () => {
          socket.write('GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
        },
      );
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('error', reject);
      socket.on('end', () => {
        const raw = Buffer.concat(chunks).toString();
        const [head = '', text = ''] = raw.split('\r\n\r\n');
        const [statusLine, ...lines] = head.split('\r\n');
        const headers = Object.fromEntries(
          lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
        );
        resolve({ status: Number(statusLine?.split(' ')[1]), headers, text, protocol: socket.getProtocol() });
      });
    });
    expect(body.protocol).toBe('TLSv1.3');
    expect(body.status).toBe(200);
    expect(body.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});

describe('HTTP listener when TLS is on', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createHttpsRedirectServer({
      domain: 'music.example.org',
      httpsPort: 8443,
      headers: securityHeaders('music.example.org'),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers 301 with the https Location of the same host, path and query', async () => {
    const res = await rawHttp(port, 'GET', '/api/v1/health?x=1', { headers: { host: 'music.example.org' } });
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('https://music.example.org:8443/api/v1/health?x=1');
  });

  it('uses DOMAIN, not the Host header, when the Host names another site', async () => {
    const res = await rawHttp(port, 'GET', '/login', { headers: { host: 'evil.example.com' } });
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('https://music.example.org:8443/login');
  });

  it('falls back to DOMAIN when the Host header is not a host name', async () => {
    const res = await rawHttp(port, 'GET', '/', { headers: { host: 'evil/"><script>' } });
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('https://music.example.org:8443/');
  });
});

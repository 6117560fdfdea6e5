/**
 * The edge of music-api: the seed's security headers on every kind of response, TLS 1.2/1.3
 * only with a port-80 style listener answering 301, the 500 MB body limit, and the web
 * front-end for every other path.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { connect as netConnect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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

/** The seed's values, written out here rather than imported, so a changed constant fails. */
const SEED_HEADERS: Record<string, string> = {
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'x-xss-protection': '1; mode=block',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'content-security-policy':
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; media-src 'self' blob:; connect-src 'self' wss://music.example.org",
};

function expectSeedHeaders(headers: Record<string, unknown>, what: string): void {
  for (const [name, value] of Object.entries(SEED_HEADERS))
    expect(headers[name], `${what}: ${name}`).toBe(value);
}

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
async function publishVideoHls(t: MusicTestApp): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hls-video-'));
  const version = `video-${Date.now()}`;
  try {
    await promisify(execFile)(
      'ffmpeg',
      [
        ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=10:duration=2'],
        ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2'],
        ...['-c:v', 'mpeg4', '-c:a', 'aac', '-f', 'hls', '-hls_time', '1', '-hls_playlist_type', 'vod'],
        ...['-hls_segment_type', 'fmp4', '-hls_segment_filename', 'seg%d.m4s', 'index.m3u8'],
      ],
      { cwd: dir },
    );
    for (const name of await readdir(dir))
      await t.connections.stores.transcodes.put(`${version}/r0/${name}`, await readFile(join(dir, name)));
    return version;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('media types', () => {
  let t: MusicTestApp;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off', DOMAIN: 'music.example.org' });
  });
  afterAll(async () => t.close());

  const signed = (path: string): string => signedUrl(path, TEST_SECURE_LINK_SECRET, 600, Date.now() / 1000);

  it('serves the segments and init of an audio rendition as audio/mp4', async () => {
    const version = await publishTestHls(t.connections.stores.transcodes);
    for (const path of [`r0/seg0.m4s`, `r1/seg1.m4s`, `r0/init_0.mp4`]) {
      const first = await t.app.inject({ url: signed(`/media/hls/${version}/${path}`) });
      expect(first.statusCode, path).toBe(200);
      expect(first.headers['content-type'], path).toBe('audio/mp4');
      const again = await t.app.inject({ url: signed(`/media/hls/${version}/${path}`) });
      expect(again.headers['x-cache-status']).toBe('HIT');
      expect(again.headers['content-type'], `${path} (cached)`).toBe('audio/mp4');
    }
  });

  it('serves the segments of a rendition with a video track as video/mp4', async () => {
    const version = await publishVideoHls(t);
    const keys = await t.connections.stores.transcodes.list(`${version}/r0/`);
    const segment = keys.find((k) => k.endsWith('.m4s'));
    expect(segment).toBeDefined();
    const res = await t.app.inject({ url: signed(`/media/hls/${segment}`) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
  });

  it('refuses to store an SVG (or any non-raster file) in the images store', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const images = t.connections.stores.images;
    for (const key of ['art/evil.svg', 'art/page.html', 'art/noext']) {
      await expect(images.put(key, svg), key).rejects.toMatchObject({ status: 415 });
      await expect(images.createMultipartUpload(key, 'image/svg+xml'), key).rejects.toMatchObject({
        status: 415,
      });
      expect(await images.head(key), key).toBeUndefined();
    }
    await images.put('art/staged.jpg', Buffer.from([0xff, 0xd8, 0xff]));
    await expect(images.move('art/staged.jpg', 'art/moved.svg')).rejects.toMatchObject({ status: 415 });
    // Raster images are still taken.
    await images.put('art/ok.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    expect(await images.head('art/ok.png')).toBeDefined();
  });

  it('delivers an SVG that reached the images store by other means as an attachment, never image/svg+xml', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const file = join(t.dataDir, 'objects', 'images', 'planted', 'evil.svg');
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, svg);
    for (const round of ['MISS', 'HIT']) {
      const res = await t.app.inject({ url: '/images/planted/evil.svg' });
      expect(res.statusCode, round).toBe(200);
      expect(res.headers['x-cache-status']).toBe(round);
      expect(res.headers['content-type'], round).toBe('application/octet-stream');
      expect(res.headers['content-disposition'], round).toBe('attachment');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    await t.connections.stores.images.put('art/fine.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const png = await t.app.inject({ url: '/images/art/fine.png' });
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-disposition']).toBeUndefined();
  });
});

/**
 * The production nginx template, rendered for loopback and run as real nginx in front of the
 * running music API and eval service: TLS versions, the 80 → 301, headers exactly once, signed
 * media through secure_link, the auth limit, the media cache and the body limit.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders } from '../src/core/security-headers.js';
import { signedUrl } from '../src/music/services/secure-link.js';
import { renderNginxTemplate } from '../src/ops/nginx-template.js';
import { makeEvalApp } from './helpers/eval-app.js';
import {
  createMusicTestApp,
  publishTestHls,
  TEST_SECURE_LINK_SECRET,
  type MusicTestApp,
} from './helpers/music-app.js';
import { startNginxEdge, type NginxEdge } from './helpers/nginx-edge.js';

const DOMAIN = 'localhost';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  raw: string[];
  body: string;
}

function collect(res: IncomingMessage): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('error', reject);
    res.on('end', () =>
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        raw: res.rawHeaders,
        body: Buffer.concat(chunks).toString('utf8'),
      }),
    );
  });
}

/** How many times a header name occurs in the raw response (case-insensitive). */
function occurrences(answer: Answer, name: string): number {
  return answer.raw.filter((v, i) => i % 2 === 0 && v.toLowerCase() === name).length;
}

describe('nginx in front of the apps (production template)', () => {
  let music: MusicTestApp;
  let evalApp: FastifyInstance;
  let edge: NginxEdge;
  let version: string;

  const https = (
    path: string,
    options: { method?: string; body?: string; headers?: Record<string, string> } = {},
  ): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port: edge.httpsPort,
          servername: DOMAIN,
          ca: edge.ca,
          path,
          method: options.method ?? 'GET',
          headers: { host: DOMAIN, ...options.headers },
          agent: false,
        },
        (res) => void collect(res).then(resolve, reject),
      );
      req.on('error', reject);
      req.end(options.body);
    });

  beforeAll(async () => {
    // The app's own limits are off so that every 429 here is nginx's.
    music = await createMusicTestApp({ RATE_LIMITS: 'off', DOMAIN, TRUSTED_PROXIES: '127.0.0.1' });
    evalApp = await makeEvalApp();
    await music.app.listen({ port: 0, host: '127.0.0.1' });
    await evalApp.listen({ port: 0, host: '127.0.0.1' });
    version = await publishTestHls(music.connections.stores.transcodes);
    const port = (app: FastifyInstance) => (app.server.address() as AddressInfo).port;
    edge = await startNginxEdge({
      musicApi: `127.0.0.1:${port(music.app)}`,
      eval: `127.0.0.1:${port(evalApp)}`,
      domain: DOMAIN,
      secureLinkSecret: TEST_SECURE_LINK_SECRET,
    });
  }, 120_000);

  afterAll(async () => {
    await edge?.stop();
    await evalApp?.close();
    await music?.close();
  });

  it('refuses a rendering with a variable missing or a value that could inject directives', () => {
    expect(() => renderNginxTemplate('listen ${HTTP_PORT};', {})).toThrow(/set DOMAIN, SECURE_LINK_SECRET/);
    const values = {
      DOMAIN,
      SECURE_LINK_SECRET: 'a; return 200',
      HTTP_PORT: '80',
      HTTPS_PORT: '443',
      TLS_CERT_FILE: '/c',
      TLS_KEY_FILE: '/k',
      MUSIC_API_UPSTREAM: 'api:8081',
      EVAL_UPSTREAM: 'eval:8080',
      NGINX_CACHE_DIR: '/var/cache/nginx',
    };
    expect(() => renderNginxTemplate('x', values)).toThrow(/SECURE_LINK_SECRET must not contain/);
    expect(renderNginxTemplate('$uri ${DOMAIN} ${OTHER}', { ...values, SECURE_LINK_SECRET: 's' })).toBe(
      '$uri localhost ${OTHER}',
    );
  });

  it('accepts TLS 1.3 and 1.2 and refuses TLS 1.1', async () => {
    const handshake = (version: 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3') =>
      new Promise<string>((resolve) => {
        const socket = tlsConnect({
          host: '127.0.0.1',
          port: edge.httpsPort,
          servername: DOMAIN,
          ca: edge.ca,
          minVersion: version,
          maxVersion: version,
          // OpenSSL 3's default security level would stop a TLS 1.1 hello on the client side.
          ciphers: 'DEFAULT@SECLEVEL=0',
        });
        socket.once('secureConnect', () => {
          resolve(socket.getProtocol() ?? 'unknown');
          socket.destroy();
        });
        socket.once('error', (err: NodeJS.ErrnoException) => resolve(`refused: ${err.code ?? err.message}`));
      });
    expect(await handshake('TLSv1.3')).toBe('TLSv1.3');
    expect(await handshake('TLSv1.2')).toBe('TLSv1.2');
    expect(await handshake('TLSv1.1')).toMatch(/^refused: /);
  });

  it('answers plain http with 301 to https, keeping the path and query', async () => {
    const answer = await new Promise<Answer>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: edge.httpPort, path: '/tracks/x?y=1', headers: { host: DOMAIN } },
        (res) => void collect(res).then(resolve, reject),
      );
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe(`https://${DOMAIN}/tracks/x?y=1`);
  });

  it('sends each security header exactly once with the app’s values, on app, eval and nginx answers', async () => {
    const expected = securityHeaders(DOMAIN);
    const master = `/media/hls/${version}/master.m3u8`;
    const answers = {
      api: await https('/api/v1/health'),
      eval: await https('/api/catalog'),
      media: await https(signedUrl(master, TEST_SECURE_LINK_SECRET, 3600, Date.now() / 1000)),
      nginx403: await https(master),
      web: await https('/'),
    };
    for (const [where, answer] of Object.entries(answers)) {
      for (const [name, value] of Object.entries(expected)) {
        expect(occurrences(answer, name), `${name} on ${where}`).toBe(1);
        expect(answer.headers[name], `${name} on ${where}`).toBe(value);
      }
    }
    // Health is the app's own answer either way: 503 when a dependency probe is slow on a loaded machine.
    expect([200, 503]).toContain(answers.api.status);
    expect(answers.api.headers['content-type']).toMatch(/json/);
    expect(answers.eval.status).toBe(200);
  });

  it('serves signed media 200, refuses a bad signature 403 and an expired link 410', async () => {
    const nowSeconds = Date.now() / 1000;
    const playlist = `/media/hls/${version}/r0/index.m3u8`;
    const good = await https(signedUrl(playlist, TEST_SECURE_LINK_SECRET, 3600, nowSeconds));
    expect(good.status).toBe(200);
    expect(good.body).toContain('#EXTM3U');
    expect(good.headers['cache-control']).toBe('public, max-age=3600');
    const wrong = await https(signedUrl(playlist, 'another-secret-0123456789', 3600, nowSeconds));
    expect(wrong.status).toBe(403);
    expect(wrong.headers['content-type']).toBe('application/problem+json');
    expect(await https(playlist)).toMatchObject({ status: 403 });
    const expired = await https(signedUrl(playlist, TEST_SECURE_LINK_SECRET, -60, nowSeconds));
    expect(expired.status).toBe(410);
    expect(JSON.parse(expired.body)).toMatchObject({ status: 410 });
  });

  it('caches media for an hour: X-Cache-Status MISS, then HIT (once, nginx’s own)', async () => {
    const playlist = await https(
      signedUrl(`/media/hls/${version}/r1/index.m3u8`, TEST_SECURE_LINK_SECRET, 3600, Date.now() / 1000),
    );
    const segment = playlist.body.split('\n').find((line) => line.includes('.m4s'));
    expect(segment).toBeDefined();
    const segmentUrl = `/media/hls/${version}/r1/${segment!}`;
    const first = await https(segmentUrl);
    const second = await https(segmentUrl);
    expect(first.status).toBe(200);
    expect(first.headers['x-cache-status']).toBe('MISS');
    expect(second.status).toBe(200);
    expect(second.headers['x-cache-status']).toBe('HIT');
    expect(occurrences(second, 'x-cache-status')).toBe(1);
    expect(second.headers['cache-control']).toBe('public, max-age=3600');
    expect(second.body).toBe(first.body);
  });

  it('serves images and waveforms public and immutable for 7 days, cached by nginx', async () => {
    await music.connections.stores.images.put('edge-test/cover.png', Buffer.from('png bytes'));
    const first = await https('/images/edge-test/cover.png');
    const second = await https('/images/edge-test/cover.png');
    expect(first.status).toBe(200);
    expect(first.headers['x-cache-status']).toBe('MISS');
    expect(second.headers['x-cache-status']).toBe('HIT');
    for (const answer of [first, second]) {
      expect(answer.headers['cache-control']).toBe('public, max-age=604800, immutable');
      expect(occurrences(answer, 'cache-control')).toBe(1);
    }
  });

  it('admits burst + 1 auth requests at once, then answers 429 with Retry-After', async () => {
    const statuses: number[] = [];
    let refused: Answer | undefined;
    for (let i = 0; i < 6 && !refused; i++) {
      const answer = await https('/api/v1/auth/login', {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      statuses.push(answer.status);
      if (answer.status === 429) refused = answer;
    }
    // 5r/m burst=3 nodelay: 4 admitted (the app answers 400 to an empty login), the 5th refused.
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    expect(refused!.headers['retry-after']).toBe('12');
    expect(refused!.headers['content-type']).toBe('application/problem+json');
    expect(occurrences(refused!, 'content-security-policy')).toBe(1);
  });

  it('answers 413 to a body over 500 MB from its announced length', async () => {
    const answer = await https('/api/v1/upload/multipart/u/parts/1', {
      method: 'PUT',
      headers: { 'content-length': String(500 * 1024 * 1024 + 1) },
      body: '',
    }).catch((err: Error) => ({ status: -1, body: err.message }) as Answer);
    expect(answer.status).toBe(413);
  });
});

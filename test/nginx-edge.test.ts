/**
 * The production nginx template, rendered for loopback and run as real nginx in front of the
 * running music API and eval service, reached by their compose names (`api`, `eval`) through a
 * DNS server on loopback: TLS versions, the 80 → 301, headers exactly once, signed media through
 * secure_link, the auth limit (comments: nginx-edge-limits.test.ts), the media cache and the body limit, cache headers by status,
 * /metrics refused, the proxy headers reaching the app, eval's files and workbench routed to
 * eval, and a service down or redeployed at a new address while nginx keeps serving. Rendering
 * refusals and starting with a service unresolved are in nginx-edge-startup.test.ts, the live
 * updates websocket in nginx-edge-events.test.ts.
 */
import { PASSWORD } from './helpers/music-domain.js';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders } from '../src/core/security-headers.js';
import { signedUrl } from '../src/music/services/secure-link.js';
import { makeEvalApp } from './helpers/eval-app.js';
import {
  createMusicTestApp,
  publishTestHls,
  TEST_SECURE_LINK_SECRET,
  type MusicTestApp,
} from './helpers/music-app.js';
import { startTestDns, type TestDns } from './helpers/dns-server.js';
import {
  collect,
  edgeHttps,
  occurrences,
  startNginxEdge,
  type Answer,
  type EdgeRequest,
  type NginxEdge,
} from './helpers/nginx-edge.js';

const DOMAIN = 'localhost';

describe('nginx in front of the apps (production template)', () => {
  let music: MusicTestApp;
  let evalApp: FastifyInstance;
  let edge: NginxEdge;
  let dns: TestDns;
  let version: string;
  let evalPort: number;
  /** The headers of every request the music API received, in order. */
  const musicSaw: IncomingMessage['headers'][] = [];

  const https = (path: string, options: EdgeRequest = {}): Promise<Answer> =>
    edgeHttps(edge, DOMAIN, path, options);

  beforeAll(async () => {
    // The app's own limits are off so that every 429 here is nginx's.
    music = await createMusicTestApp({ RATE_LIMITS: 'off', DOMAIN, TRUSTED_PROXIES: '127.0.0.1' });
    evalApp = await makeEvalApp();
    // Each service on its own loopback address, known to nginx only by its compose name.
    await music.app.listen({ port: 0, host: '127.0.0.2' });
    await evalApp.listen({ port: 0, host: '127.0.0.3' });
    music.app.server.on('request', (req: IncomingMessage) => musicSaw.push(req.headers));
    version = await publishTestHls(music.connections.stores.transcodes);
    const port = (app: FastifyInstance) => (app.server.address() as AddressInfo).port;
    evalPort = port(evalApp);
    dns = await startTestDns({ api: '127.0.0.2', eval: '127.0.0.3' });
    edge = await startNginxEdge({
      musicApi: `api:${port(music.app)}`,
      eval: `eval:${evalPort}`,
      domain: DOMAIN,
      secureLinkSecret: TEST_SECURE_LINK_SECRET,
      resolver: dns.address,
    });
  }, 120_000);

  afterAll(async () => {
    await edge?.stop();
    await dns?.close();
    await evalApp?.close();
    await music?.close();
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

  it('passes Host, X-Forwarded-For, X-Forwarded-Proto and keep-alive to the app from every location', async () => {
    for (const path of ['/', '/rest/ping.view?u=a&p=b&v=1.16.1&c=t&f=json', '/api/v1/health']) {
      const before = musicSaw.length;
      const answer = await https(path, { headers: { 'x-forwarded-for': '198.51.100.7' } });
      expect(answer.status, path).toBeLessThan(500);
      const seen = musicSaw.slice(before);
      expect(seen, path).toHaveLength(1);
      expect(seen[0]!.host, path).toBe(DOMAIN);
      // The client's own X-Forwarded-For is kept and nginx's peer appended: the app trusts only the last hop.
      expect(seen[0]!['x-forwarded-for'], path).toBe('198.51.100.7, 127.0.0.1');
      expect(seen[0]!['x-forwarded-proto'], path).toBe('https');
      expect(seen[0]!.connection, path).toBeUndefined();
    }
  });

  it('passes the public port in Host, so a page on another port of the same name cannot write', async () => {
    const host = `${DOMAIN}:${edge.httpsPort}`;
    // A session made directly at the app (nginx's auth zone stays untouched); writes go through nginx.
    const signup = await music.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { handle: 'edge_origin', email: 'edge_origin@example.org', password: PASSWORD },
    });
    const cookie = `__Host-music_session=${signup.json<{ token: string }>().token}`;
    const create = (origin: string) =>
      https('/api/v1/tracks', {
        method: 'POST',
        headers: { host, origin, cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Through the edge' }),
      });
    const before = musicSaw.length;
    expect((await create(`https://${host}`)).status).toBe(201);
    expect(musicSaw[before]!.host).toBe(host);
    const other = await create(`https://${DOMAIN}:${edge.httpsPort + 1}`);
    expect(other.status).toBe(403);
    expect(other.body).toMatch(/Origin/);
    expect((await create(`https://${DOMAIN}`)).status).toBe(403);
  });

  it('refuses /metrics at the edge in every spelling, while the apps serve it on their own port', async () => {
    for (const path of [
      '/metrics',
      '/metrics?format=text',
      '/metrics/',
      '//metrics',
      '/%6Detrics',
      '/metrics/x',
    ]) {
      const answer = await https(path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers['content-type'], path).toBe('application/problem+json');
      expect(answer.body, path).not.toMatch(/# (HELP|TYPE)/);
    }
    // Spellings nginx does not normalise to /metrics reach the app, which must not read them as it.
    for (const path of [
      '/metrics;x',
      '/metrics%3Fx',
      '/metrics%2F',
      '/./metrics',
      '/x/../metrics',
      '/METRICS',
    ]) {
      const answer = await https(path);
      expect(answer.body, `${path} ${answer.status} ${answer.body.slice(0, 80)}`).not.toMatch(
        /# (HELP|TYPE)/,
      );
    }
    // The route exists behind nginx: the edge is what refuses it.
    for (const app of [music.app, evalApp]) {
      const direct = await app.inject('/metrics');
      expect(direct.statusCode).toBe(200);
      expect(direct.body).toMatch(/# (HELP|TYPE)/);
    }
  });

  it('routes eval’s published files and the workbench (pages and assets) to eval', async () => {
    const keys = await https('/.well-known/receipt-keys.json');
    expect(keys.status).toBe(200);
    expect(keys.body).toBe((await evalApp.inject('/.well-known/receipt-keys.json')).body);
    const llms = await https('/llms.txt');
    expect(llms.status).toBe(200);
    expect(llms.body).toBe((await evalApp.inject('/llms.txt')).body);
    const workbench = (await evalApp.inject('/report-card')).body;
    const player = (await music.app.inject('/')).body;
    expect(workbench).not.toBe(player);
    for (const page of ['/report-card', '/leaderboard', '/tools/counterexample']) {
      const answer = await https(page);
      expect(answer.status, page).toBe(200);
      expect(answer.body, page).toBe(workbench);
    }
    expect((await https('/')).body).toBe(player);
    // Each front-end's own assets, through the one /assets/ prefix.
    const assetsOf = (html: string) => [...html.matchAll(/\/assets\/[\w.-]+\.(?:js|css)/g)].map((m) => m[0]);
    const assets = [...assetsOf(workbench), ...assetsOf(player)];
    expect(assetsOf(workbench).length).toBeGreaterThan(0);
    expect(assetsOf(player).length).toBeGreaterThan(0);
    for (const asset of assets) {
      const answer = await https(asset);
      expect(answer.status, asset).toBe(200);
      expect(answer.headers['content-type'], asset).toMatch(/javascript|css/);
    }
    const missing = await https('/assets/no-such-file.js');
    expect(missing.status).toBe(404);
  });

  it('keeps a 404 under /images/ out of the cache and not immutable: the cover appears once made', async () => {
    const key = `edge-test/late-${Date.now()}.png`;
    for (let i = 0; i < 2; i++) {
      const missing = await https(`/images/${key}`);
      expect(missing.status).toBe(404);
      expect(missing.headers['cache-control'] ?? '').not.toMatch(/immutable|max-age=604800/);
      expect(missing.headers['x-cache-status']).not.toBe('HIT');
    }
    const waveform = await https(`/waveforms/${key}.json`);
    expect(waveform.status).toBe(404);
    expect(waveform.headers['cache-control'] ?? '').not.toMatch(/immutable/);
    await music.connections.stores.images.put(key, Buffer.from('made later'));
    const made = await https(`/images/${key}`);
    expect(made.status).toBe(200);
    expect(made.body).toBe('made later');
    expect(made.headers['cache-control']).toBe('public, max-age=604800, immutable');
  });

  it('labels the media location’s error bodies as problems, not as video or playlists', async () => {
    const nowSeconds = Date.now() / 1000;
    for (const file of ['r0/init.mp4', 'r0/index.m3u8', 'r0/seg_99999.m4s', 'r9/init.mp4']) {
      const path = `/media/hls/${version}/${file}`;
      const answers = [
        await https(path),
        await https(signedUrl(path, TEST_SECURE_LINK_SECRET, -60, nowSeconds)),
      ];
      if (file.includes('99999') || file.startsWith('r9'))
        answers.push(await https(signedUrl(path, TEST_SECURE_LINK_SECRET, 3600, nowSeconds)));
      expect(
        answers.map((a) => a.status),
        file,
      ).toEqual([403, 410, 404].slice(0, answers.length));
      for (const answer of answers) {
        expect(answer.headers['content-type'], `${file} ${answer.status}`).toMatch(
          /^application\/problem\+json(;|$)/,
        );
        expect(JSON.parse(answer.body), file).toMatchObject({ status: answer.status });
      }
    }
  });

  it('answers 413 to a body over 500 MB from its announced length', async () => {
    const answer = await https('/api/v1/upload/multipart/u/parts/1', {
      method: 'PUT',
      headers: { 'content-length': String(500 * 1024 * 1024 + 1) },
      body: '',
    }).catch((err: Error) => ({ status: -1, body: err.message }) as Answer);
    expect(answer.status).toBe(413);
  });

  it('keeps serving while eval is redeployed at a new address, then answers 503 while it is down', async () => {
    // The redeployed container: same port, new address; the old one goes away.
    const next = await makeEvalApp();
    await next.listen({ port: evalPort, host: '127.0.0.4' });
    let reachedNext = 0;
    next.server.on('request', () => reachedNext++);
    dns.set('eval', '127.0.0.4');
    await evalApp.close();
    evalApp = next;
    const statuses = new Set<number>();
    const deadline = Date.now() + 30_000;
    while (reachedNext === 0 && Date.now() < deadline) {
      const answer = await https('/llms.txt');
      statuses.add(answer.status);
      if (answer.status !== 200) {
        expect(answer.status).toBe(503);
        expect(answer.headers['retry-after']).toBe('5');
        expect(answer.headers['content-type']).toBe('application/problem+json');
      }
      // The music API is unaffected all along.
      expect((await https('/api/v1/auth/me')).status).not.toBeGreaterThanOrEqual(502);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(reachedNext).toBeGreaterThan(0);
    expect((await https('/llms.txt')).status).toBe(200);
    expect(dns.asked('eval')).toBeGreaterThan(1);
    // Down entirely, name gone from DNS: 503 with Retry-After, and the rest of the edge serves on.
    dns.set('eval', undefined);
    await next.close();
    let down: Answer | undefined;
    while (!down && Date.now() < deadline + 30_000) {
      const answer = await https('/llms.txt');
      if (answer.status === 503) down = answer;
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(down?.headers['retry-after']).toBe('5');
    expect(JSON.parse(down!.body)).toMatchObject({ status: 503 });
    expect((await https('/')).status).toBe(200);
  }, 90_000);
});

/**
 * The edge asks the app before it serves cached HLS bytes, artwork and waveforms (F18): real nginx with the production
 * template in front of the music API. A public track's segment and playlist come from nginx's
 * cache (HIT); once the track is made private the same signed links answer 404 at once to
 * everyone but its owner, who gets the app's private answer past the cache; a deleted track's
 * cached media answer 404; forged and expired links stay 403 and 410; with the API unreachable
 * the cached bytes are not served (503); the check's own path is not reachable from outside.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../src/music/session-cookie.js';
import { signedUrl } from '../src/music/services/secure-link.js';
import { startTestDns, type TestDns } from './helpers/dns-server.js';
import { addReadyVersion } from './helpers/library-rows.js';
import {
  createMusicTestApp,
  publishTestHls,
  TEST_SECURE_LINK_SECRET,
  type MusicTestApp,
} from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';
import {
  edgeHttps,
  startNginxEdge,
  type Answer,
  type EdgeRequest,
  type NginxEdge,
} from './helpers/nginx-edge.js';

const DOMAIN = 'localhost';

describe('nginx asks the app before serving cached HLS', () => {
  let music: MusicTestApp;
  let edge: NginxEdge;
  let dns: TestDns;
  let owner: TestUser;
  let other: TestUser;
  /** How many checks the app answered (GET /media/access/...). */
  let checks = 0;

  const https = (path: string, options: EdgeRequest = {}): Promise<Answer> =>
    edgeHttps(edge, DOMAIN, path, options);
  /** The owner as the web player asks: its session cookie. */
  let asOwner: EdgeRequest;
  const sign = (path: string, ttl = 3600) => signedUrl(path, TEST_SECURE_LINK_SECRET, ttl, Date.now() / 1000);

  /** A public track with real HLS under its version: its id, a signed playlist and segment URL. */
  async function publicTrack(title: string): Promise<{ trackId: string; playlist: string; segment: string }> {
    const made = await music.app.inject({
      method: 'POST',
      url: '/api/v1/tracks',
      headers: owner.headers,
      payload: { title, visibility: 'public' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const trackId = made.json().id as string;
    const versionId = await addReadyVersion(music.connections, trackId, owner.id, {
      artist: 'A',
      album: 'B',
    });
    await publishTestHls(
      music.connections.stores.transcodes,
      versionId as `${string}-${string}-${string}-${string}-${string}`,
    );
    const playlist = sign(`/media/hls/${versionId}/r0/index.m3u8`);
    const listed = await https(playlist);
    expect(listed.status).toBe(200);
    const line = listed.body.split('\n').find((l) => l.includes('.m4s'));
    expect(line).toBeDefined();
    return { trackId, playlist, segment: `/media/hls/${versionId}/r0/${line!}` };
  }

  const patch = (trackId: string, visibility: string) =>
    music.app.inject({
      method: 'PATCH',
      url: `/api/v1/tracks/${trackId}`,
      headers: owner.headers,
      payload: { visibility },
    });

  beforeAll(async () => {
    music = await createMusicTestApp({ RATE_LIMITS: 'off', DOMAIN, TRUSTED_PROXIES: '127.0.0.1' });
    await music.app.listen({ port: 0, host: '127.0.0.2' });
    music.app.server.on('request', (req: { url?: string }) => {
      if (req.url?.startsWith('/media/access/')) checks++;
    });
    owner = await signupUser(music.app, 'edgeown');
    other = await signupUser(music.app, 'edgeoth');
    asOwner = { headers: { cookie: `${SESSION_COOKIE}=${owner.token}` } };
    dns = await startTestDns({ api: '127.0.0.2' });
    edge = await startNginxEdge({
      musicApi: `api:${(music.app.server.address() as AddressInfo).port}`,
      // No eval service in this file: its name resolves nowhere.
      eval: 'eval:9',
      domain: DOMAIN,
      secureLinkSecret: TEST_SECURE_LINK_SECRET,
      resolver: dns.address,
    });
  }, 120_000);

  afterAll(async () => {
    await edge?.stop();
    await dns?.close();
    await music?.close();
  });

  it('serves a public segment from the cache, checked each time; made private, 404 at once but to its owner', async () => {
    const { trackId, playlist, segment } = await publicTrack('Soon private at the edge');
    const before = checks;
    const first = await https(segment);
    const second = await https(segment);
    expect(first.status).toBe(200);
    expect(first.headers['x-cache-status']).toBe('MISS');
    expect(second.status).toBe(200);
    expect(second.headers['x-cache-status']).toBe('HIT');
    expect(second.headers['cache-control']).toBe('public, max-age=3600');
    expect(second.body).toBe(first.body);
    // The HIT was put to the app too: one check per request.
    expect(checks - before).toBe(2);
    expect((await https(playlist)).headers['x-cache-status']).toBe('HIT');

    expect((await patch(trackId, 'private')).statusCode).toBe(200);
    for (const url of [segment, playlist]) {
      const anonymous = await https(url);
      expect(anonymous.status, url).toBe(404);
      expect(anonymous.headers['content-type']).toBe('application/problem+json');
      expect(JSON.parse(anonymous.body)).toMatchObject({ status: 404 });
      expect((await https(url, { headers: other.headers })).status, url).toBe(404);
      // Its owner (the player's cookie, or a token) gets the app's private answer, not the shared copy.
      for (const who of [asOwner, { headers: owner.headers }]) {
        const mine = await https(url, who);
        expect(mine.status, url).toBe(200);
        expect(mine.headers['cache-control']).toBe('private, no-store');
        expect(mine.headers['x-cache-status']).toBe('BYPASS');
      }
    }
    const mine = await https(segment, asOwner);
    expect(mine.body).toBe(first.body);

    // Public again: the cached copy serves everyone once more.
    expect((await patch(trackId, 'public')).statusCode).toBe(200);
    const again = await https(segment);
    expect(again.status).toBe(200);
    expect(again.headers['x-cache-status']).toBe('HIT');
  });

  it('checks cached artwork and waveforms the same way: made private, 404 at once but to its owner', async () => {
    const { trackId, segment } = await publicTrack('Cover soon private at the edge');
    const versionId = segment.split('/')[3]!;
    await music.connections.stores.images.put(
      `${versionId}/cover-600.jpg`,
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2]),
    );
    await music.connections.stores.waveforms.put(`${versionId}/waveform.json`, '{"version":2,"data":[]}');
    const urls = [`/images/${versionId}/cover-600.jpg`, `/waveforms/${versionId}/waveform.json`];
    for (const url of urls) {
      const before = checks;
      expect((await https(url)).headers['x-cache-status'], url).toBe('MISS');
      const hit = await https(url);
      expect(hit.status, url).toBe(200);
      expect(hit.headers['x-cache-status'], url).toBe('HIT');
      expect(hit.headers['cache-control'], url).toBe('public, max-age=604800, immutable');
      expect(checks - before, url).toBe(2);
    }
    expect((await patch(trackId, 'private')).statusCode).toBe(200);
    for (const url of urls) {
      const anonymous = await https(url);
      expect(anonymous.status, url).toBe(404);
      expect(JSON.parse(anonymous.body)).toMatchObject({ status: 404 });
      expect((await https(url, { headers: other.headers })).status, url).toBe(404);
      const mine = await https(url, asOwner);
      expect(mine.status, url).toBe(200);
      expect(mine.headers['cache-control'], url).toBe('private, no-store');
      expect(mine.headers['x-cache-status'], url).toBe('BYPASS');
    }
    const deleted = await music.app.inject({
      method: 'DELETE',
      url: `/api/v1/tracks/${trackId}`,
      headers: owner.headers,
    });
    expect(deleted.statusCode).toBe(204);
    for (const url of urls) expect((await https(url, asOwner)).status, url).toBe(404);
  });

  it('answers 404 for a deleted track’s cached playlist and segments', async () => {
    const { trackId, playlist, segment } = await publicTrack('Soon deleted at the edge');
    expect((await https(segment)).status).toBe(200);
    expect((await https(segment)).headers['x-cache-status']).toBe('HIT');
    const deleted = await music.app.inject({
      method: 'DELETE',
      url: `/api/v1/tracks/${trackId}`,
      headers: owner.headers,
    });
    expect(deleted.statusCode).toBe(204);
    for (const url of [segment, playlist]) {
      expect((await https(url)).status, url).toBe(404);
      expect((await https(url, asOwner)).status, url).toBe(404);
    }
  });

  it('still refuses a forged link 403 and an expired one 410, and a dead cookie with the app’s 401', async () => {
    const { segment } = await publicTrack('Links at the edge');
    const path = segment.slice(0, segment.indexOf('?'));
    const forged = await https(signedUrl(path, 'another-secret-0123456789', 3600, Date.now() / 1000));
    expect(forged.status).toBe(403);
    expect(JSON.parse(forged.body)).toMatchObject({ status: 403 });
    const expired = await https(sign(path, -60));
    expect(expired.status).toBe(410);
    expect(JSON.parse(expired.body)).toMatchObject({ status: 410 });
    // Cached, and a session cookie that is no session: the route's 401, which drops the cookie.
    expect((await https(segment)).status).toBe(200);
    expect((await https(segment)).headers['x-cache-status']).toBe('HIT');
    const dead = await https(segment, { headers: { cookie: `${SESSION_COOKIE}=not-a-session` } });
    expect(dead.status).toBe(401);
    expect(JSON.parse(dead.body)).toMatchObject({ status: 401 });
    expect(String(dead.headers['set-cookie'])).toContain(`${SESSION_COOKIE}=;`);
    expect(dead.headers['www-authenticate']).toBe('Bearer realm="music"');
  });

  it('answers 503 with Retry-After, not the cached bytes, while the API cannot be asked', async () => {
    const { segment } = await publicTrack('API away');
    expect((await https(segment)).status).toBe(200);
    expect((await https(segment)).headers['x-cache-status']).toBe('HIT');
    // The API's name now points where nothing listens (nginx re-resolves within 5 s).
    dns.set('api', '127.0.0.9');
    try {
      let refused: Answer | undefined;
      const deadline = Date.now() + 30_000;
      while (!refused && Date.now() < deadline) {
        const answer = await https(segment);
        if (answer.status === 200) expect(answer.headers['x-cache-status']).toBe('HIT');
        else refused = answer;
      }
      expect(refused?.status).toBe(503);
      expect(refused?.headers['retry-after']).toBe('5');
      expect(JSON.parse(refused!.body)).toMatchObject({ status: 503 });
    } finally {
      dns.set('api', '127.0.0.2');
    }
    // Back once nginx re-resolves the name: the cached bytes, checked again.
    let back: Answer | undefined;
    const deadline = Date.now() + 30_000;
    while (back?.status !== 200 && Date.now() < deadline) back = await https(segment);
    expect(back?.status).toBe(200);
    expect(back?.headers['x-cache-status']).toBe('HIT');
  }, 90_000);

  it('does not let a client reach the check: its path, encoded or not, is a 404 at the edge', async () => {
    const { segment } = await publicTrack('Check path');
    const before = checks;
    for (const prefix of ['/media/access', '/media/%61ccess', '/media//access', '/media/x/../access']) {
      const answer = await https(`${prefix}${segment}`);
      expect(answer.status, prefix).toBe(404);
      expect(JSON.parse(answer.body)).toMatchObject({ status: 404 });
    }
    expect(checks).toBe(before);
  });
});

/**
 * The comments zone of the production nginx template: only writing a comment (POST, PATCH) spends
 * it; reads pass in the api zone, as in the app (src/music/app.ts, MUSIC_RATE_LIMIT_SCOPES).
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMusicTestApp, TEST_SECURE_LINK_SECRET, type MusicTestApp } from './helpers/music-app.js';
import { startTestDns, type TestDns } from './helpers/dns-server.js';
import {
  edgeHttps,
  startNginxEdge,
  type Answer,
  type EdgeRequest,
  type NginxEdge,
} from './helpers/nginx-edge.js';

const DOMAIN = 'localhost';

describe('nginx limits in front of the music API (production template)', () => {
  let music: MusicTestApp;
  let edge: NginxEdge;
  let dns: TestDns;

  const https = (path: string, options: EdgeRequest = {}): Promise<Answer> =>
    edgeHttps(edge, DOMAIN, path, options);

  beforeAll(async () => {
    // The app's own limits are off so that every 429 here is nginx's.
    music = await createMusicTestApp({ RATE_LIMITS: 'off', DOMAIN, TRUSTED_PROXIES: '127.0.0.1' });
    await music.app.listen({ port: 0, host: '127.0.0.2' });
    // eval is left unresolved: nginx resolves per request, and nothing here asks for it.
    dns = await startTestDns({ api: '127.0.0.2' });
    edge = await startNginxEdge({
      musicApi: `api:${(music.app.server.address() as AddressInfo).port}`,
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

  it('counts only posting and editing comments in the comments zone; reading them is the api zone’s', async () => {
    // 1r/m burst=5: a seventh read would have been refused when reads were in the comments zone.
    for (let i = 0; i < 7; i++)
      expect((await https('/api/v1/comments?track_id=x')).status, `read ${i + 1}`).not.toBe(429);
    const post = () =>
      https('/api/v1/comments', {
        method: 'POST',
        body: '{"track_id":"x","body":"hi"}',
        headers: { 'content-type': 'application/json' },
      });
    // The app answers 401 (no token) to the six the zone admits; the seventh is nginx's 429.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await post()).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
    const refused = await post();
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect((await https('/api/v1/comments?track_id=x')).status).not.toBe(429);
  });
});

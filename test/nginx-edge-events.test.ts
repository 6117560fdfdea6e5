/**
 * The live-updates websocket through the production nginx template: /api/v1/events has a location
 * of its own that passes the upgrade, so the socket reaches the music API (under /api/v1/ it did not).
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMusicTestApp, TEST_SECURE_LINK_SECRET, type MusicTestApp } from './helpers/music-app.js';
import { startTestDns, type TestDns } from './helpers/dns-server.js';
import { LiveClient } from './helpers/live-client.js';
import { startNginxEdge, type NginxEdge } from './helpers/nginx-edge.js';

const DOMAIN = 'localhost';

describe('nginx in front of the live updates (production template)', () => {
  let music: MusicTestApp;
  let edge: NginxEdge;
  let dns: TestDns;

  beforeAll(async () => {
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

  it('passes the live-updates websocket (/api/v1/events) through, upgrade and all', async () => {
    const client = await LiveClient.open(
      `wss://127.0.0.1:${edge.httpsPort}/api/v1/events`,
      { host: DOMAIN },
      { ca: edge.ca },
    );
    expect(client).toBeInstanceOf(LiveClient);
    const live = client as LiveClient;
    // No token: the API answers the hello by closing with its 4001, so the socket reached it.
    live.send({ type: 'hello', v: 1 });
    expect((await live.closed).code).toBe(4001);
  });
});

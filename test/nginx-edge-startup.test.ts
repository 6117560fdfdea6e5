/**
 * The production nginx template before traffic: a rendering refused when a variable is missing
 * or a value could inject directives, and real nginx starting while a service's compose name
 * does not resolve yet (the music API served, eval 503 until it appears).
 */
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { renderNginxTemplate } from '../src/ops/nginx-template.js';
import { createMusicTestApp, TEST_SECURE_LINK_SECRET } from './helpers/music-app.js';
import { startTestDns } from './helpers/dns-server.js';
import { collect, startNginxEdge, type Answer } from './helpers/nginx-edge.js';

const DOMAIN = 'localhost';

describe('nginx template rendering', () => {
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
      NGINX_RESOLVER: '127.0.0.11',
    };
    expect(() => renderNginxTemplate('x', values)).toThrow(/SECURE_LINK_SECRET must not contain/);
    expect(renderNginxTemplate('$uri ${DOMAIN} ${OTHER}', { ...values, SECURE_LINK_SECRET: 's' })).toBe(
      '$uri localhost ${OTHER}',
    );
  });
});

describe('nginx starting while a service does not resolve', () => {
  it('starts, serves the music API, and answers 503 for eval until it appears', async () => {
    const music = await createMusicTestApp({ RATE_LIMITS: 'off', DOMAIN });
    await music.app.listen({ port: 0, host: '127.0.0.2' });
    const dns = await startTestDns({ api: '127.0.0.2' });
    const edge = await startNginxEdge({
      musicApi: `api:${(music.app.server.address() as AddressInfo).port}`,
      eval: 'eval:8080',
      domain: DOMAIN,
      secureLinkSecret: TEST_SECURE_LINK_SECRET,
      resolver: dns.address,
    });
    try {
      const get = (path: string) =>
        new Promise<Answer>((resolve, reject) => {
          const req = httpsRequest(
            {
              host: '127.0.0.1',
              port: edge.httpsPort,
              servername: DOMAIN,
              ca: edge.ca,
              path,
              headers: { host: DOMAIN },
              agent: false,
            },
            (res) => void collect(res).then(resolve, reject),
          );
          req.on('error', reject);
          req.end();
        });
      expect((await get('/')).status).toBe(200);
      const evalDown = await get('/api/catalog');
      expect(evalDown.status).toBe(503);
      expect(evalDown.headers['retry-after']).toBe('5');
    } finally {
      await edge.stop();
      await dns.close();
      await music.close();
    }
  }, 60_000);
});

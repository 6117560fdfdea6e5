/**
 * One client address behind a proxy (issue 32, item 7): TRUSTED_PROXIES host names are resolved
 * (at start-up and again on a timer) for every caller of clientAddress, on both services: the
 * eval rate-limit buckets and the music play counter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrustedProxies } from '../src/core/trusted-proxies.js';
import { makeEvalApp } from './helpers/eval-app.js';
import { addReadyVersion } from './helpers/library-rows.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser } from './helpers/music-domain.js';

describe('eval behind a proxy named by host name', () => {
  it('gives each client behind TRUSTED_PROXIES=localhost a rate-limit bucket of its own', async () => {
    const app = await makeEvalApp({
      RATE_LIMITS: 'on',
      TRUSTED_PROXIES: 'localhost',
      EVAL_RATE_LIMIT_PER_MINUTE: '1',
      EVAL_RATE_LIMIT_BURST: '2',
    });
    try {
      const from = (client: string) =>
        app.inject({
          method: 'POST',
          url: '/api/gate',
          remoteAddress: '127.0.0.1',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
          payload: '{}',
        });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await from('203.0.113.9')).statusCode);
      expect(statuses.slice(-1)).toEqual([429]);
      expect((await from('198.51.100.4')).statusCode).not.toBe(429);
      // A peer that is not the proxy cannot pick its bucket with the header.
      const direct = await app.inject({
        method: 'POST',
        url: '/api/gate',
        remoteAddress: '192.0.2.50',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.99' },
        payload: '{}',
      });
      expect(direct.statusCode).not.toBe(429);
    } finally {
      await app.close();
    }
  });

  it('refuses an entry that is no address, range or host name at start-up, naming the variable', async () => {
    await expect(makeEvalApp({ TRUSTED_PROXIES: 'nginx, 10.0.0.0/99' })).rejects.toThrow(
      /TRUSTED_PROXIES: "10\.0\.0\.0\/99"/,
    );
  });
});

describe('music play counter behind a proxy named by host name', () => {
  let t: MusicTestApp;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off', TRUSTED_PROXIES: 'localhost' });
  });
  afterAll(async () => t?.close());

  it('counts plays of two listeners behind the proxy as two', async () => {
    const owner = await signupUser(t.app, 'proxyplays');
    const id = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/tracks',
        headers: owner.headers,
        payload: { title: 'Behind the proxy', visibility: 'public' },
      })
    ).json().id as string;
    await addReadyVersion(t.connections, id, owner.id, { artist: 'A', album: 'B' });
    const play = (listener: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/analytics/plays',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': listener },
        payload: { track_id: id, position_ms: 0 },
      });
    expect((await play('203.0.113.7')).json()).toEqual({ counted: true });
    expect((await play('198.51.100.23')).json()).toEqual({ counted: true });
    expect((await play('203.0.113.7')).json()).toEqual({ counted: false });
  });
});

describe('TrustedProxies', () => {
  it('resolves host names again on a timer, keeping the last addresses when a round fails', async () => {
    let answer: string[] | Error = ['10.1.0.5'];
    const lookup = (name: string) => {
      expect(name).toBe('proxy.internal');
      return answer instanceof Error
        ? Promise.reject(answer)
        : Promise.resolve(answer.map((address) => ({ address })));
    };
    const proxies = new TrustedProxies(['proxy.internal', '10.9.0.0/16'], lookup);
    await proxies.resolve();
    expect([proxies.has('10.1.0.5'), proxies.has('::ffff:10.1.0.5'), proxies.has('10.9.3.4')]).toEqual([
      true,
      true,
      true,
    ]);
    // Each round reports to onRound; a test waits for the round that shows what it expects.
    const rounds: (Error | undefined)[] = [];
    let waiter: { done: () => boolean; resolve: () => void } | undefined;
    const until = (done: () => boolean) => new Promise<void>((resolve) => (waiter = { done, resolve }));
    answer = ['10.1.0.6', 'fd00::6'];
    proxies.refreshEvery(5, (err) => {
      rounds.push(err);
      if (waiter?.done()) waiter.resolve();
    });
    try {
      await until(() => proxies.has('10.1.0.6'));
      expect([proxies.has('10.1.0.5'), proxies.has('10.1.0.6'), proxies.has('fd00::6')]).toEqual([
        false,
        true,
        true,
      ]);
      answer = new Error('getaddrinfo EAI_AGAIN proxy.internal');
      await until(() => rounds.at(-1) instanceof Error);
      expect(rounds.at(-1)?.message).toMatch(
        /TRUSTED_PROXIES: the host name "proxy\.internal" does not resolve/,
      );
      expect(proxies.has('10.1.0.6')).toBe(true);
      expect(proxies.has('10.9.255.1')).toBe(true);
    } finally {
      proxies.stop();
    }
  });
});

/**
 * Subsonic client keys and credentials over a real app listening on a port (no song needed):
 * keys are shown once and listed without their secret; getOpenSubsonicExtensions answers without
 * credentials; unknown endpoints answer the spec's error; the account password is refused, apiKey
 * with u conflicts, a revoked key stops working at once.
 */
import type { AddressInfo } from 'node:net';
import { SubsonicAPI } from 'subsonic-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { PASSWORD, signupUser, type TestUser } from './helpers/music-domain.js';
import { xmlParser } from './helpers/subsonic-fixture.js';
import { MAX_CLIENT_KEYS } from '../src/music/subsonic/client-key-service.js';

describe('OpenSubsonic client keys and credentials', () => {
  let t: MusicTestApp;
  let base: string;
  let owner: TestUser;
  let other: TestUser;
  let key: string;
  let keyId: string;

  const call = (method: string, url: string, who?: TestUser, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      ...(who ? { headers: who.headers } : {}),
      ...(payload ? { payload } : {}),
    });
  const client = (auth: { apiKey: string } | { username: string; password: string }) =>
    new SubsonicAPI({ url: base, auth });
  const raw = async (path: string, params: Record<string, string | string[]>, init: RequestInit = {}) => {
    const url = new URL(`/rest/${path}`, base);
    for (const [k, v] of Object.entries(params))
      for (const one of [v].flat()) url.searchParams.append(k, one);
    return fetch(url, init);
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are checked field by field
  const jsonOf = async (res: Response): Promise<any> =>
    ((await res.json()) as Record<string, unknown>)['subsonic-response'];

  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    owner = await signupUser(t.app, 'sub');
    other = await signupUser(t.app, 'oth');
    const created = await call('POST', '/api/v1/me/client-keys', owner, { name: 'Feishin on my laptop' });
    expect(created.statusCode, created.body).toBe(201);
    ({ key, id: keyId } = created.json());
  });
  afterAll(async () => t?.close());

  it('client keys: shown once, listed by name, prefix and use, never readable again', async () => {
    expect(key).toMatch(/^ssk_[A-Za-z0-9_-]{43}$/);
    const list = await call('GET', '/api/v1/me/client-keys', owner);
    expect(list.statusCode).toBe(200);
    expect(list.json().items).toEqual([
      {
        id: keyId,
        name: 'Feishin on my laptop',
        prefix: key.slice(0, 8),
        created_at: expect.any(String),
        last_used_at: null,
      },
    ]);
    expect(list.body).not.toContain(key);
    const row = await t.connections.prisma.clientKey.findUniqueOrThrow({ where: { id: keyId } });
    expect(Buffer.from(row.keyCiphertext).includes(Buffer.from(key))).toBe(false);
    expect((await call('GET', '/api/v1/me/client-keys')).statusCode).toBe(401);
    expect((await call('POST', '/api/v1/me/client-keys', owner, { name: 'bad\u0007name' })).statusCode).toBe(
      400,
    );
    expect((await call('DELETE', `/api/v1/me/client-keys/${keyId}`, other)).statusCode).toBe(404);
  });

  it('holds the bound of 50 client keys when 40 creates of one user arrive at once', async () => {
    const who = await signupUser(t.app, 'many');
    for (let i = 0; i < 21; i++)
      expect((await call('POST', '/api/v1/me/client-keys', who, { name: `key ${i}` })).statusCode).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => call('POST', '/api/v1/me/client-keys', who, { name: 'at once' })),
    );
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([...Array<number>(29).fill(201), ...Array<number>(11).fill(409)]);
    expect((await call('GET', '/api/v1/me/client-keys', who)).json().items).toHaveLength(MAX_CLIENT_KEYS);
  });

  it('getOpenSubsonicExtensions answers without credentials; unknown endpoints answer the spec error', async () => {
    const res = await raw('getOpenSubsonicExtensions.view', { f: 'json', v: '1.16.1', c: 'test' });
    expect(res.status).toBe(200);
    const body = await jsonOf(res);
    expect(body).toMatchObject({
      status: 'ok',
      version: '1.16.1',
      openSubsonic: true,
      type: expect.any(String),
      serverVersion: expect.any(String),
    });
    expect(body.openSubsonicExtensions.map((e: { name: string }) => e.name).sort()).toEqual([
      'apiKeyAuthentication',
      'formPost',
      'indexBasedQueue',
      'songLyrics',
      'transcodeOffset',
    ]);
    for (const path of ['getVideos.view', 'getVideos', 'jukeboxControl', 'no/such/thing']) {
      const unknown = await raw(path, { apiKey: key });
      expect(unknown.status, path).toBe(404);
      expect(unknown.headers.get('content-type')).toContain('xml');
      const xml = xmlParser.parse(await unknown.text())['subsonic-response'][0];
      expect(xml).toMatchObject({ status: 'failed', openSubsonic: 'true', error: [{ code: '0' }] });
      expect(xml.error[0].message).toMatch(/unsupported endpoint/i);
    }
  });

  it('the account password is refused (40); apiKey with u is 43; a revoked key is 44 / 40', async () => {
    const byPassword = await client({ username: owner.handle, password: PASSWORD }).ping();
    expect(byPassword).toMatchObject({ status: 'failed', error: { code: 40 } });
    const legacy = await raw('ping.view', {
      u: owner.handle,
      p: `enc:${Buffer.from(PASSWORD).toString('hex')}`,
      f: 'json',
    });
    expect(legacy.status).toBe(200);
    expect((await jsonOf(legacy)).error.code).toBe(40);
    const plainKey = await raw('ping.view', { u: owner.handle, p: key, f: 'json' });
    expect((await jsonOf(plainKey)).status).toBe('ok');
    const both = await raw('ping.view', { u: owner.handle, apiKey: key, f: 'json' });
    expect((await jsonOf(both)).error.code).toBe(43);
    const missing = await raw('ping.view', { f: 'json' });
    expect((await jsonOf(missing)).error.code).toBe(10);

    const spare = (await call('POST', '/api/v1/me/client-keys', owner, { name: 'spare' })).json();
    expect((await client({ apiKey: spare.key }).ping()).status).toBe('ok');
    // Remembered lookups (5 s) learn of a new key at once and forget a revoked one at once.
    expect((await client({ username: owner.handle, password: spare.key }).ping()).status).toBe('ok');
    expect((await call('DELETE', `/api/v1/me/client-keys/${spare.id}`, owner)).statusCode).toBe(204);
    expect(await client({ apiKey: spare.key }).ping()).toMatchObject({ error: { code: 44 } });
    expect(await client({ username: owner.handle, password: spare.key }).ping()).toMatchObject({
      error: { code: 40 },
    });
    // The other key still works and its last use is recorded.
    expect((await client({ apiKey: key }).ping()).status).toBe('ok');
    const listed = (await call('GET', '/api/v1/me/client-keys', owner)).json().items;
    expect(listed.find((k: { id: string }) => k.id === keyId).last_used_at).toEqual(expect.any(String));
  });
});

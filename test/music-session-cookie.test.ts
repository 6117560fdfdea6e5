/**
 * The web player's session cookie: set at sign-up, login and password change (HttpOnly, Secure,
 * SameSite=Strict, __Host-), accepted instead of a bearer token, cookie-authenticated writes
 * refused without this site's Origin, dropped at logout and when dead. Bearer clients unchanged.
 */
import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../src/music/session-cookie.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { PASSWORD } from './helpers/music-domain.js';

const HOST = 'music.test:8081';
const ORIGIN = `http://${HOST}`;
const PROXY = '10.9.8.7';

function sessionSetCookie(res: LightMyRequestResponse): string {
  const raw = res.headers['set-cookie'];
  const all = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const ours = all.filter((c) => c.startsWith(`${SESSION_COOKIE}=`));
  expect(ours, JSON.stringify(all)).toHaveLength(1);
  return ours[0]!;
}

const cookieValue = (setCookie: string): string => setCookie.split(';')[0]!.slice(SESSION_COOKIE.length + 1);

describe('session cookie', () => {
  let t: MusicTestApp;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off', TRUSTED_PROXIES: PROXY });
  });
  afterAll(async () => t.close());

  const inject = (
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) => t.app.inject({ method, url, headers: { host: HOST, ...headers }, ...(payload ? { payload } : {}) });

  async function signup(): Promise<{ handle: string; cookie: string; token: string }> {
    const handle = `c_${randomBytes(5).toString('hex')}`;
    const res = await inject(
      'POST',
      '/api/v1/auth/signup',
      { origin: ORIGIN },
      { handle, email: `${handle}@example.org`, password: PASSWORD },
    );
    expect(res.statusCode, res.body).toBe(201);
    const set = sessionSetCookie(res);
    return { handle, cookie: `${SESSION_COOKIE}=${cookieValue(set)}`, token: res.json().token };
  }

  it('sign-up and login set an HttpOnly, Secure, SameSite=Strict host cookie; login answers the user', async () => {
    const { handle, cookie, token } = await signup();
    expect(cookie).toBe(`${SESSION_COOKIE}=${token}`);
    const login = await inject('POST', '/api/v1/auth/login', {}, { login: handle, password: PASSWORD });
    expect(login.statusCode).toBe(200);
    const set = sessionSetCookie(login);
    const attributes = set
      .split(';')
      .slice(1)
      .map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(
      expect.arrayContaining(['httponly', 'secure', 'samesite=strict', 'path=/', 'max-age=86400']),
    );
    expect(attributes.some((a) => a.startsWith('domain='))).toBe(false);
    const body = login.json();
    expect(cookieValue(set)).toBe(body.token);
    // The same shape as the sign-up's answer: the user and the session.
    expect(Object.keys(body).sort()).toEqual(['expires_at', 'token', 'token_type', 'user']);
    expect(Object.keys(body.user).sort()).toEqual([
      'bio',
      'created_at',
      'display_name',
      'email',
      'handle',
      'id',
      'picture_url',
      'role',
    ]);
    expect(body.user.handle).toBe(handle);
  });

  it('the cookie authenticates reads; writes need this Origin; bearer clients need none', async () => {
    const { handle, cookie, token } = await signup();
    const me = await inject('GET', '/api/v1/me', { cookie });
    expect(me.statusCode).toBe(200);
    expect(me.json().handle).toBe(handle);

    const create = (headers: Record<string, string>) =>
      inject('POST', '/api/v1/tracks', headers, { title: 'Cookie track' });
    for (const origin of [
      undefined,
      'null',
      'https://evil.example',
      'http://music.test:9999',
      'not a url',
      // Same host and port, another scheme: this server speaks plain http.
      `https://${HOST}`,
    ]) {
      const res = await create({ cookie, ...(origin === undefined ? {} : { origin }) });
      expect(res.statusCode, `${origin}: ${res.body}`).toBe(403);
      expect(res.json().detail).toMatch(/Origin/);
    }
    expect((await create({ cookie, origin: ORIGIN })).statusCode).toBe(201);
    expect((await create({ authorization: `Bearer ${token}` })).statusCode).toBe(201);
    // Behind a proxy: Host without a port is the scheme's default port, so a page on another
    // port of the same name is refused. X-Forwarded-Proto is believed only from a trusted proxy.
    const proxied = (remoteAddress: string, headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/tracks',
        remoteAddress,
        headers: { host: 'music.test', origin: 'https://music.test', cookie, ...headers },
        payload: { title: 'Behind nginx' },
      });
    expect((await proxied(PROXY, { 'x-forwarded-proto': 'https' })).statusCode).toBe(201);
    expect((await proxied(PROXY, { 'x-forwarded-proto': 'http' })).statusCode).toBe(403);
    const otherPort = { 'x-forwarded-proto': 'https', origin: 'https://music.test:8443' };
    expect((await proxied(PROXY, otherPort)).statusCode).toBe(403);
    // nginx's `Host $http_host` carries a public port that is not the default one.
    const publicPort = {
      'x-forwarded-proto': 'https',
      host: 'music.test:8443',
      origin: 'https://music.test:8443',
    };
    expect((await proxied(PROXY, publicPort)).statusCode).toBe(201);
    expect((await proxied(PROXY, { ...publicPort, origin: 'https://music.test' })).statusCode).toBe(403);
    expect((await proxied('10.9.8.6', { 'x-forwarded-proto': 'https' })).statusCode).toBe(403);
  });

  it('a browser may not sign in from another site (login CSRF)', async () => {
    const { handle } = await signup();
    const res = await inject(
      'POST',
      '/api/v1/auth/login',
      { origin: 'https://evil.example' },
      { login: handle, password: PASSWORD },
    );
    expect(res.statusCode).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('logout revokes the cookie session and drops the cookie; a dead cookie is dropped with the 401', async () => {
    const { cookie } = await signup();
    const logout = await inject('POST', '/api/v1/auth/logout', { cookie, origin: ORIGIN });
    expect(logout.statusCode).toBe(204);
    expect(sessionSetCookie(logout)).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    const after = await inject('GET', '/api/v1/me', { cookie });
    expect(after.statusCode).toBe(401);
    expect(sessionSetCookie(after)).toMatch(new RegExp(`^${SESSION_COOKIE}=;`));
    const forged = await inject('GET', '/api/v1/tracks/00000000-0000-4000-8000-000000000000', {
      cookie: `${SESSION_COOKIE}=not.a.token`,
    });
    expect(forged.statusCode).toBe(401);
  });

  it('a password change replaces the cookie: the old one is revoked, the new one works', async () => {
    const { cookie } = await signup();
    const change = await inject(
      'PATCH',
      '/api/v1/me',
      { cookie, origin: ORIGIN },
      { current_password: PASSWORD, new_password: 'another long passphrase 7' },
    );
    expect(change.statusCode, change.body).toBe(200);
    const fresh = `${SESSION_COOKIE}=${cookieValue(sessionSetCookie(change))}`;
    expect(fresh).not.toBe(cookie);
    expect((await inject('GET', '/api/v1/me', { cookie })).statusCode).toBe(401);
    expect((await inject('GET', '/api/v1/me', { cookie: fresh })).statusCode).toBe(200);
  });
});

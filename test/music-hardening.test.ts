/**
 * Issue 10: the holes found when the music API was attacked as an outsider would, one test
 * (at least) per defect. The rate-limit bypasses and the health-probe limit are in
 * music-rate-limits.test.ts; the fuzz of every JSON endpoint is in music-fuzz.test.ts.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import pg from 'pg';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMusicConfig } from '../src/music/config.js';
import { TokenService } from '../src/music/services/tokens.js';
import { createMusicTestApp, TEST_JWT_SECRET, type MusicTestApp } from './helpers/music-app.js';
import { testDatabaseUrl } from './helpers/music-env.js';
import { rawHttp } from './helpers/raw-http.js';
import { signupUser } from './helpers/music-domain.js';

const unique = (): string => randomBytes(4).toString('hex');
const PASSWORD = 'a long enough passphrase';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('input hardening', () => {
  let t: MusicTestApp;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
  });
  afterAll(async () => t.close());

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  it('refuses NUL, other control characters and bidi overrides in text fields with a 400 naming the field', async () => {
    const handle = `u_${unique()}`;
    const cases: [unknown, string, string][] = [
      [
        { handle, email: `${handle}@example.org`, password: PASSWORD, display_name: 'a\u0000b' },
        '/api/v1/auth/signup',
        '/display_name',
      ],
      [
        { handle, email: `${handle}@example.org`, password: PASSWORD, display_name: 'evil\u202Etxt.exe' },
        '/api/v1/auth/signup',
        '/display_name',
      ],
      [
        { handle, email: `${handle}@example.org`, password: PASSWORD, display_name: 'bell\u0007' },
        '/api/v1/auth/signup',
        '/display_name',
      ],
      [{ login: 'nul\u0000user', password: 'whatever' }, '/api/v1/auth/login', '/login'],
    ];
    for (const [body, url, path] of cases) {
      const res = await post(url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors).toContainEqual({
        path,
        message: expect.stringMatching(/character U\+[0-9A-F]{4}/),
      });
    }
    // Emoji sequences joined by ZWJ stay allowed.
    const ok = await post('/api/v1/auth/signup', {
      handle,
      email: `${handle}@example.org`,
      password: PASSWORD,
      display_name: 'Family \u{1F468}\u200D\u{1F469}\u200D\u{1F467}',
    });
    expect(ok.statusCode).toBe(201);
  });

  it('words every validation message about the real value', async () => {
    const res = await post('/api/v1/auth/signup', { handle: 123, email: 'a@example.org', password: 'short' });
    expect(res.statusCode).toBe(400);
    const messages = Object.fromEntries(
      (res.json().errors as { path: string; message: string }[]).map((e) => [e.path, e.message]),
    );
    expect(messages['/handle']).toBe(
      'is the number 123; it must be 3 to 30 letters (a to z), digits or underscores (_)',
    );
    expect(messages['/password']).toBe('is 5 characters long; at least 10 are required');
    const query = await t.app.inject({ url: `/api/v1/users/someone?limit=0` });
    expect(query.json().errors).toEqual([
      { path: 'querystring:/limit', message: 'is the number 0; it must be a whole number from 1 to 100' },
    ]);
    const empty = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: [1] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0].message).toBe('is a list; it must be an object');
    for (const r of [res, query, empty]) expect(r.body).not.toMatch(/undefined|\bis \?|got nothing nothing/);
  });

  it('refuses the most common passwords and blank ones, keeps 10-256 characters', async () => {
    for (const password of ['qwertyuiop', '1q2w3e4r5t', 'QwertyUiop', '            ']) {
      const handle = `u_${unique()}`;
      const res = await post('/api/v1/auth/signup', { handle, email: `${handle}@example.org`, password });
      expect(res.statusCode, password).toBe(400);
      expect(res.json().errors[0].path).toBe('/password');
    }
    const handle = `u_${unique()}`;
    const long = await post('/api/v1/auth/signup', {
      handle,
      email: `${handle}@example.org`,
      password: 'x'.repeat(257),
    });
    expect(long.statusCode).toBe(400);
  });

  it('accepts "Bearer" followed by several spaces (RFC 6750), refuses body fields on logout', async () => {
    const handle = `u_${unique()}`;
    const created = await post('/api/v1/auth/signup', {
      handle,
      email: `${handle}@example.org`,
      password: PASSWORD,
    });
    const token = created.json().token as string;
    const me = await t.app.inject({
      url: '/api/v1/users/me',
      headers: { authorization: `Bearer    ${token}` },
    });
    expect(me.statusCode).toBe(200);
    const withField = await post(
      '/api/v1/auth/logout',
      { everywhere: true },
      { authorization: `Bearer ${token}` },
    );
    expect(withField.statusCode).toBe(400);
    expect(withField.json().errors).toEqual([
      { path: '/everywhere', message: 'is not an allowed property here (unknown property "everywhere")' },
    ]);
    expect((await post('/api/v1/auth/logout', {}, { authorization: `Bearer ${token}` })).statusCode).toBe(
      204,
    );
  });

  it('says what is wrong with a __proto__ key', async () => {
    const res = await post('/api/v1/auth/login', '{"login":"a","password":"b","__proto__":{"admin":true}}');
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/"__proto__".*refused/);
  });

  it('refuses a query number that overflows to Infinity (limit=1e400) with a 400, not a 500', async () => {
    const handle = `u_${unique()}`;
    const signup = await post('/api/v1/auth/signup', {
      handle,
      email: `${handle}@example.org`,
      password: PASSWORD,
      display_name: 'Finite',
    });
    expect(signup.statusCode).toBe(201);
    // Decimal digits only (1e400 is refused for its spelling): 400 of them still overflow.
    const huge = '1'.padEnd(401, '0');
    const res = await t.app.inject({ url: `/api/v1/users/${handle}?limit=${huge}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      expect.objectContaining({
        path: 'querystring:/limit',
        message: expect.stringMatching(/too large to read; it must be a whole number from 1 to 100/),
      }),
    ]);
    for (const spelled of ['1e400', '-1e400', `-${huge}`]) {
      const refused = await t.app.inject({ url: `/api/v1/users/${handle}?limit=${spelled}` });
      expect(refused.statusCode, spelled).toBe(400);
      expect(refused.json().errors[0].message, spelled).toContain('written in decimal digits');
    }
    expect((await t.app.inject({ url: `/api/v1/users/${handle}?limit=100` })).statusCode).toBe(200);
  });

  it('reads a query or path integer as decimal digits only: hex, exponents, signs and spaces are a 400 naming it', async () => {
    const user = await signupUser(t.app, 'dec');
    // ajv's coercion (Number()) read each of these as a number.
    for (const bad of ['0x10', '1e2', '+5', ' 5', '5 ', '0b11', '0o7', '1.0', '-5', '']) {
      const res = await t.app.inject({
        url: `/api/v1/users/${user.handle}?limit=${encodeURIComponent(bad)}`,
      });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().errors, bad).toEqual([
        {
          path: 'querystring:/limit',
          message: `is ${JSON.stringify(bad)}; it must be a whole number from 1 to 100 written in decimal digits, like 20 (no sign, spaces, hexadecimal or exponent)`,
        },
      ]);
      expect(res.json().detail, bad).toContain('limit');
    }
    for (const good of ['5', '05', '100']) {
      const res = await t.app.inject({ url: `/api/v1/users/${user.handle}?limit=${good}` });
      expect(res.statusCode, good).toBe(200);
    }
    // The same rule for every route's integers, path parameters included.
    const feed = await t.app.inject({ url: '/api/v1/new?limit=0x10' });
    expect(feed.statusCode, feed.body).toBe(400);
    const part = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/upload/multipart/some-upload/parts/0x1',
      headers: user.headers,
    });
    expect(part.statusCode, part.body).toBe(400);
    expect(part.json().errors).toEqual([
      expect.objectContaining({ path: 'params:/n', message: expect.stringContaining('decimal digits') }),
    ]);
  });
});

describe('JSON body limit', () => {
  it('answers a 2 MB JSON body with 413 at once while health keeps answering', async () => {
    const t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (t.app.server.address() as AddressInfo).port;
      const big = JSON.stringify(Array.from({ length: 250_000 }, (_, i) => i * 1000));
      expect(big.length).toBeGreaterThan(2 * 1024 * 1024 - 1);
      const [tooLarge, health] = await Promise.all([
        // An anonymous route: logout now authenticates before reading any body.
        rawHttp(port, 'POST', '/api/v1/auth/login', { body: big }),
        rawHttp(port, 'GET', '/api/v1/health'),
      ]);
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(health.status).toBe(200);
      expect(t.config.jsonBodyLimit).toBe(1024 * 1024);
    } finally {
      await t.close();
    }
  });

  it('is configurable with MUSIC_JSON_BODY_LIMIT', () => {
    expect(loadMusicConfig({ MUSIC_JSON_BODY_LIMIT: '64kb' }).jsonBodyLimit).toBe(64 * 1024);
    expect(() => loadMusicConfig({ MUSIC_JSON_BODY_LIMIT: 'lots' })).toThrow(/MUSIC_JSON_BODY_LIMIT/);
  });
});

describe('TRUSTED_PROXIES', () => {
  const login = {
    method: 'POST' as const,
    url: '/api/v1/auth/login',
    payload: { login: 'x', password: 'y' },
  };

  it.each(['localhost', '127.0.0.0/8', '127.0.0.1'])(
    '%s: clients behind the proxy get buckets of their own',
    async (proxies) => {
      const t = await createMusicTestApp({ TRUSTED_PROXIES: proxies });
      try {
        const from = (client: string) =>
          t.app.inject({ ...login, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': client } });
        const a = `203.0.113.${Math.floor(Math.random() * 250)}`;
        for (let i = 0; i < 4; i++) await from(a);
        expect((await from(a)).statusCode).toBe(429);
        expect((await from('198.51.100.7')).statusCode).not.toBe(429);
      } finally {
        await t.close();
      }
    },
  );

  it('refuses an entry that is no address, range or host name, naming the variable', () => {
    expect(() => loadMusicConfig({ TRUSTED_PROXIES: 'nginx, 10.0.0.0/99' })).toThrow(
      /TRUSTED_PROXIES: "10\.0\.0\.0\/99"/,
    );
    expect(() => loadMusicConfig({ TRUSTED_PROXIES: 'bad name!' })).toThrow(/TRUSTED_PROXIES/);
  });

  it('stops start-up when a host name does not resolve', async () => {
    await expect(createMusicTestApp({ TRUSTED_PROXIES: `no-such-host-${unique()}.invalid` })).rejects.toThrow(
      /TRUSTED_PROXIES: the host name/,
    );
  });
});

describe('configuration and start-up', () => {
  it('never echoes a secret in a configuration error', () => {
    const secret = 'short-but-secret';
    let message = '';
    try {
      loadMusicConfig({ SECURE_LINK_SECRET: secret.slice(0, 10), JWT_SECRET: secret });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/SECURE_LINK_SECRET \(got a value of 10 characters\)/);
    expect(message).toMatch(/JWT_SECRET/);
    expect(message).not.toContain(secret.slice(0, 10));
  });

  it('ensure-database creates only the default database or with --create', async () => {
    const name = `typo_${unique()}`;
    const url = new URL(testDatabaseUrl());
    url.pathname = `/${name}`;
    const run = (args: string[]) =>
      promisify(execFile)('node', ['scripts/ensure-database.mjs', ...args], {
        env: { ...process.env, DATABASE_URL: url.toString() },
      }).then(
        () => 0,
        (err: { code?: number; stderr?: string }) => {
          expect(err.stderr).toMatch(/does not exist; check the URL, or run with --create/);
          return err.code ?? 1;
        },
      );
    expect(await run([])).toBe(2);
    const admin = new pg.Client({ connectionString: testDatabaseUrl() });
    await admin.connect();
    try {
      const exists = async () =>
        (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
      expect(await exists()).toBe(false);
      expect(await run(['--create'])).toBe(0);
      expect(await exists()).toBe(true);
      await admin.query(`DROP DATABASE "${name}"`);
    } finally {
      await admin.end();
    }
  });
});

describe('dependencies down', () => {
  it('database down: 503 with Retry-After, and health names the failure in one line', async () => {
    const port = await closedPort();
    const t = await createMusicTestApp({
      RATE_LIMITS: 'off',
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/none`,
    });
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { login: 'someone', password: 'whatever' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json().detail).toMatch(/database is unavailable/);
      const profile = await t.app.inject({ url: '/api/v1/users/someone' });
      expect(profile.statusCode).toBe(503);
      const health = await t.app.inject({ url: '/api/v1/health' });
      const db = health.json().checks.find((c: { service: string }) => c.service === 'database');
      expect(db.error).toMatch(/reach database server/);
      expect(db.error).not.toContain('\n');
    } finally {
      await t.close();
    }
  });

  it('Redis down: API calls answer within a bounded time (limiter fails open, sessions 503)', async () => {
    const port = await closedPort();
    const t = await createMusicTestApp({ CACHE_URL: `redis://127.0.0.1:${port}` });
    try {
      const { token } = await new TokenService(TEST_JWT_SECRET, 3600).issue({
        id: '00000000-0000-4000-8000-000000000000',
        handle: 'ghost',
        role: 'user',
      });
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const res = await t.app.inject({
          url: '/api/v1/users/me',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.statusCode).toBe(503);
        // Two Redis commands (limiter, revocation list), each bounded by the 500 ms command timeout.
        expect(Date.now() - started).toBeLessThan(1_800);
      }
    } finally {
      await t.close();
    }
  });
});

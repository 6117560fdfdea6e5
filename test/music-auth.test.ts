/** Identity over HTTP: sign-up, login, bearer tokens, logout revocation, profiles, admin CLI. */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommand } from '../src/main/commands/admin.js';
import { TokenService } from '../src/music/services/tokens.js';
import { runCommand } from './helpers/cli-command.js';
import { createMusicTestApp, TEST_JWT_SECRET, type MusicTestApp } from './helpers/music-app.js';
import { testDatabaseUrl } from './helpers/music-env.js';
import { legacyScryptHash } from './helpers/legacy-password.js';

const unique = (): string => randomBytes(4).toString('hex');
const PASSWORD = 'a long enough passphrase';

describe('auth', () => {
  let t: MusicTestApp;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
  });
  afterAll(async () => t.close());

  const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, headers });
  const me = (token: string) =>
    t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: { authorization: `Bearer ${token}` } });

  async function signup(handle = `u_${unique()}`, email = `${handle}@example.org`) {
    const res = await post('/api/v1/auth/signup', { handle, email, password: PASSWORD });
    return { res, handle, email };
  }

  it('signup -> login -> authenticated request -> logout -> the same token refused', async () => {
    const { res, handle, email } = await signup();
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created.user).toMatchObject({ handle, email, role: 'user' });
    expect(created.user).not.toHaveProperty('passwordHash');
    expect(JSON.stringify(created)).not.toContain('argon2');

    const login = await post('/api/v1/auth/login', { login: handle, password: PASSWORD });
    expect(login.statusCode).toBe(200);
    const { token, expires_at } = login.json();
    // The login answer has the sign-up answer's shape: the account beside the session.
    expect(Object.keys(login.json()).sort()).toEqual(Object.keys(created).sort());
    expect(login.json().user).toEqual(created.user);
    expect(Date.parse(expires_at)).toBeGreaterThan(Date.now() + 23 * 3600_000);
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ sub: created.user.id, handle, role: 'user' });
    expect(Object.keys(claims).sort()).toEqual(['exp', 'handle', 'iat', 'jti', 'role', 'sub']);
    expect(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()).alg).toBe('HS256');

    const ok = await me(token);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ handle, email });

    const logout = await post('/api/v1/auth/logout', undefined, { authorization: `Bearer ${token}` });
    expect(logout.statusCode).toBe(204);
    const refused = await me(token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().detail).toMatch(/revoked/);
    expect(
      (await post('/api/v1/auth/logout', undefined, { authorization: `Bearer ${token}` })).statusCode,
    ).toBe(401);

    // The revocation lives in Redis until the token's own expiry.
    const jtiKey = `${t.config.cacheKeyPrefix}revoked:${claims.jti}`;
    const ttl = await t.connections.redis.ttl(jtiKey);
    expect(ttl).toBeGreaterThan(23 * 3600);
    expect(ttl).toBeLessThanOrEqual(24 * 3600);

    // The signup token is a different token and still works.
    expect((await me(created.token)).statusCode).toBe(200);
  });

  it('logs in by email too, case-insensitively', async () => {
    const { handle, email } = await signup();
    const res = await post('/api/v1/auth/login', { login: email.toUpperCase(), password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const byHandle = await post('/api/v1/auth/login', { login: handle.toUpperCase(), password: PASSWORD });
    expect(byHandle.statusCode).toBe(200);
  });

  it('answers 409 for a duplicate handle (in any case) or email', async () => {
    const { handle, email } = await signup();
    const dupHandle = await post('/api/v1/auth/signup', {
      handle: handle.toUpperCase(),
      email: `x${email}`,
      password: PASSWORD,
    });
    expect(dupHandle.statusCode).toBe(409);
    expect(dupHandle.json().errors).toEqual([{ path: '/handle', message: 'is already taken' }]);
    const dupEmail = await post('/api/v1/auth/signup', {
      handle: `${handle}x`,
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expect(dupEmail.statusCode).toBe(409);
    expect(dupEmail.json().errors).toEqual([{ path: '/email', message: 'is already registered' }]);
  });

  it('answers 400 naming each weak or missing field', async () => {
    const cases: [unknown, string[]][] = [
      [{ handle: 'ok_handle', email: 'ok@example.org', password: 'short' }, ['/password']],
      [{ handle: 'x', email: 'not-an-email', password: PASSWORD }, ['/handle', '/email']],
      [{ email: 'a@example.org' }, ['/handle', '/password']],
      [
        { handle: 'bad handle!', email: 'b@example.org', password: PASSWORD, admin: true },
        ['/handle', '/admin'],
      ],
      [{ handle: 'samename', email: 'c@example.org', password: 'my samename password' }, ['/password']],
    ];
    for (const [body, paths] of cases) {
      const res = await post('/api/v1/auth/signup', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const problem = res.json();
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(problem.errors.map((e: { path: string }) => e.path).sort()).toEqual([...paths].sort());
      for (const e of problem.errors) expect(e.message.length).toBeGreaterThan(5);
    }
    expect((await post('/api/v1/auth/login', { login: 'someone' })).statusCode).toBe(400);
  });

  it('re-hashes an old scrypt hash with Argon2id on the next successful login only', async () => {
    const { res, handle } = await signup();
    const id = res.json().user.id as string;
    const stored = async () =>
      (await t.connections.prisma.user.findUniqueOrThrow({ where: { id } })).passwordHash;
    expect(await stored()).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const old = legacyScryptHash(PASSWORD);
    await t.connections.prisma.user.update({ where: { id }, data: { passwordHash: old } });

    expect((await post('/api/v1/auth/login', { login: handle, password: `${PASSWORD}!` })).statusCode).toBe(
      401,
    );
    expect(await stored()).toBe(old);
    expect((await post('/api/v1/auth/login', { login: handle, password: PASSWORD })).statusCode).toBe(200);
    const upgraded = await stored();
    expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await post('/api/v1/auth/login', { login: handle, password: PASSWORD })).statusCode).toBe(200);
    expect(await stored()).toBe(upgraded);
  });

  it('gives the same answer for a wrong password and an unknown user', async () => {
    const { handle } = await signup();
    const wrong = await post('/api/v1/auth/login', { login: handle, password: 'not the password at all' });
    const unknown = await post('/api/v1/auth/login', { login: `nobody_${unique()}`, password: PASSWORD });
    const unknownEmail = await post('/api/v1/auth/login', {
      login: `nobody_${unique()}@example.org`,
      password: PASSWORD,
    });
    for (const res of [wrong, unknown, unknownEmail]) {
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="music"');
    }
    expect(unknown.body).toBe(wrong.body);
    expect(unknownEmail.body).toBe(wrong.body);
  });

  it('refuses an expired token, a token signed with another secret and a malformed header', async () => {
    const { res } = await signup();
    const user = res.json().user;
    const past = Math.floor(Date.now() / 1000) - 7200;
    const expired = await new TokenService(TEST_JWT_SECRET, 3600, () => past).issue(user);
    const expiredRes = await me(expired.token);
    expect(expiredRes.statusCode).toBe(401);
    expect(expiredRes.json().detail).toMatch(/expired/);
    const forged = await new TokenService('another-secret-0123456789abcdefghijkl', 3600).issue({
      ...user,
      role: 'admin',
    });
    expect((await me(forged.token)).statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: '/api/v1/users/me', headers: { authorization: 'Basic abc' } })).statusCode,
    ).toBe(401);
    expect((await t.app.inject({ url: '/api/v1/users/me' })).statusCode).toBe(401);
  });

  it('PATCH /me changes the display name, and a password change revokes every older token', async () => {
    const { res, handle } = await signup();
    const first = res.json().token as string;
    const login = await post('/api/v1/auth/login', { login: handle, password: PASSWORD });
    const second = login.json().token as string;
    const patch = (token: string, payload: unknown) =>
      t.app.inject({
        method: 'PATCH',
        url: '/api/v1/me',
        payload: payload as object,
        headers: { authorization: `Bearer ${token}` },
      });

    const renamed = await patch(first, { display_name: 'New Name' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().user.display_name).toBe('New Name');
    expect(renamed.json()).not.toHaveProperty('token');
    expect(
      (await t.app.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${second}` } })).json(),
    ).toMatchObject({ display_name: 'New Name' });

    const wrong = await patch(first, {
      current_password: 'not it at all',
      new_password: 'another long passphrase',
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().errors[0].path).toBe('/current_password');
    for (const bad of [{}, { display_name: 'a\u0007b' }, { role: 'admin' }, { new_password: 'short' }]) {
      expect((await patch(first, bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }

    const changed = await patch(first, {
      current_password: PASSWORD,
      new_password: 'another long passphrase',
    });
    expect(changed.statusCode).toBe(200);
    const fresh = changed.json().token as string;
    for (const old of [first, second]) {
      const refused = await me(old);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().detail).toMatch(/revoked/);
    }
    expect((await me(fresh)).statusCode).toBe(200);
    expect((await post('/api/v1/auth/login', { login: handle, password: PASSWORD })).statusCode).toBe(401);
    expect(
      (await post('/api/v1/auth/login', { login: handle, password: 'another long passphrase' })).statusCode,
    ).toBe(200);
  });

  it('serves public profiles with public tracks only, cursor-paginated', async () => {
    const { res, handle } = await signup();
    const userId = res.json().user.id;
    const base = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 0; i < 5; i++) {
      await t.connections.prisma.track.create({
        data: {
          title: `Track ${i}`,
          ownerUserId: userId,
          visibility: i === 2 ? 'private' : i === 3 ? 'unlisted' : 'public',
          createdAt: new Date(base + i * 1000),
        },
      });
    }
    const page1 = await t.app.inject({ url: `/api/v1/users/${handle.toUpperCase()}?limit=2` });
    expect(page1.statusCode).toBe(200);
    const body1 = page1.json();
    expect(body1).toMatchObject({ handle, display_name: handle });
    expect(body1).not.toHaveProperty('email');
    expect(body1.tracks.items.map((x: { title: string }) => x.title)).toEqual(['Track 4', 'Track 1']);
    expect(body1.tracks.next_cursor).toEqual(expect.any(String));
    const page2 = await t.app.inject({
      url: `/api/v1/users/${handle}?limit=2&cursor=${body1.tracks.next_cursor}`,
    });
    expect(page2.json().tracks).toEqual({
      items: [expect.objectContaining({ title: 'Track 0' })],
      next_cursor: null,
    });

    expect((await t.app.inject({ url: `/api/v1/users/nobody_${unique()}` })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/v1/users/${handle}?limit=0` })).statusCode).toBe(400);
    expect((await t.app.inject({ url: `/api/v1/users/${handle}?cursor=garbage` })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/v1/users/no' })).statusCode).toBe(400);
  });
});

describe('auth without Redis', () => {
  it('fails closed with 503 when the revocation list cannot be read', async () => {
    const t = await createMusicTestApp({ RATE_LIMITS: 'off', CACHE_URL: 'redis://127.0.0.1:1' });
    try {
      const { token } = await new TokenService(TEST_JWT_SECRET, 3600).issue({
        id: '00000000-0000-4000-8000-000000000000',
        handle: 'ghost',
        role: 'user',
      });
      const res = await t.app.inject({
        url: '/api/v1/users/me',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
    } finally {
      await t.close();
    }
  });
});

describe('admin command', () => {
  let t: MusicTestApp;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
  });
  afterAll(async () => t.close());

  async function runAdmin(args: string[], env: Record<string, string> = {}): Promise<number> {
    return (await runCommand(adminCommand, args, { DATABASE_URL: testDatabaseUrl(), ...env })).code;
  }

  it('creates an admin that can log in with the admin role', async () => {
    const handle = `admin_${unique()}`;
    expect(await runAdmin(['create', handle, `${handle}@example.org`], { ADMIN_PASSWORD: PASSWORD })).toBe(0);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { login: handle, password: PASSWORD },
    });
    const claims = JSON.parse(Buffer.from(login.json().token.split('.')[1], 'base64url').toString());
    expect(claims.role).toBe('admin');
    expect(await runAdmin(['create', handle, `${handle}@example.org`], { ADMIN_PASSWORD: PASSWORD })).toBe(1);
    expect(await runAdmin(['create', 'x', 'bad'], { ADMIN_PASSWORD: 'short' })).toBe(1);
  });

  it('promotes an existing user, and fails for an unknown handle', async () => {
    const handle = `user_${unique()}`;
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { handle, email: `${handle}@example.org`, password: PASSWORD },
    });
    expect(await runAdmin(['promote', handle])).toBe(0);
    const user = await t.connections.prisma.user.findUnique({ where: { handle } });
    expect(user?.role).toBe('admin');
    expect(await runAdmin(['promote', `ghost_${unique()}`])).toBe(1);
    expect(await runAdmin(['promote'])).toBe(2);
  });
});

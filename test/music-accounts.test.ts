/**
 * Accounts without outgoing mail (the default): verification skipped, reset answers 503, the
 * operator's `admin reset-password`; and sessions: listed with device, address hash and last
 * seen, ended one at a time or all at once. Password reset is limited by the auth scope.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommand } from '../src/main/commands/admin.js';
import { hashAccountToken, newAccountToken } from '../src/music/services/account-tokens.js';
import { listenerHash } from '../src/music/services/analytics-service.js';
import { PasswordResetService, RESET_REQUESTED } from '../src/music/services/password-reset-service.js';
import { PrismaAccountRepository } from '../src/music/repositories/account-repository.js';
import type { MailOutbox } from '../src/music/repositories/mail-outbox.js';
import { PrismaUserRepository } from '../src/music/repositories/user-repository.js';
import type { MailJobData } from '../src/music/jobs/queues.js';
import { runCommand } from './helpers/cli-command.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { PASSWORD } from './helpers/music-domain.js';
import { testDatabaseUrl } from './helpers/music-env.js';

const unique = (): string => randomBytes(5).toString('hex');
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let t: MusicTestApp;
beforeAll(async () => {
  t = await createMusicTestApp({ RATE_LIMITS: 'off' });
});
afterAll(async () => t?.close());

async function signup(): Promise<{ handle: string; email: string; token: string }> {
  const handle = `s_${unique()}`;
  const email = `${handle}@example.org`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/signup',
    headers: { 'user-agent': FIREFOX },
    payload: { handle, email, password: PASSWORD },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { handle, email, token: res.json<{ token: string }>().token };
}

async function login(handle: string, userAgent: string, password = PASSWORD): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    headers: { 'user-agent': userAgent },
    payload: { login: handle, password },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ token: string }>().token;
}

const sessionsOf = async (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/v1/me/sessions', headers: bearer(token) });

describe('without SMTP settings', () => {
  it('skips verification: public tracks at once, an address change applies at once', async () => {
    const user = await signup();
    const status = await t.app.inject({
      method: 'GET',
      url: '/api/v1/me/verification',
      headers: bearer(user.token),
    });
    expect(status.json()).toEqual({ email: user.email, verified: false, required: false });
    const track = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tracks',
      headers: bearer(user.token),
      payload: { title: 'Public at once' },
    });
    expect(track.statusCode).toBe(201);
    const newEmail = `n_${unique()}@example.org`;
    const change = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/email',
      headers: bearer(user.token),
      payload: { email: newEmail, current_password: PASSWORD },
    });
    expect(change.statusCode, change.body).toBe(200);
    expect(change.json()).toEqual({ email: newEmail });
    const resend = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/verification',
      headers: bearer(user.token),
    });
    expect(resend.statusCode).toBe(503);
  });

  it('password reset answers 503 with a message naming the way out', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset',
      payload: { email: 'someone@example.org' },
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(res.json().detail).toMatch(/SMTP_HOST.*cli admin reset-password HANDLE/);
  });

  it('refuses bad input with a 4xx that says what is wrong', async () => {
    const cases: [string, object][] = [
      ['/api/v1/auth/password-reset', { email: 'not an address' }],
      ['/api/v1/auth/password-reset', { email: 'a@example.org', extra: 1 }],
      ['/api/v1/auth/password-reset/confirm', { token: 'short', password: 'long enough password' }],
      ['/api/v1/auth/password-reset/confirm', { token: 'x'.repeat(43), password: 'short' }],
      ['/api/v1/auth/verification/confirm', { token: `${'x'.repeat(42)}\n` }],
      ['/api/v1/auth/password-reset', { email: ['a@example.org'] }],
      ['/api/v1/auth/password-reset', { email: `${'a'.repeat(250)}@example.org` }],
      ['/api/v1/auth/password-reset', { email: 'a\u0000b@example.org' }],
    ];
    for (const [url, payload] of cases) {
      const res = await t.app.inject({ method: 'POST', url, payload });
      expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(400);
    }
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset/confirm',
      payload: { token: 'A'.repeat(43), password: 'long enough password' },
    });
    expect(unknown.statusCode).toBe(410);
    expect(unknown.json().detail).toMatch(/Ask for a new link/);
  });

  it('a reset link works for 30 minutes, once, and only as the token whose hash is stored', async () => {
    const user = await signup();
    const id = (await t.connections.prisma.user.findUniqueOrThrow({ where: { handle: user.handle } })).id;
    const make = async (minutesLeft: number): Promise<string> => {
      const { token, hash } = newAccountToken();
      // As the service issues them: a newer token voids the older ones.
      await new PrismaAccountRepository(t.connections.prisma).issueToken(
        {
          userId: id,
          purpose: 'password_reset',
          tokenHash: hash,
          email: user.email,
          expiresAt: new Date(Date.now() + minutesLeft * 60_000),
        },
        new Date(),
      );
      return token;
    };
    const confirm = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/password-reset/confirm',
        payload: { token, password: 'a fresh passphrase here' },
      });
    const expired = await make(-1);
    expect((await confirm(expired)).statusCode).toBe(410);
    const valid = await make(29);
    // The hash itself is not a token.
    expect((await confirm(hashAccountToken(valid).slice(0, 43))).statusCode).toBe(410);
    expect((await confirm(valid)).statusCode).toBe(200);
    expect((await confirm(valid)).statusCode).toBe(410);
    // A browser on another site cannot use it (no CSRF through the reset form).
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset/confirm',
      headers: { origin: 'https://evil.example' },
      payload: { token: await make(29), password: 'a fresh passphrase here' },
    });
    expect(foreign.statusCode).toBe(403);
  });

  it('mails one reset link per account per minute, however often it is asked', async () => {
    const user = await signup();
    const sent: MailJobData[] = [];
    const outbox: MailOutbox = {
      enqueue: (m) => Promise.resolve(void sent.push(m)),
      failed: () => Promise.resolve([]),
      close: () => Promise.resolve(),
    };
    let now = Date.now();
    const reset = new PasswordResetService({
      users: new PrismaUserRepository(t.connections.prisma),
      accounts: new PrismaAccountRepository(t.connections.prisma),
      mail: { outbox, publicUrl: 'https://music.test' },
      endSessions: () => Promise.resolve(0),
      revokeClientKeys: () => Promise.resolve(0),
      clearLoginFailures: () => Promise.resolve(),
      reportFailure: (err) => {
        throw err;
      },
      nowMs: () => now,
    });
    const ask = async (): Promise<void> => {
      expect(await reset.request({ email: user.email })).toEqual({ message: RESET_REQUESTED });
      await reset.settled();
    };
    await ask();
    await ask();
    expect(sent.map((m) => m.kind)).toEqual(['password-reset']);
    now += 61_000;
    await ask();
    expect(sent.length).toBe(2);
    expect(sent[1]!.link).toMatch(/^https:\/\/music\.test\/reset-password#token=[A-Za-z0-9_-]{43}$/);
  });

  it('cli admin reset-password sets the password and ends every session', async () => {
    const user = await signup();
    const run = async (args: string[], env: Record<string, string>): Promise<number> => {
      const { cacheUrl, cacheKeyPrefix } = t.config;
      const database = {
        DATABASE_URL: testDatabaseUrl(),
        CACHE_URL: cacheUrl,
        MUSIC_CACHE_KEY_PREFIX: cacheKeyPrefix,
      };
      return (await runCommand(adminCommand, args, { ...database, ...env })).code;
    };
    const fresh = 'an operator chose this one';
    expect(await run(['reset-password', `nobody_${unique()}`], { ADMIN_PASSWORD: fresh })).toBe(1);
    expect(await run(['reset-password', user.handle], { ADMIN_PASSWORD: 'password123' })).toBe(1);
    expect(await run(['reset-password', user.handle], { ADMIN_PASSWORD: fresh })).toBe(0);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(user.token) })).statusCode,
    ).toBe(401);
    await login(user.handle, FIREFOX, fresh);
  });
});

describe('sessions', () => {
  it('lists each session with its device, the address as the analytics hash and when it was last seen', async () => {
    const user = await signup();
    const phone = await login(user.handle, IPHONE);
    const res = await sessionsOf(phone);
    expect(res.statusCode).toBe(200);
    const sessions = res.json().sessions as {
      id: string;
      device: string;
      address_hash: string;
      current: boolean;
      last_seen_at: string;
    }[];
    expect(sessions.map((s) => s.device).sort()).toEqual(['Firefox on Linux', 'Safari on iOS']);
    expect(sessions.find((s) => s.current)?.device).toBe('Safari on iOS');
    const day = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000);
    for (const s of sessions) {
      expect(s.address_hash).toBe(listenerHash(t.config.ipHashSalt, day, '127.0.0.1'));
      expect(Date.parse(s.last_seen_at)).toBeGreaterThan(Date.now() - 60_000);
    }
    expect(JSON.stringify(res.json())).not.toContain('127.0.0.1');
  });

  it('ends one session (its token stops working at once), then all of them', async () => {
    const user = await signup();
    const laptop = await login(user.handle, FIREFOX);
    const phone = await login(user.handle, IPHONE);
    const list = (await sessionsOf(laptop)).json().sessions as {
      id: string;
      device: string;
      current: boolean;
    }[];
    const phoneSession = list.find((s) => s.device === 'Safari on iOS' && !s.current);
    expect(phoneSession).toBeDefined();

    const end = (id: string, token = laptop) =>
      t.app.inject({ method: 'DELETE', url: `/api/v1/me/sessions/${id}`, headers: bearer(token) });
    expect((await end(phoneSession!.id)).statusCode).toBe(204);
    expect((await sessionsOf(phone)).statusCode).toBe(401);
    expect((await end(phoneSession!.id)).statusCode).toBe(404);
    expect((await end('not-a-uuid')).statusCode).toBe(400);
    // Another user's session is not yours to end.
    const other = await signup();
    const otherId = ((await sessionsOf(other.token)).json().sessions as { id: string }[])[0]!.id;
    expect((await end(otherId)).statusCode).toBe(404);
    expect((await sessionsOf(other.token)).statusCode).toBe(200);

    const all = await t.app.inject({ method: 'DELETE', url: '/api/v1/me/sessions', headers: bearer(laptop) });
    expect(all.statusCode).toBe(204);
    expect(all.headers['set-cookie']).toMatch(/__Host-music_session=;/);
    for (const token of [laptop, user.token]) expect((await sessionsOf(token)).statusCode).toBe(401);
    const again = await login(user.handle, FIREFOX);
    expect(((await sessionsOf(again)).json().sessions as unknown[]).length).toBe(1);
  });

  it('logout removes the session from the list', async () => {
    const user = await signup();
    const other = await login(user.handle, IPHONE);
    const out = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: bearer(other) });
    expect(out.statusCode).toBe(204);
    const devices = ((await sessionsOf(user.token)).json().sessions as { device: string }[]).map(
      (s) => s.device,
    );
    expect(devices).toEqual(['Firefox on Linux']);
  });
});

describe('rate limits', () => {
  let limited: MusicTestApp;
  beforeAll(async () => {
    limited = await createMusicTestApp({ RATE_LIMITS: 'on', SMTP_HOST: '127.0.0.1', SMTP_PORT: '9' });
  });
  afterAll(async () => limited?.close());

  it('password reset is limited by the auth scope', async () => {
    const codes: number[] = [];
    // The seed's auth scope: a burst of 3 (plus the one the rate has let through), then 429s.
    for (let i = 0; i < 7; i += 1) {
      const res = await limited.app.inject({
        method: 'POST',
        url: '/api/v1/auth/password-reset',
        payload: { email: `nobody_${unique()}@example.org` },
      });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, 3)).toEqual([202, 202, 202]);
    // (Under load the limiter may fail open once on a Redis timeout: the limit, not the count, is checked.)
    expect(codes.at(-1)).toBe(429);
    expect(codes.filter((c) => c !== 202 && c !== 429)).toEqual([]);
  });
});

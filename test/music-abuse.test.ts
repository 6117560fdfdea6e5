/**
 * Accounts under abuse (issue 45), over real PostgreSQL, Redis, the real music-worker and an SMTP
 * server: parallel resets from many addresses and two API hosts, address changes and resends
 * aimed at one mailbox, a login flood across 80 addresses, and more password hashes at once than
 * the bounded queue holds.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openMailFixture, type MailFixture } from './helpers/mail-fixture.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { PASSWORD } from './helpers/music-domain.js';
import { linkIn, type SmtpSink } from './helpers/smtp-sink.js';

const NEW_PASSWORD = 'a brand new long passphrase';
let sink: SmtpSink;
let t: MusicTestApp;
let env: Record<string, string>;
let mail: MailFixture | undefined;
let queueRedis: Redis;
let mailQueue: Queue;
let clockOffsetSeconds = 0;
const nowSeconds = (): number => Date.now() / 1000 + clockOffsetSeconds;

beforeAll(async () => {
  // Limits on, each request from an address of its own (X-Forwarded-For from a trusted proxy).
  mail = await openMailFixture({ RATE_LIMITS: 'on', TRUSTED_PROXIES: '127.0.0.1' }, { nowSeconds });
  ({ sink, t, env, redis: queueRedis } = mail);
  mailQueue = new Queue('mail', { connection: queueRedis, prefix: t.config.queuePrefix });
}, 60_000);

afterAll(async () => {
  await mailQueue?.close();
  await mail?.close();
});

const unique = (): string => randomBytes(5).toString('hex');
let addressCount = 0;
/** A client address never used before in this run (198.18.0.0/15, the benchmarking range). */
const freshAddress = (): string => {
  addressCount++;
  return `198.18.${addressCount >> 8}.${addressCount & 255}`;
};

type Host = Pick<MusicTestApp, 'app'>;
const post = (host: Host, url: string, payload: object, headers: Record<string, string> = {}) =>
  host.app.inject({
    method: 'POST',
    url,
    remoteAddress: '127.0.0.1',
    headers: { 'x-forwarded-for': freshAddress(), ...headers },
    payload,
  });

async function signup(): Promise<{ id: string; handle: string; email: string; token: string }> {
  const handle = `ab_${unique()}`;
  const email = `${handle}@example.org`;
  const res = await post(t, '/api/v1/auth/signup', { handle, email, password: PASSWORD });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json<{ token: string; user: { id: string } }>();
  await sink.next(email); // the sign-up's confirmation
  return { id: body.user.id, handle, email, token: body.token };
}

/** Every mail job enqueued so far was sent (sent jobs are removed at once). */
async function mailQueueIdle(): Promise<void> {
  await vi.waitFor(
    async () => {
      const counts = await mailQueue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(0);
    },
    { timeout: 30_000, interval: 50 },
  );
}

/** Another API host on the same database, Redis and queues (its own process state). */
const secondHost = () =>
  createMusicTestApp(
    { ...env, MUSIC_CACHE_KEY_PREFIX: t.config.cacheKeyPrefix, QUEUE_PREFIX: t.config.queuePrefix },
    { nowSeconds },
  );

const liveResetTokens = (userId: string) =>
  t.connections.prisma.accountToken.count({ where: { userId, purpose: 'password_reset', usedAt: null } });

const confirmReset = (token: string, password: string) =>
  post(t, '/api/v1/auth/password-reset/confirm', { token, password });

describe('password reset under a flood', () => {
  it('30 parallel resets from 30 addresses on two hosts: one mail, one live token; only the newest link works', async () => {
    const user = await signup();
    const hosts = [await secondHost(), await secondHost()];
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post(hosts[i % 2]!, '/api/v1/auth/password-reset', { email: user.email }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array<number>(30).fill(202));
    // Closing a host waits for the work it started after answering.
    await Promise.all(hosts.map((h) => h.close()));
    expect(await liveResetTokens(user.id)).toBe(1);
    const first = linkIn(await sink.next(user.email)).token;
    await mailQueueIdle();
    expect(sink.attempts(user.email)).toBe(2); // the sign-up's mail and one reset link

    // A minute later a newer link voids the first.
    clockOffsetSeconds += 61;
    expect((await post(t, '/api/v1/auth/password-reset', { email: user.email })).statusCode).toBe(202);
    const newest = linkIn(await sink.next(user.email)).token;
    expect(await liveResetTokens(user.id)).toBe(1);
    expect((await confirmReset(first, NEW_PASSWORD)).statusCode).toBe(410);
    const done = await confirmReset(newest, NEW_PASSWORD);
    expect(done.statusCode, done.body).toBe(200);
  });
});

describe('mail a client can trigger is limited per account and per recipient', () => {
  it('six address changes to one stranger in a minute: one confirmation, one notice, five clear 429s', async () => {
    const user = await signup();
    const stranger = `stranger_${unique()}@example.org`;
    const before = sink.attempts(user.email);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        post(
          t,
          '/api/v1/auth/email',
          { email: stranger, current_password: PASSWORD },
          { authorization: `Bearer ${user.token}` },
        ),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([202, 429, 429, 429, 429, 429]);
    for (const refused of answers.filter((a) => a.statusCode === 429)) {
      const seconds = Number(refused.headers['retry-after']);
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThanOrEqual(60);
      expect(refused.json().detail).toBe(
        `A mail went to this address or for this account moments ago (one a minute per address, a few per account); ask again in ${seconds} s, and check the spam folder meanwhile.`,
      );
    }
    // Another account cannot mail the same stranger either.
    const other = await signup();
    const second = await post(
      t,
      '/api/v1/auth/email',
      { email: stranger, current_password: PASSWORD },
      { authorization: `Bearer ${other.token}` },
    );
    expect(second.statusCode).toBe(429);
    await sink.next(stranger);
    await mailQueueIdle();
    expect(sink.attempts(stranger)).toBe(1);
    expect(sink.attempts(user.email) - before).toBe(1);
  });

  it('resending a verification five times at once sends nothing more while the last mail is fresh', async () => {
    const user = await signup();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        post(t, '/api/v1/auth/verification', {}, { authorization: `Bearer ${user.token}` }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array<number>(5).fill(429));
    expect(answers.every((a) => Number(a.headers['retry-after']) >= 1)).toBe(true);
    await mailQueueIdle();
    expect(sink.attempts(user.email)).toBe(1);
  });
});

describe('login flood', () => {
  it('240 wrong logins from 80 addresses engage the account backoff; the owner gets in by a known device and by the reset link', async () => {
    const user = await signup();
    // The owner's own device logged in before the flood: it carries the known-device cookie.
    const owned = await post(t, '/api/v1/auth/login', { login: user.handle, password: PASSWORD });
    expect(owned.statusCode).toBe(200);
    const device = owned.cookies.find((c) => c.name === '__Host-music_device');
    expect(device?.httpOnly).toBe(true);

    const addresses = Array.from({ length: 80 }, freshAddress);
    const guess = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': addresses[i % 80]! },
        payload: { login: user.handle, password: `wrong guess number ${i}` },
      });
    const started = Date.now();
    const statuses = (await Promise.all(Array.from({ length: 240 }, (_, i) => guess(i)))).map(
      (r) => r.statusCode,
    );
    // Five free attempts and the sixth that starts the wait (30 s, then doubling): the rest never
    // reached a password hash.
    const elapsed = (Date.now() - started) / 1000;
    const admitted = statuses.filter((s) => s === 401).length;
    expect(admitted).toBeGreaterThanOrEqual(5);
    expect(admitted).toBeLessThanOrEqual(6 + Math.floor(elapsed / 30));
    expect(statuses.filter((s) => s !== 401).every((s) => s === 429 || s === 503)).toBe(true);

    const login = (password: string, headers: Record<string, string> = {}) =>
      post(t, '/api/v1/auth/login', { login: user.email, password }, headers);
    const waiting = await login(PASSWORD);
    expect(waiting.statusCode).toBe(429);
    expect(Number(waiting.headers['retry-after'])).toBeGreaterThan(1);
    expect(Number(waiting.headers['retry-after'])).toBeLessThanOrEqual(30);
    expect(waiting.json().detail).toMatch(/^Too many failed logins for this account; try again in \d+ s\. /);

    // The count lives in Redis, shared by every API host; a known device and a reset link clear it.
    const counted = () => queueRedis.hget(`${t.config.cacheKeyPrefix}login-failures:${user.id}`, 'n');
    expect(Number(await counted())).toBeGreaterThanOrEqual(6);
    const fromDevice = await login(PASSWORD, { cookie: `${device!.name}=${device!.value}` });
    expect(fromDevice.statusCode, fromDevice.body).toBe(200);
    expect(await counted()).toBeNull();

    // Guessed at again: the reset link ends the wait for every device.
    for (let i = 0; i < 6; i++) expect((await guess(i)).statusCode).toBe(401);
    expect((await guess(6)).statusCode).toBe(429);
    expect(Number(await counted())).toBe(6);
    clockOffsetSeconds += 61;
    expect((await post(t, '/api/v1/auth/password-reset', { email: user.email })).statusCode).toBe(202);
    const link = linkIn(await sink.next(user.email)).token;
    expect((await confirmReset(link, NEW_PASSWORD)).statusCode).toBe(200);
    expect(await counted()).toBeNull();
    const after = await login(NEW_PASSWORD);
    expect(after.statusCode, after.body).toBe(200);
  });

  it('more password checks than the bounded queue holds are answered 503 with Retry-After at once', async () => {
    // 60 different login names (no account's backoff applies), each from its own address.
    const answers = await Promise.all(
      Array.from({ length: 60 }, () =>
        post(t, '/api/v1/auth/login', { login: `nobody_${unique()}`, password: 'not the password' }),
      ),
    );
    const busy = answers.filter((a) => a.statusCode === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(answers.every((a) => a.statusCode === 401 || a.statusCode === 503)).toBe(true);
    expect(busy[0]!.headers['retry-after']).toBe('1');
    expect(busy[0]!.json().detail).toBe(
      'The server is checking too many passwords at once; try again in 1 s.',
    );
  });
});

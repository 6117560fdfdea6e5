/**
 * Mail over a real SMTP server started here (smtp-server), sent by the real music-worker
 * process from the `mail` queue: the verification mail at sign-up, password reset from request
 * to the new password, the address change, a permanent refusal (5xx: failed at once, reason
 * shown to an admin) and a deferral (4xx: retried with backoff until it goes through).
 */
import { QueueEvents } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_PUBLIC_URL, openMailFixture, type MailFixture } from './helpers/mail-fixture.js';
import type { MusicTestApp } from './helpers/music-app.js';
import { PASSWORD } from './helpers/music-domain.js';
import { linkIn, type SmtpSink } from './helpers/smtp-sink.js';

const PUBLIC_URL = MAIL_PUBLIC_URL;
const NEW_PASSWORD = 'another quite long passphrase';

let sink: SmtpSink;
let t: MusicTestApp;
let mail: MailFixture | undefined;
let events: QueueEvents;

beforeAll(async () => {
  mail = await openMailFixture({ RATE_LIMITS: 'off' }, { mailRetry: { attempts: 3, delayMs: 300 } });
  ({ sink, t } = mail);
  events = new QueueEvents('mail', { connection: mail.redis, prefix: t.config.queuePrefix });
  await events.waitUntilReady();
}, 60_000);

afterAll(async () => {
  await events?.close();
  await mail?.close();
});

const unique = (): string => randomBytes(5).toString('hex');

async function signup(handle = `m_${unique()}`): Promise<{ handle: string; email: string; token: string }> {
  const email = `${handle}@example.org`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/signup',
    payload: { handle, email, password: PASSWORD },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { handle, email, token: res.json<{ token: string }>().token };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('mail', () => {
  it('sign-up mails a confirmation with the right headers, in text and HTML, whose link verifies the address', async () => {
    const user = await signup();
    const mail = await sink.next(user.email);
    const { parsed } = mail;
    expect(parsed.from?.text).toBe('"Music Test" <no-reply@music.test>');
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : '').toBe(user.email);
    expect(parsed.subject).toBe('Confirm your email address for music.test');
    expect(parsed.messageId).toMatch(/^<verify-email\.[0-9]+@music\.test>$/);
    expect(mail.raw).toMatch(/^Content-Type: multipart\/alternative;/im);
    expect(parsed.text).toContain(`Welcome, ${user.handle}!`);
    const { url, token } = linkIn(mail);
    expect(parsed.html).toContain(`href="${url.href}"`);
    expect(`${url.origin}${url.pathname}`).toBe(`${PUBLIC_URL}/verify`);

    // The player page the link opens, then the confirmation it sends.
    const page = await t.app.inject({ method: 'GET', url: url.pathname });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const status = async () =>
      (
        await t.app.inject({ method: 'GET', url: '/api/v1/me/verification', headers: bearer(user.token) })
      ).json();
    expect(await status()).toEqual({ email: user.email, verified: false, required: true });

    // Unverified: private uploads yes, public no.
    const publicTrack = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tracks',
      headers: bearer(user.token),
      payload: { title: 'Song' },
    });
    expect(publicTrack.statusCode).toBe(403);
    expect(publicTrack.json().detail).toMatch(
      /^Verify your email address before publishing a track publicly/,
    );
    const privateTrack = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tracks',
      headers: bearer(user.token),
      payload: { title: 'Song', visibility: 'private' },
    });
    expect(privateTrack.statusCode).toBe(201);

    const confirm = () =>
      t.app.inject({ method: 'POST', url: '/api/v1/auth/verification/confirm', payload: { token } });
    const confirmed = await confirm();
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toEqual({ email: user.email, verified: true });
    expect(await status()).toEqual({ email: user.email, verified: true, required: true });
    expect((await confirm()).statusCode).toBe(410);
    const publish = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/tracks/${privateTrack.json().id}`,
      headers: bearer(user.token),
      payload: { visibility: 'public' },
    });
    expect(publish.statusCode, publish.body).toBe(200);
    const resend = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/verification',
      headers: bearer(user.token),
    });
    expect(resend.statusCode).toBe(409);
  });

  it('password reset: the same answer for any address, a single-use link, every session and client key ended, the owner told', async () => {
    const user = await signup();
    await sink.next(user.email);
    const key = await t.app.inject({
      method: 'POST',
      url: '/api/v1/me/client-keys',
      headers: bearer(user.token),
      payload: { name: 'phone' },
    });
    expect(key.statusCode).toBe(201);

    const ask = (email: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/auth/password-reset', payload: { email } });
    const known = await ask(user.email.toUpperCase());
    const unknown = await ask(`nobody_${unique()}@example.org`);
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(unknown.body).toBe(known.body);

    const mail = await sink.next(user.email);
    expect(mail.parsed.subject).toBe('Reset your music.test password');
    expect(mail.parsed.text).toMatch(/\n-- \nmusic\.test\n*$/);
    expect(mail.parsed.messageId).toMatch(/^<password-reset\.[0-9]+@music\.test>$/);
    const { url, token } = linkIn(mail);
    expect(`${url.origin}${url.pathname}`).toBe(`${PUBLIC_URL}/reset-password`);
    // Only the hash is stored.
    const rows = await t.connections.prisma.accountToken.findMany({ where: { purpose: 'password_reset' } });
    expect(rows.some((r) => r.tokenHash.includes(token))).toBe(false);
    const row = rows.find((r) => r.email === user.email && r.usedAt === null);
    expect((row!.expiresAt.getTime() - row!.createdAt.getTime()) / 60_000).toBeCloseTo(30, 0);

    const confirm = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/password-reset/confirm',
        payload: { token, password },
      });
    // A refused password does not spend the link.
    const weak = await confirm('password123');
    expect(weak.statusCode).toBe(400);
    const done = await confirm(NEW_PASSWORD);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ revoked_client_keys: 1 });
    expect(done.json().ended_sessions).toBeGreaterThanOrEqual(1);
    expect((await confirm(NEW_PASSWORD)).statusCode).toBe(410);

    const me = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(user.token) });
    expect(me.statusCode).toBe(401);
    expect(await t.connections.prisma.clientKey.count({ where: { user: { handle: user.handle } } })).toBe(0);
    const login = (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { login: user.handle, password } });
    expect((await login(PASSWORD)).statusCode).toBe(401);
    expect((await login(NEW_PASSWORD)).statusCode).toBe(200);

    const told = await sink.next(user.email);
    expect(told.parsed.subject).toBe('Your music.test password was changed');
    expect(told.parsed.text).toContain('Every session was signed out');
  });

  it('an address change mails a confirmation to the new address and a notice to the old one', async () => {
    const user = await signup();
    await sink.next(user.email);
    const newEmail = `new_${unique()}@example.org`;
    const change = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/v1/auth/email', headers: bearer(user.token), payload });
    expect((await change({ email: newEmail, current_password: 'wrong password!' })).statusCode).toBe(403);
    expect((await change({ email: user.email, current_password: PASSWORD })).statusCode).toBe(400);
    const asked = await change({ email: newEmail, current_password: PASSWORD });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json()).toEqual({ email: user.email, pending_email: newEmail });

    const notice = await sink.next(user.email);
    expect(notice.parsed.subject).toBe('Your music.test address is being changed');
    expect(notice.parsed.text).toContain(newEmail);
    const confirmation = await sink.next(newEmail);
    expect(confirmation.parsed.text).toContain(`use this address for the account ${user.handle}`);
    const { token } = linkIn(confirmation);
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/verification/confirm',
      payload: { token },
    });
    expect(confirmed.json()).toEqual({ email: newEmail, verified: true });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { login: newEmail, password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
  });

  it('a permanent refusal (550) fails the job at once, with a reason an admin can read', async () => {
    const handle = `r_${unique()}`;
    sink.refuse(`${handle}@example.org`);
    const failed = new Promise<{ jobId: string; failedReason: string }>((resolve) =>
      events.once('failed', (e) => resolve(e)),
    );
    await signup(handle);
    const event = await failed;
    expect(event.failedReason).toMatch(/refused the message for good \(550\)/);
    expect(sink.attempts(`${handle}@example.org`)).toBe(1);

    const admin = await signup(`a_${unique()}`);
    await t.connections.prisma.user.update({ where: { handle: admin.handle }, data: { role: 'admin' } });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { login: admin.handle, password: PASSWORD },
    });
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/mail/failed',
      headers: bearer(login.json().token),
    });
    expect(list.statusCode).toBe(200);
    const entry = list.json().failed.find((f: { id: string }) => f.id === event.jobId);
    expect(entry).toMatchObject({ kind: 'verify-email', to: `${handle}@example.org`, attempts: 1 });
    expect(entry.reason).toContain('550');
    expect(JSON.stringify(list.json())).not.toContain('#token=');
    const asUser = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/mail/failed',
      headers: bearer(admin.token),
    });
    expect(asUser.statusCode).toBe(403);
  });

  it('a deferral (451) is retried with backoff until the message goes through', async () => {
    const handle = `d_${unique()}`;
    sink.defer(`${handle}@example.org`, 1);
    await signup(handle);
    const mail = await sink.next(`${handle}@example.org`);
    expect(mail.parsed.subject).toBe('Confirm your email address for music.test');
    expect(sink.attempts(`${handle}@example.org`)).toBe(2);
  });
});

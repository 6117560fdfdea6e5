/**
 * For bench/health-under-load.ts: the music-api's account routes (sign-up, login, sessions,
 * mail-sending requests, client keys) driven with the worst valid input found for each: every
 * Argon2id hash or verify they allow, the longest strings, the mail they queue.
 */
import { randomUUID } from 'node:crypto';
import type { Load } from './health-poll.js';
import { bearer, call, send, serialised } from './health-music-http.js';
import { PASSWORD, type MusicServed } from './health-music-serve.js';

const long = (n: number, c = 'x') => c.repeat(n);
/** A valid-looking account token (the schema's 43 characters) that names nothing. */
const NO_TOKEN = long(43, 'A');

async function account(url: string, handle: string): Promise<string> {
  const res = await call(`${url}/api/v1/auth/signup`, {
    method: 'POST',
    body: { handle, email: `${handle}@example.org`, password: PASSWORD },
  });
  if (res.status !== 201) throw new Error(`signup ${handle}: ${res.status}`);
  return (JSON.parse(res.bytes.toString()) as { token: string }).token;
}

const login = async (url: string, handle: string): Promise<string> =>
  (
    JSON.parse(
      (
        await call(`${url}/api/v1/auth/login`, {
          method: 'POST',
          body: { login: handle, password: PASSWORD },
        })
      ).bytes.toString(),
    ) as { token: string }
  ).token;

export async function musicAccountLoads(s: MusicServed): Promise<Load[]> {
  const u = s.url;
  const auth = bearer(s.token);
  let n = 0;
  const unique = () => `${Date.now().toString(36)}${(n++).toString(36)}`;
  // Accounts whose rows spend their own credential (password change, sign-outs).
  const passwordUser = 'bench_password';
  let passwordToken = await account(u, passwordUser);
  const sessionsUser = 'bench_sessions';
  await account(u, sessionsUser);
  for (let i = 0; i < 48; i++) await login(u, sessionsUser);
  const emailToken = await account(u, 'bench_email');
  return [
    // Accounts: every Argon2id hash or verify, and the mail a request queues.
    {
      route: 'POST /api/v1/auth/signup',
      input: 'a new account, 256-character password (an Argon2id hash)',
      send: send(`${u}/api/v1/auth/signup`, () => {
        const handle = `b${unique()}`;
        return {
          method: 'POST',
          body: { handle, email: `${handle}@example.org`, password: long(256, 'p'), display_name: long(100) },
        };
      }),
    },
    {
      route: 'POST /api/v1/auth/login',
      input: 'a wrong 256-character password (a full Argon2id verify)',
      send: send(`${u}/api/v1/auth/login`, {
        method: 'POST',
        body: { login: s.handle, password: long(256, 'w') },
      }),
    },
    {
      route: 'POST /api/v1/auth/logout',
      input: 'a fresh login, then its logout (the login included)',
      send: async () =>
        (
          await call(`${u}/api/v1/auth/logout`, {
            method: 'POST',
            headers: bearer(await login(u, sessionsUser)),
          })
        ).status,
    },
    {
      route: 'GET /api/v1/auth/session',
      input: 'with a token',
      send: send(`${u}/api/v1/auth/session`, { headers: auth }),
    },
    {
      route: 'POST /api/v1/auth/password-reset',
      input: "an existing account's address (a token and a mail queued)",
      send: send(`${u}/api/v1/auth/password-reset`, {
        method: 'POST',
        body: { email: 'bench_email@example.org' },
      }),
    },
    {
      route: 'POST /api/v1/auth/password-reset/confirm',
      input: 'a well-formed token that names nothing, 256-character password',
      send: send(`${u}/api/v1/auth/password-reset/confirm`, {
        method: 'POST',
        body: { token: NO_TOKEN, password: long(256, 'p') },
      }),
    },
    {
      route: 'POST /api/v1/auth/verification',
      input: 'resend (a token and a mail queued)',
      send: send(`${u}/api/v1/auth/verification`, { method: 'POST', headers: bearer(emailToken) }),
    },
    {
      route: 'POST /api/v1/auth/verification/confirm',
      input: 'a well-formed token that names nothing',
      send: send(`${u}/api/v1/auth/verification/confirm`, { method: 'POST', body: { token: NO_TOKEN } }),
    },
    {
      route: 'POST /api/v1/auth/email',
      input: 'a new address with the right password (an Argon2id verify, a mail queued)',
      send: send(`${u}/api/v1/auth/email`, () => ({
        method: 'POST',
        headers: bearer(emailToken),
        body: { email: `${long(200, 'e')}${unique()}@example.org`, current_password: PASSWORD },
      })),
    },
    { route: 'GET /api/v1/me', input: 'with a token', send: send(`${u}/api/v1/me`, { headers: auth }) },
    {
      route: 'GET /api/v1/users/me',
      input: 'with a token',
      send: send(`${u}/api/v1/users/me`, { headers: auth }),
    },
    {
      route: 'PATCH /api/v1/me',
      input:
        'a password change (Argon2id verify + hash; one at a time: each revokes the token the next uses)',
      send: serialised(async () => {
        const res = await call(`${u}/api/v1/me`, {
          method: 'PATCH',
          headers: bearer(passwordToken),
          body: { display_name: long(100), current_password: PASSWORD, new_password: PASSWORD },
        });
        if (res.status === 200) passwordToken = (JSON.parse(res.bytes.toString()) as { token: string }).token;
        return res.status;
      }),
    },
    {
      route: 'GET /api/v1/me/verification',
      input: 'with a token',
      send: send(`${u}/api/v1/me/verification`, { headers: auth }),
    },
    {
      route: 'GET /api/v1/me/sessions',
      input: 'an account with 50 live sessions',
      send: send(`${u}/api/v1/me/sessions`, { headers: bearer(await login(u, sessionsUser)) }),
    },
    {
      route: 'DELETE /api/v1/me/sessions',
      input: 'a fresh login, then every session ended (the login included; one at a time)',
      send: serialised(
        async () =>
          (
            await call(`${u}/api/v1/me/sessions`, {
              method: 'DELETE',
              headers: bearer(await login(u, sessionsUser)),
            })
          ).status,
      ),
    },
    {
      route: 'DELETE /api/v1/me/sessions/:id',
      input: 'a session id that names nothing',
      send: send(`${u}/api/v1/me/sessions/${randomUUID()}`, { method: 'DELETE', headers: auth }),
    },
    {
      route: 'POST /api/v1/me/client-keys',
      input: 'a 100-character name (201 up to the 50 keys an account may hold, 409 after)',
      send: send(`${u}/api/v1/me/client-keys`, {
        method: 'POST',
        headers: bearer(emailToken),
        body: { name: long(100) },
      }),
    },
    {
      route: 'GET /api/v1/me/client-keys',
      input: 'with a token',
      send: send(`${u}/api/v1/me/client-keys`, { headers: auth }),
    },
    {
      route: 'DELETE /api/v1/me/client-keys/:id',
      input: 'a key id that names nothing',
      send: send(`${u}/api/v1/me/client-keys/${randomUUID()}`, { method: 'DELETE', headers: auth }),
    },
  ];
}

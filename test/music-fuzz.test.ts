/**
 * Fuzz of every music JSON endpoint: mutated valid bodies, wrong types in every field,
 * control and invisible characters, huge strings, deep nesting, broken JSON and random bytes.
 * Whatever arrives, the answer is never a 5xx, and every 4xx is problem+json. Seeded, so a
 * failure names a reproducible case.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';

/** mulberry32: small deterministic PRNG, so each case is reproducible from its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NASTY_STRINGS = [
  '',
  '\u0000',
  'a\u0000b',
  '\u0007\u001b[31m',
  '\u202Eevil',
  '\uFEFF',
  '\uD800',
  '𝕏'.repeat(300),
  'x'.repeat(100_000),
  '../../etc/passwd',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '%00',
  '__proto__',
  ' ',
];
const WRONG_TYPES: unknown[] = [null, 0, -1, 1e308, true, [], [1, 2], {}, { a: 1 }, 'text', 1.5];

function deep(n: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
}

function mutate(valid: Record<string, unknown>, rand: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const body: Record<string, unknown> = { ...valid };
  const keys = Object.keys(valid);
  switch (Math.floor(rand() * 9)) {
    case 0:
      body[pick(keys)] = pick(WRONG_TYPES);
      break;
    case 1:
      body[pick(keys)] = pick(NASTY_STRINGS);
      break;
    case 2:
      delete body[pick(keys)];
      break;
    case 3:
      body[pick(['extra', '__proto__', 'constructor', 'role', '\u0000'])] = pick(WRONG_TYPES);
      break;
    case 4:
      body[pick(keys)] = deep(1 + Math.floor(rand() * 200));
      break;
    case 5:
      return JSON.stringify(body).slice(0, Math.floor(rand() * JSON.stringify(body).length));
    case 6:
      return randomBytes(1 + Math.floor(rand() * 64)).toString('latin1');
    case 7:
      return JSON.stringify(pick(WRONG_TYPES));
    default:
      for (const k of keys) if (rand() < 0.5) body[k] = pick([...NASTY_STRINGS, ...WRONG_TYPES]);
  }
  return JSON.stringify(body);
}

interface Endpoint {
  method: 'POST' | 'GET';
  url: string;
  valid: Record<string, unknown>;
  auth?: boolean;
}

const ENDPOINTS: Endpoint[] = [
  {
    method: 'POST',
    url: '/api/v1/auth/signup',
    valid: {
      handle: 'fuzz_user',
      email: 'fuzz@example.org',
      password: 'a long enough passphrase',
      display_name: 'F',
    },
  },
  {
    method: 'POST',
    url: '/api/v1/auth/login',
    valid: { login: 'fuzz_user', password: 'a long enough passphrase' },
  },
  { method: 'POST', url: '/api/v1/auth/logout', valid: {}, auth: true },
];

const CASES_PER_ENDPOINT = 60;

describe('fuzz of the music JSON endpoints', () => {
  let t: MusicTestApp;
  let token: string;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    const handle = `f_${randomBytes(4).toString('hex')}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { handle, email: `${handle}@example.org`, password: 'a long enough passphrase' },
    });
    token = res.json().token as string;
  });
  afterAll(async () => t.close());

  it.each(ENDPOINTS)('$method $url: mutated bodies never get a 5xx', async (endpoint) => {
    for (let seed = 1; seed <= CASES_PER_ENDPOINT; seed++) {
      const rand = prng(seed * 7919 + endpoint.url.length);
      const payload = mutate(endpoint.valid, rand);
      const contentType =
        rand() < 0.9 ? 'application/json' : rand() < 0.5 ? 'text/plain' : 'application/json; charset=latin1';
      const res = await t.app.inject({
        method: endpoint.method,
        url: endpoint.url,
        payload,
        headers: {
          'content-type': contentType,
          ...(endpoint.auth && rand() < 0.7 ? { authorization: `Bearer ${token}` } : {}),
        },
      });
      const what = `seed ${seed}: ${payload.slice(0, 200)}`;
      expect(res.statusCode, what).toBeLessThan(500);
      if (res.statusCode >= 400)
        expect(res.headers['content-type'], what).toMatch(/^application\/problem\+json/);
    }
  });

  it('GET endpoints: mutated query strings, path parameters and Authorization headers never get a 5xx', async () => {
    const rand = prng(4242);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const pieces = [
      '%00',
      '%ff',
      '%2e%2e',
      '%E2%80%AE',
      'x'.repeat(5000),
      '[]',
      '{}',
      '-1',
      '1e400',
      'NaN',
      '',
      '%',
    ];
    for (let i = 0; i < 80; i++) {
      const url = pick([
        `/api/v1/users/${pick(pieces)}`,
        `/api/v1/users/someone?limit=${pick(pieces)}`,
        `/api/v1/users/someone?cursor=${pick(pieces)}&limit=${pick(pieces)}`,
        `/api/v1/users/someone?${pick(pieces)}=${pick(pieces)}`,
        '/api/v1/users/me',
      ]);
      const authorization = pick([
        undefined,
        'Bearer',
        `Bearer ${pick(pieces)}`,
        `Bearer ${token}${pick(pieces)}`,
        `Basic ${pick(pieces)}`,
        `Bearer \u0000`,
      ]);
      const res = await t.app.inject({ url, headers: authorization === undefined ? {} : { authorization } });
      expect(res.statusCode, `${url} ${authorization ?? ''}`).toBeLessThan(500);
    }
  });
});

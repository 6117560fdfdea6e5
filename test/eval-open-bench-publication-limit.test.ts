/**
 * One client cannot flood the public leaderboard (F14): publications are bounded per client
 * address group (an IPv6 client's /64) in the rate limiter's Redis, shared by every instance:
 * three at once, then one every 10 minutes; the next is a 429 with Retry-After and the time to
 * publish again, the session not spent. Submitting without publish, and other clients, are not
 * held back.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvalApp } from './helpers/eval-app.js';
import { testDatabaseUrl, testKeyPrefix } from './helpers/music-env.js';
import { solve, type Started } from './helpers/open-bench.js';

/** Display names of this run (the ledger's database may hold earlier runs' entries). */
const RUN = randomBytes(4).toString('hex');
let a: FastifyInstance;
let b: FastifyInstance;

const post = (app: FastifyInstance, url: string, body: unknown, remoteAddress: string) =>
  app.inject({
    method: 'POST',
    url,
    remoteAddress,
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

/** A fresh session started and submitted by `client` (on `app`), published as `name` when given. */
async function submit(app: FastifyInstance, client: string, name?: string) {
  const started = await post(app, '/api/open-bench/start', {}, client);
  expect(started.statusCode, started.body).toBe(200);
  const session = started.json<Started>();
  const answers = solve(session);
  const body = { session_id: session.session_id, baseline: answers, candidate: answers };
  const publish = name === undefined ? {} : { publish: { display_name: name, attestation: true } };
  return { body, res: await post(app, '/api/open-bench/submit', { ...body, ...publish }, client) };
}

beforeAll(async () => {
  // Two instances on one Redis and one ledger; the tools scope far above what this file sends.
  const env = {
    RATE_LIMITS: 'on',
    EVAL_RATE_LIMIT_PER_MINUTE: '6000',
    EVAL_RATE_LIMIT_BURST: '1000',
    CACHE_URL: 'redis://127.0.0.1:6379',
    CACHE_KEY_PREFIX: testKeyPrefix(),
    DATABASE_URL: testDatabaseUrl(),
  };
  [a, b] = await Promise.all([makeEvalApp(env), makeEvalApp(env)]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

describe('open bench publication bound', () => {
  it('admits three publications of a client, then answers 429 with when to publish again, on any instance', async () => {
    const client = '198.51.100.7';
    for (const [i, app] of [a, b, a].entries()) {
      const { res } = await submit(app, client, `flood-${RUN}-${i}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().result.publication.public_id).toMatch(/^ob_/);
    }
    const before = Date.now();
    const { body, res } = await submit(b, client, `flood-${RUN}-3`);
    expect(res.statusCode).toBe(429);
    const seconds = Number(res.headers['retry-after']);
    // One publication every 10 minutes: the next falls due within that.
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(600);
    const problem = res.json();
    expect(problem).toMatchObject({ status: 429, retry_after_seconds: seconds });
    const at = /publish again after (\S+) \(in (\d+) s\)/.exec(problem.detail as string);
    expect(at, problem.detail).not.toBeNull();
    expect(Number(at![2])).toBe(seconds);
    expect(Date.parse(at![1]!)).toBeGreaterThanOrEqual(before + seconds * 1000 - 1000);
    // The session was not spent, and submitting without publish is not bounded.
    expect((await post(b, '/api/open-bench/submit', body, client)).statusCode).toBe(200);
    expect((await submit(a, client)).res.statusCode).toBe(200);
    // The leaderboard holds the three, not the refused one.
    const names = (
      (await a.inject('/api/open-bench/leaderboard?per_page=100')).json().entries as {
        display_name: string;
      }[]
    ).map((e) => e.display_name);
    expect(names.filter((n) => n.startsWith(`flood-${RUN}-`)).sort()).toEqual(
      [0, 1, 2].map((i) => `flood-${RUN}-${i}`),
    );
  });

  it('counts another address apart, and an IPv6 client’s whole /64 as one', async () => {
    expect((await submit(a, '198.51.100.8', 'other-client')).res.statusCode).toBe(200);
    for (const host of ['2001:db8:7:1::1', '2001:db8:7:1::2', '2001:db8:7:1:aaaa::3'])
      expect((await submit(a, host, 'v6')).res.statusCode).toBe(200);
    expect((await submit(b, '2001:db8:7:1:ffff:ffff:ffff:ffff', 'v6')).res.statusCode).toBe(429);
    expect((await submit(b, '2001:db8:7:2::1', 'v6-next-net')).res.statusCode).toBe(200);
  });
});

/**
 * A login flood beside the routes everyone uses (issue 45): `/api/v1/health` and a track read
 * (`GET /api/v1/tracks/:id`), polled for BENCH_SECONDS each without and then with 120 wrong
 * logins a second, in one run. Every flood request comes from an address of its own (many
 * addresses: the per-address scope never stops it); half guess at one account (its backoff
 * answers), half at names without an account (each would cost a decoy Argon2id hash: the
 * bounded hash queue answers). The server runs in a child process with the production settings
 * and rate limits on, so the pollers and the flood never share its event loop; the pollers run in
 * threads of their own, so the flood's client work never delays a poll. The server's own event-loop
 * delay and CPU time per phase are read from the child (lib/server-gauges.ts). A last phase
 * floods the payments webhook instead, at the same rate, with 255 KB forged events.
 *
 *   node --import tsx bench/login-flood.ts      (writes bench/results/login-flood.md)
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pollFromThread } from './lib/health-poll.js';
import {
  listenLocal,
  serveUntilParentEnds,
  startServeChild,
  withBenchMusic,
  writeBenchResult,
  type ServeChild,
} from './lib/music-app.js';
import { answerGauges, readGauges, type Gauges } from './lib/server-gauges.js';
import { WEBHOOK_BODY_LIMIT } from '../src/music/routes/payments.js';
import { seedReadyTrack } from './lib/music-seed.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const LOGINS_PER_SECOND = Number(process.env.BENCH_LOGINS_PER_SECOND ?? 120);
const POLL_MS = 50;
const GOAL_MS = 50;
const PASSWORD = 'a long enough passphrase';
const WEBHOOK_BODY = `{"id":"evt_bench","object":"event","data":"${'x'.repeat(255 * 1024 - 60)}"}`;

interface Served {
  url: string;
  handle: string;
  trackId: string;
}

let addressCount = 0;
/** An address never used before in this run (10.0.0.0/8), sent through the trusted proxy header. */
const freshAddress = (): string => {
  addressCount++;
  return `10.${(addressCount >> 16) & 255}.${(addressCount >> 8) & 255}.${addressCount & 255}`;
};

async function serve(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-login-flood-'));
  try {
    await withBenchMusic(
      dataDir,
      async ({ app, connections }) => {
        const handle = `owner_${randomBytes(3).toString('hex')}`;
        const signup = await app.inject({
          method: 'POST',
          url: '/api/v1/auth/signup',
          payload: { handle, email: `${handle}@example.org`, password: PASSWORD },
        });
        if (signup.statusCode !== 201) throw new Error(`sign-up: ${signup.statusCode} ${signup.body}`);
        const userId = signup.json<{ user: { id: string } }>().user.id;
        const trackId = await seedReadyTrack(connections, userId, 'Flood', { durationMs: 215_000 });
        const url = await listenLocal(app);
        answerGauges();
        await serveUntilParentEnds({ url, handle, trackId } satisfies Served);
      },
      {
        env: {
          RATE_LIMITS: 'on',
          // Payments on (no request reaches the provider: only forged webhooks are sent).
          PAYMENT_SECRET_KEY: 'sk_test_bench',
          PAYMENT_PUBLISHABLE_KEY: 'pk_test_bench',
          PAYMENT_WEBHOOK_SECRET: `whsec_${randomBytes(16).toString('hex')}`,
          TRUSTED_PROXIES: '127.0.0.1',
          LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
        },
      },
    );
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

const pct = (sorted: number[], p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;

type Flood = 'logins' | 'webhooks';

/** The n-th request of a flood: a wrong login, or a forged webhook event. */
function floodRequest(served: Served, kind: Flood, n: number): Promise<Response> {
  if (kind === 'webhooks')
    // The costliest body a stranger can send: a fresh, well-formed header passes the check made
    // before the body is read, so the body is read and its HMAC computed (then refused, 400).
    return fetch(`${served.url}/api/v1/payments/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': freshAddress(),
        'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
      },
      body: WEBHOOK_BODY,
    });
  const login = n % 2 === 0 ? served.handle : `nobody_${n}`;
  return fetch(`${served.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': freshAddress() },
    body: JSON.stringify({ login, password: `wrong guess ${n}` }),
  });
}

/** A flood at LOGINS_PER_SECOND requests a second, open loop, until `until`: the count of each answer. */
async function flood(served: Served, kind: Flood, until: number): Promise<Map<number, number>> {
  // Date.now() time, as the pollers' threads count it.
  const statuses = new Map<number, number>();
  const inFlight = new Set<Promise<void>>();
  const interval = 1000 / LOGINS_PER_SECOND;
  let sent = 0;
  const start = performance.now();
  while (Date.now() < until) {
    const p = floodRequest(served, kind, sent)
      .then(async (res) => {
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      })
      .catch(() => {
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
    sent++;
    const next = start + sent * interval - performance.now();
    if (next > 0) await new Promise((resolve) => setTimeout(resolve, next));
  }
  await Promise.all(inFlight);
  return statuses;
}

interface Phase {
  health: number[];
  track: number[];
  trackStatuses: Map<number, number>;
  /** The answers to the flood's requests. */
  logins?: Map<number, number>;
  server: Gauges;
}

async function phase(child: ServeChild<Served>, kind?: Flood): Promise<Phase> {
  const served = child.served;
  await readGauges(child);
  const until = Date.now() + SECONDS * 1000;
  // The pollers in threads of their own: the flood's requests and answers, handled on this
  // thread, never delay a poll (its latency is the server's), each poll from an address of its own.
  const [health, track, logins] = await Promise.all([
    pollFromThread(`${served.url}/api/v1/health`, until, POLL_MS, 11),
    pollFromThread(`${served.url}/api/v1/tracks/${served.trackId}`, until, POLL_MS, 12),
    kind ? flood(served, kind, until) : Promise.resolve(undefined),
  ]);
  return {
    health: health.latencies.sort((a, b) => a - b),
    track: track.latencies.sort((a, b) => a - b),
    trackStatuses: new Map(Object.entries(track.statuses).map(([k, v]) => [Number(k), v])),
    ...(logins ? { logins } : {}),
    server: await readGauges(child),
  };
}

const row = (name: string, quiet: number[], loud: number[]): string => {
  const [q50, q99, l50, l99] = [pct(quiet, 50), pct(quiet, 99), pct(loud, 50), pct(loud, 99)];
  return `| ${name} | ${q50.toFixed(1)} | ${q99.toFixed(1)} | ${l50.toFixed(1)} | ${l99.toFixed(1)} | ${(l99 / q99).toFixed(2)} | ${loud.length} |`;
};
const gaugeRow = (name: string, g: Gauges): string =>
  `| ${name} | ${g.loopP50.toFixed(1)} | ${g.loopP99.toFixed(1)} | ${g.loopMax.toFixed(1)} | ${g.mainCpuMs.toFixed(0)} | ${g.processCpuMs.toFixed(0)} |`;
const counts = (m: Map<number, number> | undefined): string =>
  [...(m ?? new Map<number, number>()).entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status === 0 ? 'network error' : status}: ${n}`)
    .join(', ');

async function main(): Promise<void> {
  const child = await startServeChild<Served>(import.meta.filename);
  try {
    // Warm-up: the first requests compile routes and open pools.
    await phase(child);
    const quiet = await phase(child);
    const loud = await phase(child, 'logins');
    const hooks = await phase(child, 'webhooks');
    const healthP99 = pct(loud.health, 99);
    const load = os.loadavg().map((l) => l.toFixed(1));
    const md = [
      '## Login flood: health and a track read beside 120 wrong logins a second (and beside 120 forged webhooks a second)',
      '',
      `Command: \`node --import tsx bench/login-flood.ts\`. The music-api in a child process (production settings, rate limits on, behind a trusted proxy header: every request from an address of its own), ${SECONDS} s per phase, one request in flight per poller every ${POLL_MS} ms, each poller a thread of its own; milliseconds. Flood: ${LOGINS_PER_SECOND} wrong logins a second, open loop, half at one account, half at names without an account. Machine: ${os.cpus().length} CPU(s), load average ${load.join(' / ')} at the end (a shared machine).`,
      '',
      '| route | p50 quiet | p99 quiet | p50 flood | p99 flood | p99 ratio flood/quiet | requests in flood |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      row('GET /api/v1/health', quiet.health, loud.health),
      row('GET /api/v1/tracks/:id', quiet.track, loud.track),
      '',
      `The same beside ${LOGINS_PER_SECOND} forged webhook events a second (payments on): 255 KB bodies under the ${WEBHOOK_BODY_LIMIT / 1024} KiB limit with a fresh, well-formed Stripe-Signature header that matches nothing (the header passes the check made before the body is read; the body is read and its HMAC computed):`,
      '',
      '| route | p50 quiet | p99 quiet | p50 webhook flood | p99 webhook flood | p99 ratio flood/quiet | requests in flood |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      row('GET /api/v1/health', quiet.health, hooks.health),
      row('GET /api/v1/tracks/:id', quiet.track, hooks.track),
      '',
      "The server's own process over each phase (its event loop's delay, sampled every 10 ms; CPU milliseconds of its main thread and of the whole process, the hash thread and libuv's pool included):",
      '',
      '| phase | loop delay p50 | p99 | max | main thread CPU ms | process CPU ms |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      gaugeRow('quiet', quiet.server),
      gaugeRow('login flood', loud.server),
      gaugeRow('webhook flood', hooks.server),
      '',
      `Goal: health p99 ≤ ${GOAL_MS} ms during the flood: **${healthP99 <= GOAL_MS ? 'met' : 'not met'}** (${healthP99.toFixed(1)} ms).`,
      '',
      `Answers to the flood's logins: ${counts(loud.logins)}. Track reads: quiet ${counts(quiet.trackStatuses)}; flood ${counts(loud.trackStatuses)}. Answers to the webhooks: ${counts(hooks.logins)}.`,
      '',
    ].join('\n');
    await writeBenchResult('login-flood', md);
  } finally {
    await child.stop();
  }
}

if (process.argv.includes('--serve')) await serve();
else await main();

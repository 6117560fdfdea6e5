/**
 * Music delivery benchmark (autocannon against real listeners, same process, same run):
 *
 * 1. bare: a bare fastify route answering the same segment bytes from memory (the baseline);
 * 2. signed: GET /media/hls/<version>/seg0.m4s?sig&expires through the full music-api app
 *    (security headers, secure_link check, in-process cache HIT, metrics hooks);
 * 3. profile: GET /api/v1/users/:handle, read from PostgreSQL (20 public tracks).
 *
 * The servers run in a child process (this file with --serve), so autocannon never shares their
 * event loop. Rounds alternate bare/signed so drift on a shared machine hits both alike. Needs PostgreSQL
 * and Redis (defaults as in the design; DATABASE_ADMIN_URL to override); makes and drops its
 * own database. Writes bench/results/music-delivery.md.
 *
 *   npx tsx bench/music-delivery.ts
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { signedUrl } from '../src/music/services/secure-link.js';
import {
  listenLocal,
  serveUntilParentEnds,
  startServeChild,
  withBenchMusic,
  writeBenchResult,
} from './lib/music-app.js';

const SETTINGS = { connections: 50, pipelining: 1, duration: Number(process.env.BENCH_DURATION ?? 8) };
const ROUNDS = 2;
const SEGMENT_BYTES = 64 * 1024; // a 4 s segment at 128 kb/s
const TARGET_RATIO = 0.6;

interface Figures {
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function cannon(url: string): Promise<Figures> {
  const result = await autocannon({ url, ...SETTINGS });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

function mean(runs: Figures[]): Figures {
  const avg = (f: (r: Figures) => number) => runs.reduce((s, r) => s + f(r), 0) / runs.length;
  return {
    rps: avg((r) => r.rps),
    p99: avg((r) => r.p99),
    errors: avg((r) => r.errors),
    non2xx: avg((r) => r.non2xx),
  };
}

interface ServedUrls {
  signed: string;
  bare: string;
  profile: string;
}

/** Child process: builds both servers, prints their URLs as one JSON line, serves until stdin ends. */
async function serve(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'music-bench-'));
  const segment = randomBytes(SEGMENT_BYTES);
  await withBenchMusic(dataDir, async ({ config, connections, app: music }) => {
    const bare = Fastify({ logger: false });
    bare.get('/static/seg0.m4s', (_request, reply) => reply.type('video/iso.segment').send(segment));
    try {
      await connections.stores.transcodes.put('v1/r0/seg0.m4s', segment);
      const user = await connections.prisma.user.create({
        data: { handle: 'bench_user', email: 'bench@example.org', passwordHash: 'x', displayName: 'Bench' },
      });
      for (let i = 0; i < 20; i++) {
        await connections.prisma.track.create({
          data: { title: `Track ${i}`, ownerUserId: user.id, description: 'benchmark track' },
        });
      }
      const musicBase = await listenLocal(music);
      const urls: ServedUrls = {
        signed:
          musicBase +
          signedUrl('/media/hls/v1/r0/seg0.m4s', config.secureLink.secret, 3600, Date.now() / 1000),
        bare: `${await listenLocal(bare)}/static/seg0.m4s`,
        profile: `${musicBase}/api/v1/users/bench_user`,
      };
      await serveUntilParentEnds(urls);
    } finally {
      await bare.close();
    }
  });
  await rm(dataDir, { recursive: true, force: true });
}

async function measure(urls: ServedUrls): Promise<{ bare: Figures; signed: Figures; profile: Figures }> {
  // Warm-up: fills the cache (the first answer is the only MISS), JIT, connection pools.
  const first = await fetch(urls.signed);
  if (first.status !== 200 || first.headers.get('x-cache-status') !== 'MISS')
    throw new Error(`warm-up: ${first.status}`);
  const second = await fetch(urls.signed);
  if (second.headers.get('x-cache-status') !== 'HIT') throw new Error('cache did not HIT');
  if ((await fetch(urls.profile)).status !== 200) throw new Error('profile route failed');
  await autocannon({ url: urls.signed, connections: 10, duration: 2 });
  await autocannon({ url: urls.bare, connections: 10, duration: 2 });
  const bareRuns: Figures[] = [];
  const signedRuns: Figures[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bareRuns.push(await cannon(urls.bare));
    signedRuns.push(await cannon(urls.signed));
  }
  await autocannon({ url: urls.profile, connections: 10, duration: 2 });
  const profile = await cannon(urls.profile);
  return { bare: mean(bareRuns), signed: mean(signedRuns), profile };
}

async function main(): Promise<void> {
  const child = await startServeChild<ServedUrls>(import.meta.filename);
  let report;
  try {
    report = await measure(child.served);
  } finally {
    await child.stop();
  }

  const ratio = report.signed.rps / report.bare.rps;
  const row = (name: string, f: Figures) =>
    `| ${name} | ${f.rps.toFixed(0)} | ${f.p99.toFixed(1)} | ${(f.rps / report.bare.rps).toFixed(2)} | ${f.errors + f.non2xx} |`;
  const markdown = [
    '## music-delivery',
    '',
    `autocannon ${SETTINGS.connections} connections, pipelining ${SETTINGS.pipelining}, ${SETTINGS.duration} s per run, ` +
      `${ROUNDS} alternating rounds for bare/signed (mean); ${SEGMENT_BYTES / 1024} KiB segment; both servers in one child process, load generator in the parent.`,
    '',
    '| scenario | req/s | p99 ms | ratio to bare | errors + non-2xx |',
    '| --- | ---: | ---: | ---: | ---: |',
    row('bare fastify route, same bytes (baseline)', report.bare),
    row('signed HLS segment, cache HIT', report.signed),
    row('GET /api/v1/users/:handle (PostgreSQL, 20 tracks)', report.profile),
    '',
    `Signed delivery / bare: **${ratio.toFixed(2)}** (target >= ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'}).`,
    '',
  ].join('\n');
  await writeBenchResult('music-delivery', markdown);
}

if (process.argv.includes('--serve')) await serve();
else await main();

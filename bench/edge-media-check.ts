/**
 * What the edge's media check costs (F18, docs/music-edge.md): a public track's 64 KiB segment and
 * its 600 px cover, cached by nginx (X-Cache-Status HIT), fetched through two real nginx edges in front of the
 * same music API, same run: the production template (every request first put to the app's
 * check by auth_request) and the same template without its `auth_request` line (the edge
 * before the fix: a HIT never reached the app). One keep-alive HTTPS connection per edge,
 * requests one after another, rounds alternating between the edges so drift hits both alike;
 * p50/p99 of every request. The app runs in a child process (this file with --serve). Needs
 * PostgreSQL, Redis and Debian's nginx. Writes bench/results/edge-media-check.md.
 *
 *   npx tsx bench/edge-media-check.ts
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent as HttpAgent, request as httpRequest, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signedUrl } from '../src/music/services/secure-link.js';
import { startTestDns } from '../test/helpers/dns-server.js';
import { addReadyVersion } from '../test/helpers/library-rows.js';
import { startNginxEdge, type NginxEdge } from '../test/helpers/nginx-edge.js';
import {
  listenLocal,
  serveUntilParentEnds,
  startServeChild,
  withBenchMusic,
  writeBenchResult,
} from './lib/music-app.js';

const SEGMENT_BYTES = 64 * 1024;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const PER_ROUND = Number(process.env.BENCH_REQUESTS ?? 500);
const DOMAIN = 'localhost';

const COVER_BYTES = 48 * 1024;

interface Served {
  port: number;
  secret: string;
  segment: string;
  cover: string;
}

/** Child: a public track whose version holds one segment; prints the app's port and a signed URL. */
async function serve(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'edge-check-bench-'));
  await withBenchMusic(
    dataDir,
    async ({ config, connections, app }) => {
      const user = await connections.prisma.user.create({
        data: { handle: 'bench_edge', email: 'edge@example.org', passwordHash: 'x', displayName: 'Edge' },
      });
      const track = await connections.prisma.track.create({
        data: { title: 'Edge bench', ownerUserId: user.id, visibility: 'public' },
      });
      const version = await addReadyVersion(connections, track.id, user.id, { artist: 'A', album: 'B' });
      await connections.stores.transcodes.put(`${version}/r0/seg0.m4s`, randomBytes(SEGMENT_BYTES));
      const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(COVER_BYTES - 4)]);
      await connections.stores.images.put(`${version}/cover-600.jpg`, jpeg);
      const base = await listenLocal(app);
      const path = `/media/hls/${version}/r0/seg0.m4s`;
      await serveUntilParentEnds({
        port: Number(new URL(base).port),
        secret: config.secureLink.secret,
        segment: signedUrl(path, config.secureLink.secret, 24 * 3600, Date.now() / 1000),
        cover: `/images/${version}/cover-600.jpg`,
      } satisfies Served);
    },
    { env: { DOMAIN, TRUSTED_PROXIES: '127.0.0.1' } },
  );
  await rm(dataDir, { recursive: true, force: true });
}

type Side = 'without' | 'with' | 'check' | 'cover-without' | 'cover-with';
const SIDES: readonly Side[] = ['without', 'with', 'check', 'cover-without', 'cover-with'];

/** One GET on a keep-alive connection: ms taken, status and cache status. */
function timedGet(
  get: typeof httpsRequest | typeof httpRequest,
  options: RequestOptions,
): Promise<{ ms: number; status: number; cache: string }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = get(options, (res) => {
      res.resume();
      res.on('error', reject);
      res.on('end', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        resolve({ ms, status: res.statusCode ?? 0, cache: String(res.headers['x-cache-status']) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main(): Promise<void> {
  const child = await startServeChild<Served>(import.meta.filename);
  const dns = await startTestDns({ api: '127.0.0.1' });
  const edges: Partial<Record<'without' | 'with', NginxEdge>> = {};
  const agents: (HttpAgent | HttpsAgent)[] = [];
  try {
    const start = (edit?: (t: string) => string) =>
      startNginxEdge({
        musicApi: `api:${child.served.port}`,
        eval: 'eval:9',
        domain: DOMAIN,
        secureLinkSecret: child.served.secret,
        resolver: dns.address,
        ...(edit ? { editTemplate: edit } : {}),
      });
    // The edge before the fix: the same template less its auth_request line.
    edges.without = await start((t) =>
      t
        .split('\n')
        .filter((line) => !line.trim().startsWith('auth_request '))
        .join('\n'),
    );
    edges.with = await start();
    const viaEdge = (edge: NginxEdge, path = child.served.segment) => {
      const agent = new HttpsAgent({ keepAlive: true, maxSockets: 1, ca: edge.ca });
      agents.push(agent);
      const options = {
        host: '127.0.0.1',
        port: edge.httpsPort,
        servername: DOMAIN,
        path,
        agent,
        headers: { host: DOMAIN },
      };
      return () => timedGet(httpsRequest, options);
    };
    // The check alone, straight at the app, as nginx sends it (a trusted proxy, https).
    const checkAgent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
    agents.push(checkAgent);
    const checkOptions = {
      host: '127.0.0.1',
      port: child.served.port,
      path: `/media/access${child.served.segment}`,
      agent: checkAgent,
      headers: { host: DOMAIN, 'x-forwarded-proto': 'https' },
    };
    const fetchers: Record<Side, () => Promise<{ ms: number; status: number; cache: string }>> = {
      without: viaEdge(edges.without),
      with: viaEdge(edges.with),
      check: () => timedGet(httpRequest, checkOptions),
      'cover-without': viaEdge(edges.without, child.served.cover),
      'cover-with': viaEdge(edges.with, child.served.cover),
    };
    const expected = (side: Side): number => (side === 'check' ? 204 : 200);
    const samples = Object.fromEntries(SIDES.map((s) => [s, [] as number[]])) as Record<Side, number[]>;
    const once = async (side: Side) => {
      const got = await fetchers[side]();
      if (got.status !== expected(side)) throw new Error(`${side}: status ${got.status}`);
      if (side !== 'check' && got.cache !== 'HIT') throw new Error(`${side}: X-Cache-Status ${got.cache}`);
      return got.ms;
    };
    // Warm-up: the first answer fills nginx's cache (MISS), then HITs, JIT and pools settle.
    for (const side of SIDES) if (side !== 'check') await fetchers[side]();
    for (const side of SIDES) for (let i = 0; i < 200; i++) await once(side);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? SIDES : [...SIDES].reverse();
      for (const side of order) for (let i = 0; i < PER_ROUND; i++) samples[side].push(await once(side));
    }
    const figures = (side: Side) => {
      const sorted = [...samples[side]].sort((x, y) => x - y);
      return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), n: sorted.length };
    };
    const f = Object.fromEntries(SIDES.map((s) => [s, figures(s)])) as Record<
      Side,
      ReturnType<typeof figures>
    >;
    const row = (label: string, x: { n: number; p50: number; p99: number }) =>
      `| ${label} | ${x.n} | ${x.p50.toFixed(2)} | ${x.p99.toFixed(2)} |`;
    const markdown = [
      '## edge-media-check',
      '',
      `A cached (HIT) ${SEGMENT_BYTES / 1024} KiB HLS segment of a public track through real nginx (Debian's), ` +
        `one keep-alive HTTPS connection per edge, requests one after another; ${ROUNDS} alternating rounds ` +
        `of ${PER_ROUND} per series, same run, same app (a child process).`,
      '',
      '| series | requests | p50 ms | p99 ms |',
      '| --- | ---: | ---: | ---: |',
      row('edge without the check (a HIT never reaches the app: before F18)', f.without),
      row('edge with the check (auth_request to the app on every request)', f.with),
      row('the check alone, straight at the app (keep-alive)', f.check),
      row(`a ${COVER_BYTES / 1024} KiB cover, edge without the check`, f['cover-without']),
      row('the same cover, edge with the check', f['cover-with']),
      '',
      `Segment, with / without: p50 **${(f.with.p50 / f.without.p50).toFixed(2)}×**, p99 **${(f.with.p99 / f.without.p99).toFixed(2)}×**.`,
      `Cover, with / without: p50 **${(f['cover-with'].p50 / f['cover-without'].p50).toFixed(2)}×**, p99 **${(f['cover-with'].p99 / f['cover-without'].p99).toFixed(2)}×**.`,
      '',
    ].join('\n');
    await writeBenchResult('edge-media-check', markdown);
  } finally {
    for (const agent of agents) agent.destroy();
    await edges.with?.stop();
    await edges.without?.stop();
    await dns.close();
    await child.stop();
  }
}

if (process.argv.includes('--serve')) await serve();
else await main();

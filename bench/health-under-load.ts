/**
 * Nothing a client sends stalls a service (issue 32): each service's health route, polled every
 * 50 ms, while one route at a time is driven with the worst valid input found for it (a few
 * requests in flight, back to back), beside the same poll on an idle service. Both services
 * run in child processes (eval: dist/src/main/eval.js, its open-bench ledger on a throw-away
 * database; music: this file with --serve), so the poller's latency is the service's. Goal:
 * p99 <= 50 ms under any single route's worst input. Under the table, each service's routes
 * (app.printRoutes) with no row and why.
 *
 *   npx tsx bench/health-under-load.ts        (BENCH_SECONDS per route, default 3)
 *   BENCH_ONLY=music|eval                     one service only
 *   BENCH_ROUTES=<substring>                  only the rows whose route contains it
 * A filtered run writes bench/results/health-under-load.partial.md, never the full table.
 */
import { loadavg } from 'node:os';
import { evalLoads } from './lib/health-eval-loads.js';
import { musicAccountLoads } from './lib/health-music-account-loads.js';
import { musicApiLoads } from './lib/health-music-loads.js';
import { musicMediaLoads } from './lib/health-music-media-loads.js';
import { musicReason, SUBSONIC_NOTE } from './lib/health-music-routes.js';
import { coverage, coverageNotes, routesOf } from './lib/health-routes.js';
import { serveMusic, type MusicServed } from './lib/health-music-serve.js';
import { IN_FLIGHT, measure, POLL_MS, SECONDS, type Load, type Row } from './lib/health-poll.js';
import { startServeChild, writeBenchResult } from './lib/music-app.js';
import { withBenchDatabase } from './lib/music-database.js';
import { startEval } from './lib/server.js';
import { makeEvalApp } from '../test/helpers/eval-app.js';
import { startSmtpSink } from '../test/helpers/smtp-sink.js';

const ONLY = process.env.BENCH_ONLY?.split(',').map((x) => x.trim());
const ROUTES = process.env.BENCH_ROUTES;
const runs = (service: string) => !ONLY || ONLY.includes(service);
const picked = (loads: Load[]) => (ROUTES ? loads.filter((l) => l.route.includes(ROUTES)) : loads);

const fmt = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(1) : '-');
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

/** The eval app's routes (built in this process, never listening), as `METHOD path` lines. */
async function evalRoutes(): Promise<string[]> {
  const app = await makeEvalApp();
  try {
    await app.ready();
    return routesOf(app);
  } finally {
    await app.close();
  }
}

const evalReason = (_method: string, path: string): string | undefined =>
  path === '/api/health' ? 'the polled route itself (each row measures it)' : undefined;

/** The eval rows (with a throw-away database for the open-bench ledger); its routes with no row. */
async function evalRows(rows: Row[]): Promise<string[]> {
  return withBenchDatabase(async (databaseUrl) => {
    const env = { EVAL_POOL_SIZE: '2', DATABASE_URL: databaseUrl };
    const evalChild = await startEval(env);
    const driven: string[] = [];
    try {
      const health = `${evalChild.url}/api/health`;
      rows.push({ service: 'eval', ...(await measure(health, undefined)) });
      const all = await evalLoads(evalChild.url);
      driven.push(...all.map((l) => l.route));
      for (const l of picked(all)) rows.push({ service: 'eval', ...(await measure(health, l)) });
    } finally {
      await evalChild.stop();
    }
    // The same batch with EVAL_BATCH_CHUNKS=pool (chunks of small lines on the pool threads).
    const pooled = await startEval({ ...env, EVAL_BATCH_CHUNKS: 'pool' });
    try {
      const batch = picked(await evalLoads(pooled.url)).find((l) => l.input === '5,000 gate lines');
      if (batch) {
        const row = await measure(`${pooled.url}/api/health`, batch);
        rows.push({ service: 'eval', ...row, input: `${row.input}, EVAL_BATCH_CHUNKS=pool` });
      }
    } finally {
      await pooled.stop();
    }
    const routes = await evalRoutes();
    return coverageNotes('Eval', routes, coverage(routes, driven, evalReason));
  });
}

/** The music rows; the app's routes with no row, explained or not. */
async function musicRows(rows: Row[]): Promise<string[]> {
  // A real SMTP server for the mail the account rows queue (in this process, not the service's).
  const smtp = await startSmtpSink();
  const music = await startServeChild<MusicServed>(import.meta.filename, {
    BENCH_SMTP_PORT: String(smtp.port),
  });
  try {
    const s = music.served;
    const health = `${s.url}/api/v1/health`;
    rows.push({ service: 'music', ...(await measure(health, undefined)) });
    const all = [...(await musicAccountLoads(s)), ...(await musicApiLoads(s)), ...(await musicMediaLoads(s))];
    for (const l of picked(all)) rows.push({ service: 'music', ...(await measure(health, l)) });
    const routes = s.routes;
    const c = coverage(
      routes,
      all.map((l) => l.route),
      musicReason,
    );
    return [...coverageNotes('Music', routes, c), SUBSONIC_NOTE, ''];
  } finally {
    await music.stop();
    await smtp.close();
  }
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  const loadBefore = load();
  const notes = [
    ...(runs('eval') ? await evalRows(rows) : []),
    ...(runs('music') ? await musicRows(rows) : []),
  ];
  const loadAfter = load();
  const table = [
    '| service | route driven | worst valid input | requests (status×n) | health p50 ms | p99 ms | max ms |',
    '| --- | --- | --- | --- | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.service} | ${r.route} | ${r.input} | ${r.requests} (${r.statuses}) | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.max)} |`,
    ),
  ];
  const over = rows.filter((r) => r.p99 > 50).map((r) => `${r.service} ${r.route} (${r.input})`);
  const partial = ONLY !== undefined || ROUTES !== undefined;
  await writeBenchResult(
    partial ? 'health-under-load.partial' : 'health-under-load',
    [
      '## Health latency while one route is driven with its worst input (issue 32)',
      '',
      ...(partial
        ? [
            `**Partial run** (BENCH_ONLY=${ONLY?.join(',') ?? '-'}, BENCH_ROUTES=${ROUTES ?? '-'}): only the ${rows.length} rows below, each service's idle baseline included; the full table is health-under-load.md.`,
            '',
          ]
        : []),
      `The health route (eval \`/api/health\`, music \`/api/v1/health\`) polled every ${POLL_MS} ms for ${SECONDS} s per row, while ${IN_FLIGHT} requests of the row's route are in flight back to back; the first row of each service is the idle baseline. Services in child processes (eval with a 2-thread pool; the music-worker stopped once the seed track is ready). Goal: p99 <= 50 ms. Load average (1, 5, 15 min) before: ${loadBefore}; after: ${loadAfter} (2 cores shared with other work).`,
      '',
      ...table,
      '',
      over.length
        ? `Over the goal in this run: ${over.join('; ')}.`
        : 'Every row within the goal in this run.',
      '',
      ...notes,
    ].join('\n'),
  );
}

if (process.argv.includes('--serve')) await serveMusic();
else await main();

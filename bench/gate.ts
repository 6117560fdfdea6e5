/**
 * Gate benchmark: autocannon on POST /api/gate with a 5000-item cohort, beside a bare
 * fastify route that only parses and validates the same body, in the same run.
 * Target: gate throughput >= 70% of the bare route's (median of alternating rounds).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { load, ratio, table, type LoadResult } from './lib/autocannon.js';
import { freePort } from '../test/helpers/free-port.js';
import { startEval, startNode } from './lib/server.js';
import { gateCohortBody } from './lib/gate-cohort.js';

const body = gateCohortBody(5000);
const headers = { 'content-type': 'application/json' };
const barePort = await freePort();
const bare = await startNode(
  ['--import', 'tsx', 'bench/baselines/bare-validate.ts'],
  { PORT: String(barePort) },
  '/health',
  barePort,
);
const evalSrv = await startEval();
try {
  // Warm both (JIT, worker threads) before measuring.
  await load('warm-up', { url: `${bare.url}/bare`, method: 'POST', body, headers, durationSeconds: 2 });
  await load('warm-up', {
    url: `${evalSrv.url}/api/gate`,
    method: 'POST',
    body,
    headers,
    durationSeconds: 2,
  });
  // Alternate the two in short rounds and take the median ratio: a 2-core machine shared with
  // autocannon drifts by several percent over a minute, which one long run of each would
  // charge to whichever went second.
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const seconds = Number(process.env.BENCH_SECONDS ?? 6);
  const rows: LoadResult[] = [];
  const ratios: number[] = [];
  for (let r = 1; r <= rounds; r++) {
    const baseline = await load(`round ${r}: bare fastify route, parse + validate (baseline)`, {
      url: `${bare.url}/bare`,
      method: 'POST',
      body,
      headers,
      durationSeconds: seconds,
    });
    const gate = await load(`round ${r}: POST /api/gate (5000 items)`, {
      url: `${evalSrv.url}/api/gate`,
      method: 'POST',
      body,
      headers,
      durationSeconds: seconds,
    });
    rows.push(baseline, gate);
    ratios.push(gate.requestsPerSecond / baseline.requestsPerSecond);
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const gates = rows.filter((_, i) => i % 2 === 1);
  const bares = rows.filter((_, i) => i % 2 === 0);
  const sum = (xs: LoadResult[], f: (x: LoadResult) => number): number => xs.reduce((n, x) => n + f(x), 0);
  const md = [
    '## Gate: POST /api/gate with a 5000-item cohort',
    '',
    `Body ${(body.length / 1024).toFixed(0)} KiB; autocannon 10 connections, pipelining 1; ${rounds} rounds of ${seconds} s each, bare and gate alternating, after a 2 s warm-up of each. Eval service at its defaults (pool size = cores = ${os.availableParallelism()}).`,
    '',
    table(rows),
    '',
    `Throughput ratio gate / bare per round: ${ratios.map((x) => x.toFixed(2)).join(', ')}; ` +
      `median **${median.toFixed(2)}** (target >= 0.70). ` +
      `Over all rounds: gate ${(sum(gates, (x) => x.requestsPerSecond) / rounds).toFixed(1)} req/s, bare ${(sum(bares, (x) => x.requestsPerSecond) / rounds).toFixed(1)} req/s; ` +
      `mean p99 ratio gate / bare = ${ratio(
        sum(gates, (x) => x.p99Ms),
        sum(bares, (x) => x.p99Ms),
      )}.`,
    '',
  ].join('\n');
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/gate.md', md);
  process.stdout.write(md + '\n');
} finally {
  await evalSrv.stop();
  await bare.stop();
}

/**
 * Gate benchmark: autocannon on POST /api/gate with a 5000-item cohort, beside a bare
 * fastify route that only parses and validates the same body, in the same run.
 * Target: gate throughput >= 70% of the bare route's.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { load, ratio, table } from './lib/autocannon.js';
import { freePort, startEval, startNode } from './lib/server.js';

function cohort(n: number): string {
  const baseline: Record<string, boolean> = {};
  const candidate: Record<string, boolean> = {};
  for (let i = 0; i < n; i++) {
    baseline[`item-${String(i).padStart(5, '0')}`] = i % 3 === 0;
    candidate[`item-${String(i).padStart(5, '0')}`] = i % 4 !== 0;
  }
  return JSON.stringify({ baseline, candidate });
}

const body = cohort(5000);
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
  const baseline = await load('bare fastify route: parse + validate (baseline)', {
    url: `${bare.url}/bare`,
    method: 'POST',
    body,
    headers,
  });
  const gate = await load('POST /api/gate (5000 items)', {
    url: `${evalSrv.url}/api/gate`,
    method: 'POST',
    body,
    headers,
  });
  const md = [
    '## Gate: POST /api/gate with a 5000-item cohort',
    '',
    `Body ${(body.length / 1024).toFixed(0)} KiB; autocannon 10 connections, pipelining 1, ${process.env.BENCH_SECONDS ?? 10} s per run.`,
    '',
    table([baseline, gate]),
    '',
    `Throughput ratio gate / bare = **${ratio(gate.requestsPerSecond, baseline.requestsPerSecond)}** (target >= 0.70); ` +
      `p99 ratio gate / bare = ${ratio(gate.p99Ms, baseline.p99Ms)}.`,
    '',
  ].join('\n');
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/gate.md', md);
  process.stdout.write(md + '\n');
} finally {
  await evalSrv.stop();
  await bare.stop();
}

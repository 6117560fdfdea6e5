/**
 * Batch benchmark: 10,000 small gate calls as single HTTP requests (autocannon, keep-alive, 32
 * connections) beside the same 10,000 as one POST /api/batch, alternating in the same run.
 * Target: batch throughput >= 3x the single requests' (median of rounds). Reported both per wall
 * second and per CPU second (service plus load generator): on a shared, loaded machine the
 * wall figures mostly measure how much CPU each phase was given.
 */
import { readFileSync } from 'node:fs';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { getTool } from '../src/eval/registry.js';
import { load } from './lib/autocannon.js';
import { startEval } from './lib/server.js';

const CALLS = 10_000;
const body = JSON.stringify(getTool('gate').example);
const batch =
  Array.from({ length: CALLS }, (_, i) => `{"id":"c${i}","tool":"gate","request":${body}}`).join('\n') + '\n';

/** One batch request, read to its end; calls per second and the answer lines that were 200. */
async function runBatch(url: string): Promise<{ callsPerSecond: number; ok: number }> {
  const started = performance.now();
  const res = await fetch(`${url}/api/batch`, {
    method: 'POST',
    body: batch,
    headers: { 'content-type': 'application/x-ndjson' },
  });
  const text = await res.text();
  const seconds = (performance.now() - started) / 1000;
  const ok = text.split('\n').filter((l) => l.includes('"status":200,')).length;
  return { callsPerSecond: CALLS / seconds, ok };
}

/** CPU ms used so far by the service process (utime + stime, /proc clock ticks of 10 ms) and by this one. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const service = (Number(fields[11]) + Number(fields[12])) * 10;
  const own = process.cpuUsage();
  return service + (own.user + own.system) / 1000;
}

const evalSrv = await startEval();
const pid = evalSrv.process.pid!;
try {
  await load('warm-up', {
    url: `${evalSrv.url}/api/gate`,
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
    connections: 32,
    amount: 2000,
  });
  await runBatch(evalSrv.url);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const rows: string[] = [];
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  for (let r = 1; r <= rounds; r++) {
    const started = performance.now();
    const cpu0 = cpuMs(pid);
    const single = await load(`round ${r}: single`, {
      url: `${evalSrv.url}/api/gate`,
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
      connections: 32,
      amount: CALLS,
    });
    const singleRate = CALLS / ((performance.now() - started) / 1000);
    const cpu1 = cpuMs(pid);
    const b = await runBatch(evalSrv.url);
    const cpu2 = cpuMs(pid);
    const singleCpu = CALLS / ((cpu1 - cpu0) / 1000);
    const batchCpu = CALLS / ((cpu2 - cpu1) / 1000);
    cpuRatios.push(batchCpu / singleCpu);
    if (single.non2xx + single.errors > 0 || b.ok !== CALLS)
      throw new Error(
        `round ${r}: failures (single non-2xx ${single.non2xx}, errors ${single.errors}; batch ok ${b.ok})`,
      );
    ratios.push(b.callsPerSecond / singleRate);
    rows.push(
      `| ${r} | ${singleRate.toFixed(0)} | ${single.p50Ms} | ${b.callsPerSecond.toFixed(0)} | ${(b.callsPerSecond / singleRate).toFixed(2)} | ${singleCpu.toFixed(0)} | ${batchCpu.toFixed(0)} | ${(batchCpu / singleCpu).toFixed(2)} |`,
    );
  }
  const mid = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const median = mid(ratios);
  const md = [
    '## Batch: 10,000 gate calls, single requests beside one NDJSON batch',
    '',
    `The gate example (${body.length} B) ${CALLS} times: as ${CALLS} POST /api/gate (autocannon, keep-alive, 32 connections) and as one POST /api/batch of ${CALLS} lines read to its end, alternating, ${rounds} rounds after a warm-up of each. Eval service at its defaults (pool size = cores = ${os.availableParallelism()}), rate limits off. Load average at the end: ${os.loadavg()[0]!.toFixed(1)}.`,
    '',
    'Calls per CPU second count the service process and this one (autocannon, or the batch reader) together.',
    '',
    '| round | single calls/s | single p50 ms | batch calls/s | batch / single | single calls/CPU-s | batch calls/CPU-s | batch / single (CPU) |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    `Median ratio batch / single: **${median.toFixed(2)}** per wall second, **${mid(cpuRatios).toFixed(2)}** per CPU second (target >= 3).`,
  ].join('\n');
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/batch.md', md + '\n');
  process.stdout.write(md + '\n');
} finally {
  await evalSrv.stop();
}

/**
 * Batch benchmark: 10,000 small gate calls as single HTTP requests (autocannon, keep-alive, 32
 * connections) beside the same 10,000 as one POST /api/batch, alternating in the same run.
 * Target: batch throughput >= 3x the single requests' (median of rounds). Reported both per wall
 * second and per CPU second (service plus load generator): on a shared, loaded machine the
 * wall figures mostly measure how much CPU each phase was given.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import { getTool } from '../src/eval/registry.js';
import { load } from './lib/autocannon.js';
import { startEval } from './lib/server.js';

const CALLS = 10_000;
const body = JSON.stringify(getTool('gate').example);
const batch =
  Array.from({ length: CALLS }, (_, i) => `{"id":"c${i}","tool":"gate","request":${body}}`).join('\n') + '\n';

const batchBytes = Buffer.from(batch);
const OK_LINE = Buffer.from('"status":200,"receipt":');

/**
 * One batch request, read to its end; calls per second and the answer lines that were 200.
 * Read as autocannon reads a single call's answer, as bytes (node:http, no decoding to text),
 * so the two load generators cost alike per call.
 */
async function runBatch(url: string): Promise<{ callsPerSecond: number; ok: number }> {
  const started = performance.now();
  const body = await new Promise<Buffer>((resolve, reject) => {
    const req = httpRequest(
      `${url}/api/batch`,
      { method: 'POST', headers: { 'content-type': 'application/x-ndjson' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks)));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(batchBytes);
  });
  const seconds = (performance.now() - started) / 1000;
  let ok = 0;
  for (let start = 0; start < body.length;) {
    let end = body.indexOf(0x0a, start);
    if (end < 0) end = body.length;
    const at = body.indexOf(OK_LINE, start);
    if (at >= 0 && at < end) ok++;
    start = end + 1;
  }
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
  /** One phase's calls per wall second and per CPU second, with the load average beside it. */
  const phase = async (run: () => Promise<void>): Promise<{ wall: number; cpu: number; load: number }> => {
    const started = performance.now();
    const cpu0 = cpuMs(pid);
    await run();
    const wall = CALLS / ((performance.now() - started) / 1000);
    return { wall, cpu: CALLS / ((cpuMs(pid) - cpu0) / 1000), load: os.loadavg()[0]! };
  };
  const singlePhase = (r: number) =>
    phase(async () => {
      const single = await load(`round ${r}: single`, {
        url: `${evalSrv.url}/api/gate`,
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
        connections: 32,
        amount: CALLS,
      });
      if (single.non2xx + single.errors > 0)
        throw new Error(`round ${r}: single non-2xx ${single.non2xx}, errors ${single.errors}`);
    });
  const batchPhase = (r: number) =>
    phase(async () => {
      const b = await runBatch(evalSrv.url);
      if (b.ok !== CALLS) throw new Error(`round ${r}: batch answered ${b.ok} of ${CALLS} lines with 200`);
    });
  for (let r = 1; r <= rounds; r++) {
    // Odd rounds run the single calls first, even rounds the batch, so drift in the machine's load favours neither.
    const [single, b] =
      r % 2 === 1
        ? [await singlePhase(r), await batchPhase(r)]
        : await batchPhase(r).then(async (b) => [await singlePhase(r), b] as const);
    ratios.push(b.wall / single.wall);
    cpuRatios.push(b.cpu / single.cpu);
    rows.push(
      `| ${r} | ${r % 2 === 1 ? 'single' : 'batch'} | ${single.wall.toFixed(0)} | ${b.wall.toFixed(0)} | ${(b.wall / single.wall).toFixed(2)} | ${single.cpu.toFixed(0)} | ${b.cpu.toFixed(0)} | ${(b.cpu / single.cpu).toFixed(2)} | ${single.load.toFixed(1)} / ${b.load.toFixed(1)} |`,
    );
  }
  const mid = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const median = mid(ratios);
  const md = [
    '## Batch: 10,000 gate calls, single requests beside one NDJSON batch',
    '',
    `The gate example (${body.length} B) ${CALLS} times: as ${CALLS} POST /api/gate (autocannon, keep-alive, 32 connections) and as one POST /api/batch of ${CALLS} lines read to its end, alternating which goes first, ${rounds} rounds after a warm-up of each. Eval service at its defaults (pool size = cores = ${os.availableParallelism()}), rate limits off. Load average at the end: ${os.loadavg()[0]!.toFixed(1)}.`,
    '',
    'Calls per CPU second count the service process and this one (autocannon, or the batch reader) together.',
    '',
    '| round | first | single calls/s | batch calls/s | batch / single | single calls/CPU-s | batch calls/CPU-s | batch / single (CPU) | load avg after single / batch |',
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
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

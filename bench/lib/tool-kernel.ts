/**
 * One tool's server-time benchmark (bench/<tool>.ts uses it; each writes bench/results/<tool>.md).
 *
 * 1. Server time per request, in process: `executeTool` (parse + validate + run + seal: what a
 *    pool worker spends per request), interleaved run by run with a baseline on the same body,
 *    `JSON.parse` + schema validation, so both see the same machine load. Target: < 20 ms.
 * 2. Requests per second under autocannon against the built eval service (dist/, `make bench`
 *    builds it) beside a bare fastify route that parses and validates the same body
 *    (bench/lib/bare-validate-server.ts, a child process).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sealReceipt } from '../../src/core/receipt.js';
import { compileValidator } from '../../src/core/validation.js';
import { executeTool } from '../../src/eval/execute.js';
import { requestSha256 } from '../../src/eval/speed/request-hash.js';
import { getTool } from '../../src/eval/registry.js';
import { load, ratio, table, type LoadResult } from './autocannon.js';
import { freePort } from '../../test/helpers/free-port.js';
import { startEval, startNode } from './server.js';

export interface ToolBench {
  /** Tool id; the results go to bench/results/<name>.md. */
  id: string;
  name: string;
  title: string;
  workload: string;
  body: string;
  /** The status the workload must answer (else it times the wrong thing). */
  expected: string;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
}

function p90(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.9))]!;
}

export interface KernelFigures {
  id: string;
  bodyKiB: number;
  receiptKiB: number;
  status: string;
  baselineMs: number;
  toolMs: number;
  toolP90Ms: number;
  /** Process CPU time of executeTool: steadier than wall time on a shared, loaded machine. */
  toolCpuMs: number;
  baselineCpuMs: number;
  runMs: number;
  sealMs: number;
}

function kernel(id: string, body: string, expected: string, rounds: number): KernelFigures {
  const tool = getTool(id);
  const validator = compileValidator(tool.schema);
  // The server hands executeTool the raw request bytes; so does this bench.
  const bytes = Buffer.from(body);
  const first = executeTool(id, bytes);
  if (!first.ok) throw new Error(`${id}: ${JSON.stringify(first.problem)}`);
  // A workload that no longer does its work (e.g. a patch rejected) would time the wrong thing.
  if (first.status !== expected)
    throw new Error(`${id}: workload answered ${first.status}, expected ${expected}`);
  // Measured warm, as a running service is: enough calls for V8 to optimise the hot code.
  for (let i = 0; i < 20; i++) executeTool(id, bytes);
  const base: number[] = [];
  const full: number[] = [];
  const baseCpu: number[] = [];
  const fullCpu: number[] = [];
  const run: number[] = [];
  const seal: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let c = process.cpuUsage();
    let t = performance.now();
    const request = validator.assert(JSON.parse(body));
    base.push(performance.now() - t);
    baseCpu.push(cpuMs(c));
    c = process.cpuUsage();
    t = performance.now();
    executeTool(id, bytes);
    full.push(performance.now() - t);
    fullCpu.push(cpuMs(c));
    t = performance.now();
    const requestHash = requestSha256(tool, bytes, request);
    const hashMs = performance.now() - t;
    t = performance.now();
    const receipt = tool.run(request);
    run.push(performance.now() - t);
    t = performance.now();
    sealReceipt(id, requestHash, receipt);
    seal.push(hashMs + performance.now() - t);
  }
  return {
    id,
    bodyKiB: body.length / 1024,
    receiptKiB: first.body.length / 1024,
    status: first.status,
    baselineMs: median(base),
    toolMs: median(full),
    toolP90Ms: p90(full),
    toolCpuMs: median(fullCpu),
    baselineCpuMs: median(baseCpu),
    runMs: median(run),
    sealMs: median(seal),
  };
}

export async function runToolBench(bench: ToolBench): Promise<void> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
  const k = kernel(bench.id, bench.body, bench.expected, rounds);
  const md: string[] = [
    `## ${bench.title}`,
    '',
    `Machine: ${os.cpus().length} CPU(s), ${os.cpus()[0]?.model ?? 'unknown'}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at start. Command: \`npx tsx bench/${bench.name}.ts\`.`,
    '',
    '### Server time per request (in process)',
    '',
    `\`executeTool\` (parse + validate + run + seal), median of ${rounds} runs interleaved with the baseline ` +
      '(`JSON.parse` + schema validation of the same body); CPU ms is the process CPU time of the same calls ' +
      '(all threads, so GC helpers count), steadier than wall time when other work shares the machine. Target: < 20 ms.',
    '',
    '| tool | workload | body KiB | receipt KiB | status | baseline ms | executeTool ms (p90) | ratio | baseline CPU ms | executeTool CPU ms | CPU ratio | run ms | seal ms | target |',
    '| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    `| ${k.id} | ${bench.workload} | ${k.bodyKiB.toFixed(0)} | ${k.receiptKiB.toFixed(0)} | ${k.status} | ${k.baselineMs.toFixed(2)} | ` +
      `${k.toolMs.toFixed(2)} (${k.toolP90Ms.toFixed(2)}) | ${ratio(k.toolMs, k.baselineMs)} | ${k.baselineCpuMs.toFixed(2)} | ${k.toolCpuMs.toFixed(2)} | ` +
      `${ratio(k.toolCpuMs, k.baselineCpuMs)} | ${k.runMs.toFixed(2)} | ${k.sealMs.toFixed(2)} | ` +
      `${k.toolMs < 20 ? 'met' : 'missed'} |`,
    '',
  ];
  process.stdout.write(md.join('\n') + '\n');
  const kernelLines = md.length;
  if (process.env.BENCH_HTTP === 'off' || !existsSync(process.env.EVAL_ENTRY ?? 'dist/src/main/eval.js')) {
    md.push(
      'HTTP load skipped: BENCH_HTTP=off, or dist/src/main/eval.js is missing (run `make build` or `make bench`).',
      '',
    );
  } else {
    md.push(...(await httpLoad(bench.id, bench.body)));
  }
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(`bench/results/${bench.name}.md`, md.join('\n'));
  process.stdout.write(md.slice(kernelLines).join('\n') + '\n');
}

async function httpLoad(id: string, body: string): Promise<string[]> {
  const barePort = await freePort();
  const bare = await startNode(
    ['--import', 'tsx', 'bench/lib/bare-validate-server.ts'],
    { TOOL: id, PORT: String(barePort) },
    '/health',
    barePort,
  );
  // EVAL_ENTRY runs a privately built copy (e.g. `tsc -p tsconfig.build.json --outDir .tmp/x`) instead of dist/.
  const entry = process.env.EVAL_ENTRY;
  const evalPort = await freePort();
  const evalSrv = entry
    ? await startNode(
        [entry],
        {
          RATE_LIMITS: 'off',
          LOG_LEVEL: 'warn',
          EVAL_PORT: String(evalPort),
          EVAL_HOST: '127.0.0.1',
          DATA_DIR: '.tmp/bench-data',
        },
        '/api/health',
        evalPort,
      )
    : await startEval();
  const rows: LoadResult[] = [];
  const ratios: string[] = [];
  const headers = { 'content-type': 'application/json' };
  try {
    {
      const path = getTool(id).path;
      await load('warm-up', {
        url: `${bare.url}/bare/${id}`,
        method: 'POST',
        body,
        headers,
        durationSeconds: 2,
      });
      await load('warm-up', {
        url: `${evalSrv.url}${path}`,
        method: 'POST',
        body,
        headers,
        durationSeconds: 2,
      });
      const b = await load(`bare parse + validate, ${id} body (baseline)`, {
        url: `${bare.url}/bare/${id}`,
        method: 'POST',
        body,
        headers,
      });
      const t = await load(`POST ${path}`, { url: `${evalSrv.url}${path}`, method: 'POST', body, headers });
      rows.push(b, t);
      ratios.push(
        `throughput ratio tool / bare = **${ratio(t.requestsPerSecond, b.requestsPerSecond)}**, p99 ratio = ${ratio(t.p99Ms, b.p99Ms)}`,
      );
    }
  } finally {
    await evalSrv.stop();
    await bare.stop();
  }
  return [
    '### Requests per second (autocannon)',
    '',
    `Built eval service (placement by body size: a body this large runs in the pool; RATE_LIMITS=off) against a bare fastify route parsing and validating the same body; ` +
      `autocannon 10 connections, pipelining 1, ${process.env.BENCH_SECONDS ?? 10} s per run, after a 2 s warm-up each.`,
    '',
    table(rows),
    '',
    ...ratios.map((r) => `- ${r}`),
    '',
  ];
}

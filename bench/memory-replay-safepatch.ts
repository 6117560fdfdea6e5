/**
 * Memory, replay and safepatch benchmark.
 *
 *   npx tsx bench/memory-replay-safepatch.ts     (writes bench/results/memory-replay-safepatch.md)
 *
 * 1. Server time per request, in process: `executeTool` (parse + validate + run + seal: what a
 *    pool worker spends per request), interleaved run by run with a baseline on the same body,
 *    `JSON.parse` + schema validation, so both see the same machine load. Target: < 20 ms each.
 * 2. Requests per second under autocannon against the built eval service (dist/, `make bench`
 *    builds it) beside a bare fastify route that parses and validates the same body, started
 *    by this same file as a child process (BENCH_ROLE=bare).
 *
 * Workloads: memory with 1000 memories, replay with 5000 events, safepatch on a
 * 200,000-character document with 50 operations (bench/lib/memory-replay-safepatch-workloads.ts).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { sealReceipt } from '../src/core/receipt.js';
import { compileValidator } from '../src/core/validation.js';
import { executeTool } from '../src/eval/execute.js';
import { getTool } from '../src/eval/registry.js';
import { requestSha256 } from '../src/eval/fast-path/request-hash.js';
import { load, ratio, table, type LoadResult } from './lib/autocannon.js';
import { freePort, startEval, startNode } from './lib/server.js';
import { memoryBody, replayBody, safepatchBody } from './lib/memory-replay-safepatch-workloads.js';

const TOOLS = ['memory', 'replay', 'safepatch'] as const;
type ToolId = (typeof TOOLS)[number];
const BODIES: Record<ToolId, () => string> = {
  memory: memoryBody,
  replay: replayBody,
  safepatch: safepatchBody,
};
const WORKLOAD: Record<ToolId, string> = {
  memory: '1000 memories (10-50 words, 1-4 entities), causal question, budget 400',
  replay: '5000 events (SAVE/LOAD/CHECK/ANSWER/SKETCH, verdicts, model/observation), 50 notes',
  safepatch: '200,000-character document (~400 sections, lists, fences, setext), 50 operations',
};

if (process.env.BENCH_ROLE === 'bare') {
  // Baseline server: parse + validate the same body against the tool's schema, answer a tiny body.
  const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 });
  for (const id of TOOLS) {
    const validate = compileValidator(getTool(id).schema);
    app.post(`/bare/${id}`, (request) => {
      validate.assert(request.body);
      return { ok: true };
    });
  }
  app.get('/health', () => ({ ok: true }));
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
} else {
  await main();
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

interface KernelFigures {
  id: ToolId;
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

function kernel(id: ToolId, body: string, rounds: number): KernelFigures {
  const tool = getTool(id);
  const validator = compileValidator(tool.schema);
  // The server hands executeTool the raw request bytes; so does this bench.
  const bytes = Buffer.from(body);
  const first = executeTool(id, bytes);
  if (!first.ok) throw new Error(`${id}: ${JSON.stringify(first.problem)}`);
  // A workload that no longer does its work (e.g. a patch rejected) would time the wrong thing.
  const expected: Record<ToolId, string> = { memory: 'SELECTED', replay: 'ACCEPTED', safepatch: 'APPLIED' };
  if (first.status !== expected[id])
    throw new Error(`${id}: workload answered ${first.status}, expected ${expected[id]}`);
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

async function main(): Promise<void> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
  const bodies = Object.fromEntries(TOOLS.map((id) => [id, BODIES[id]()])) as Record<ToolId, string>;
  const kernels = TOOLS.map((id) => kernel(id, bodies[id], rounds));

  const md: string[] = [
    '## Memory, replay and safepatch',
    '',
    `Machine: ${os.cpus().length} CPU(s), ${os.cpus()[0]?.model ?? 'unknown'}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at start. Command: \`npx tsx bench/memory-replay-safepatch.ts\`.`,
    '',
    '### Server time per request (in process)',
    '',
    `\`executeTool\` (parse + validate + run + seal), median of ${rounds} runs interleaved with the baseline ` +
      '(`JSON.parse` + schema validation of the same body); CPU ms is the process CPU time of the same calls ' +
      '(all threads, so GC helpers count), steadier than wall time when other work shares the machine. Target: < 20 ms each.',
    '',
    '| tool | workload | body KiB | receipt KiB | status | baseline ms | executeTool ms (p90) | ratio | baseline CPU ms | executeTool CPU ms | CPU ratio | run ms | seal ms | target |',
    '| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...kernels.map(
      (k) =>
        `| ${k.id} | ${WORKLOAD[k.id]} | ${k.bodyKiB.toFixed(0)} | ${k.receiptKiB.toFixed(0)} | ${k.status} | ${k.baselineMs.toFixed(2)} | ` +
        `${k.toolMs.toFixed(2)} (${k.toolP90Ms.toFixed(2)}) | ${ratio(k.toolMs, k.baselineMs)} | ${k.baselineCpuMs.toFixed(2)} | ${k.toolCpuMs.toFixed(2)} | ` +
        `${ratio(k.toolCpuMs, k.baselineCpuMs)} | ${k.runMs.toFixed(2)} | ${k.sealMs.toFixed(2)} | ` +
        `${k.toolMs < 20 ? 'met' : 'missed'} |`,
    ),
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
    md.push(...(await httpLoad(bodies)));
  }
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/memory-replay-safepatch.md', md.join('\n'));
  process.stdout.write(md.slice(kernelLines).join('\n') + '\n');
}

async function httpLoad(bodies: Record<ToolId, string>): Promise<string[]> {
  const headers = { 'content-type': 'application/json' };
  const barePort = await freePort();
  const bare = await startNode(
    ['--import', 'tsx', 'bench/memory-replay-safepatch.ts'],
    { BENCH_ROLE: 'bare', PORT: String(barePort) },
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
  try {
    for (const id of TOOLS) {
      const body = bodies[id];
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
        `${id}: throughput ratio tool / bare = **${ratio(t.requestsPerSecond, b.requestsPerSecond)}**, p99 ratio = ${ratio(t.p99Ms, b.p99Ms)}`,
      );
    }
  } finally {
    await evalSrv.stop();
    await bare.stop();
  }
  return [
    '### Requests per second (autocannon)',
    '',
    `Built eval service (pool placement for all three tools, RATE_LIMITS=off) against a bare fastify route parsing and validating the same body; ` +
      `autocannon 10 connections, pipelining 1, ${process.env.BENCH_SECONDS ?? 10} s per run, after a 2 s warm-up each.`,
    '',
    table(rows),
    '',
    ...ratios.map((r) => `- ${r}`),
    '',
  ];
}

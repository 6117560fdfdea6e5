/**
 * Each tool beside its floor, in the same run (issue 18):
 * - the gate example (7 items, ~0.5 KB) against a bare fastify route that parses the same body
 *   and answers a canned body of the receipt's size: target throughput >= 0.30 of the floor;
 * - every tool on its near-limit workload (../shared/tools/payloads.py, regenerated here) against
 *   a bare route that parses the same request and sends a pre-built body of the receipt's size
 *   with its SHA-256: target time per request <= 1.5x the floor's;
 * and the receipt size per tool on those workloads.
 * Rounds alternate floor and tool and the median ratio is reported (a shared machine drifts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { executeTool } from '../src/eval/execute.js';
import { TOOLS } from '../src/eval/registry.js';
import { load, table, type LoadResult } from './lib/autocannon.js';
import { freePort, startEval, startNode, type Child } from './lib/server.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const headers = { 'content-type': 'application/json' };
const dir = mkdtempSync(path.join(os.tmpdir(), 'tool-floors-'));
// The project's shared tools sit beside the checkout (../shared); PAYLOADS_PY overrides.
const payloads =
  process.env.PAYLOADS_PY ??
  ['../shared/tools/payloads.py', '../../shared/tools/payloads.py'].find((p) => existsSync(p)) ??
  '../shared/tools/payloads.py';
const gen = spawnSync('python3', [payloads, dir], { stdio: 'inherit' });
if (gen.status !== 0) throw new Error(`${payloads} failed`);

interface Case {
  label: string;
  path: string;
  body: string;
  receiptBytes: number;
  status: string;
}

function caseFor(label: string, toolId: string, body: string): Case {
  const tool = TOOLS.find((t) => t.id === toolId)!;
  const out = executeTool(toolId, Buffer.from(body));
  if (!out.ok) throw new Error(`${toolId}: ${JSON.stringify(out.problem).slice(0, 300)}`);
  writeFileSync(path.join(dir, `${label}.receipt`), out.body);
  return { label, path: tool.path, body, receiptBytes: Buffer.byteLength(out.body), status: out.status };
}

async function startFloor(c: Case): Promise<Child> {
  const port = await freePort();
  return startNode(
    ['--import', 'tsx', 'bench/baselines/floor.ts'],
    { PORT: String(port), CANNED_FILE: path.join(dir, `${c.label}.receipt`) },
    '/health',
    port,
  );
}

interface Measured {
  c: Case;
  rows: LoadResult[];
  /** tool req/s over floor req/s, per round. */
  ratios: number[];
}

async function measure(c: Case, evalSrv: Child): Promise<Measured> {
  const floor = await startFloor(c);
  try {
    const floorOpts = { url: `${floor.url}/floor`, method: 'POST' as const, body: c.body, headers };
    const toolOpts = { url: `${evalSrv.url}${c.path}`, method: 'POST' as const, body: c.body, headers };
    await load('warm-up', { ...floorOpts, durationSeconds: 1 });
    await load('warm-up', { ...toolOpts, durationSeconds: 1 });
    const rows: LoadResult[] = [];
    const ratios: number[] = [];
    for (let r = 1; r <= rounds; r++) {
      const f = await load(`${c.label} round ${r}: floor`, { ...floorOpts, durationSeconds: seconds });
      const t = await load(`${c.label} round ${r}: POST ${c.path}`, {
        ...toolOpts,
        durationSeconds: seconds,
      });
      if (t.non2xx + t.errors > 0) throw new Error(`${c.label}: ${t.non2xx} non-2xx, ${t.errors} errors`);
      rows.push(f, t);
      ratios.push(t.requestsPerSecond / f.requestsPerSecond);
    }
    return { c, rows, ratios };
  } finally {
    await floor.stop();
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kib = (n: number): string => (n / 1024).toFixed(0);

const gateExample = caseFor(
  'gate-example',
  'gate',
  JSON.stringify(TOOLS.find((t) => t.id === 'gate')!.example),
);
const nearLimit = TOOLS.map((t) => caseFor(t.id, t.id, readFileSync(path.join(dir, `${t.id}.json`), 'utf8')));

const evalSrv = await startEval();
const results: Measured[] = [];
try {
  results.push(await measure(gateExample, evalSrv));
  for (const c of nearLimit) results.push(await measure(c, evalSrv));
} finally {
  await evalSrv.stop();
}

const [example, ...tools] = results as [Measured, ...Measured[]];
const exampleRatio = median(example.ratios);
const md = [
  '## Tools beside their floors (gate example throughput, near-limit workloads, receipt sizes)',
  '',
  `autocannon 10 connections, pipelining 1; ${rounds} rounds of ${seconds} s, floor and tool alternating, after 1 s warm-up of each; eval service built, at its defaults (pool size = cores = ${os.availableParallelism()}, EVAL_INLINE_MAX_BYTES 16kb). Workloads: \`payloads.py\`. The machine was shared with other work: compare ratios only.`,
  '',
  `Gate example (${example.c.body.length} B, receipt ${example.c.receiptBytes} B, runs inline): throughput / bare canned route per round ${example.ratios
    .map((x) => x.toFixed(2))
    .join(
      ', ',
    )}; median **${exampleRatio.toFixed(2)}** (target >= 0.30) — ${exampleRatio >= 0.3 ? 'met' : 'not met'}.`,
  '',
  '| tool | request KiB | receipt KiB | status | floor req/s | tool req/s | time / floor (median) | target <= 1.5 |',
  '| --- | ---: | ---: | --- | ---: | ---: | ---: | --- |',
  ...tools.map((m) => {
    const floorRps =
      m.rows.filter((_, i) => i % 2 === 0).reduce((s, r) => s + r.requestsPerSecond, 0) / rounds;
    const toolRps =
      m.rows.filter((_, i) => i % 2 === 1).reduce((s, r) => s + r.requestsPerSecond, 0) / rounds;
    const slow = 1 / median(m.ratios);
    return `| ${m.c.label} | ${kib(m.c.body.length)} | ${kib(m.c.receiptBytes)} | ${m.c.status} | ${floorRps.toFixed(1)} | ${toolRps.toFixed(1)} | ${slow.toFixed(2)} | ${slow <= 1.5 ? 'met' : 'not met'} |`;
  }),
  '',
  '<details><summary>every round</summary>',
  '',
  table(results.flatMap((m) => m.rows)),
  '',
  '</details>',
  '',
].join('\n');
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/tool-floors.md', md);
process.stdout.write(md + '\n');

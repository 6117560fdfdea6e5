/**
 * Each tool beside its floor, in the same run (issue 18):
 * - the gate example (7 items, ~0.5 KB) against a bare fastify route that parses the same body
 *   and answers a canned body of the receipt's size: target throughput >= 0.30 of the floor;
 * - every tool on its near-limit workload (its definition's `workload`, bench/lib/workloads.ts) against
 *   a bare route that parses the same request and sends a pre-built body of the receipt's size
 *   with its SHA-256: target time per request <= 1.5x the floor's;
 * and the receipt size per tool on those workloads.
 * Rounds alternate floor and tool and the median ratio is reported (a shared machine drifts).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { executeTool, parseJsonBody, type ToolOutcome, type ToolTimings } from '../src/eval/execute.js';
import { sealReceipt, type ReceiptBody } from '../src/core/receipt.js';
import { requestSha256 } from '../src/eval/speed/request-hash.js';
import { TOOLS } from '../src/eval/registry.js';
import { compileValidator } from '../src/core/validation.js';
import { uniformMapFastPass } from '../src/eval/speed/uniform-map.js';
import { load, table, type LoadResult } from './lib/autocannon.js';
import { freePort } from '../test/helpers/free-port.js';
import { startEval, startNode, type Child } from './lib/server.js';
import { workloads } from './lib/workloads.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const headers = { 'content-type': 'application/json' };
const dir = mkdtempSync(path.join(os.tmpdir(), 'tool-floors-'));

interface Case {
  label: string;
  path: string;
  body: string;
  receiptBytes: number;
  status: string;
  /** In-process phase times (median of 15 runs after 5 warm-up runs, ms): where the time above the floor goes. */
  phases: ToolTimings & { jsonParse: number };
  /** The run phase alone in thread CPU time (mean of 15 runs, ms): a loaded machine stretches wall time, far less CPU time. */
  runCpu: number;
  /**
   * executeTool's thread CPU but its run (parse, validate, request hash, seal) beyond the floor's
   * own work on the same request and receipt (JSON.parse, one SHA-256 of the receipt): what
   * validating, hashing the canonical request, canonicalising the receipt and hashing its items
   * and result cost (each step a mean of 15 runs, ms).
   */
  beyondFloorCpu: number;
}

/**
 * Mean thread CPU milliseconds of `run` over `requests`, timed as one loop: the kernel reports a
 * thread's CPU time in steps too coarse for one sub-millisecond run.
 */
function threadCpuMs<T>(requests: T[], run: (request: T) => unknown): number {
  const c = process.threadCpuUsage();
  for (const request of requests) run(request);
  const d = process.threadCpuUsage(c);
  return (d.user + d.system) / 1000 / requests.length;
}

function caseFor(label: string, toolId: string, body: string): Case {
  const tool = TOOLS.find((t) => t.id === toolId)!;
  const runs: ToolTimings[] = [];
  const parses: number[] = [];
  const fresh: { value: unknown; mapKeys: unknown }[] = [];
  const validator = compileValidator(tool.schema, { fastPass: uniformMapFastPass });
  let out: ToolOutcome | undefined;
  for (let i = 0; i < 20; i++) {
    out = executeTool(toolId, Buffer.from(body));
    if (!out.ok) throw new Error(`${toolId}: ${JSON.stringify(out.problem).slice(0, 300)}`);
    if (i < 5) continue;
    runs.push(out.timings);
    const t0 = performance.now();
    JSON.parse(body);
    parses.push(performance.now() - t0);
    // The same run as executeTool's, each on a request of its own (a tool may keep working on its request).
    fresh.push(validator.validate(JSON.parse(body)));
  }
  const bodies: ReceiptBody[] = [];
  const runCpu = threadCpuMs(fresh, (r) => bodies.push(tool.run(r.value as never, r.mapKeys as never)));
  if (!out?.ok) throw new Error(`${toolId}: no answer`);
  // executeTool's steps but the run, each timed as its own loop so no run's cost is subtracted.
  const receipt = Buffer.from(out.body);
  const bytes = new Uint8Array(Buffer.from(body));
  const requests: { value: unknown }[] = [];
  const parseValidateCpu = threadCpuMs(bodies, () => requests.push(validator.validate(parseJsonBody(bytes))));
  const requestHashCpu = threadCpuMs(requests, (r) => requestSha256(tool, bytes, r.value));
  const sealCpu = threadCpuMs(bodies, (b) => sealReceipt(tool.id, '0'.repeat(64), b));
  const floorWorkCpu = threadCpuMs(bodies, () => {
    JSON.parse(body);
    createHash('sha256').update(receipt).digest('hex');
  });
  writeFileSync(path.join(dir, `${label}.receipt`), out.body);
  const phase = (k: keyof ToolTimings): number => median(runs.map((r) => r[k]));
  return {
    label,
    path: tool.path,
    body,
    receiptBytes: Buffer.byteLength(out.body),
    status: out.status,
    phases: {
      parse: phase('parse'),
      validate: phase('validate'),
      run: phase('run'),
      seal: phase('seal'),
      jsonParse: median(parses),
    },
    runCpu,
    beyondFloorCpu: parseValidateCpu + requestHashCpu + sealCpu - floorWorkCpu,
  };
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
  /** tool CPU per request over the floor's, per round (each server process, all threads). */
  cpuRatios: number[];
}

async function measure(c: Case, evalSrv: Child): Promise<Measured> {
  const floor = await startFloor(c);
  try {
    const floorOpts = {
      url: `${floor.url}/floor`,
      method: 'POST' as const,
      body: c.body,
      headers,
      cpuPid: floor.process.pid,
    };
    const toolOpts = {
      url: `${evalSrv.url}${c.path}`,
      method: 'POST' as const,
      body: c.body,
      headers,
      cpuPid: evalSrv.process.pid,
    };
    await load('warm-up', { ...floorOpts, durationSeconds: 1 });
    await load('warm-up', { ...toolOpts, durationSeconds: 1 });
    const rows: LoadResult[] = [];
    const ratios: number[] = [];
    const cpuRatios: number[] = [];
    for (let r = 1; r <= rounds; r++) {
      const f = await load(`${c.label} round ${r}: floor`, { ...floorOpts, durationSeconds: seconds });
      const t = await load(`${c.label} round ${r}: POST ${c.path}`, {
        ...toolOpts,
        durationSeconds: seconds,
      });
      if (t.non2xx + t.errors > 0) throw new Error(`${c.label}: ${t.non2xx} non-2xx, ${t.errors} errors`);
      rows.push(f, t);
      ratios.push(t.requestsPerSecond / f.requestsPerSecond);
      cpuRatios.push(t.cpuMsPerRequest / f.cpuMsPerRequest);
    }
    return { c, rows, ratios, cpuRatios };
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
const nearLimit = workloads().map(({ tool, body }) => caseFor(tool.id, tool.id, body));

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
// CPU per request of the floor over the tool's: the throughput ratio's counterpart in CPU time.
const exampleCpu = 1 / median(example.cpuRatios);
const rounded = (xs: number[]): string => xs.map((x) => x.toFixed(2)).join(', ');
const met = (ok: boolean): string => (ok ? 'met' : 'not met');
/** Issue 18's receipt-size targets on these workloads, in kB (1000 bytes). */
const SIZE_TARGET_KB: Record<string, number> = { health: 600, leakage: 450, memory: 450, replay: 650 };
const phases = ({ phases: p }: Case): string =>
  `${p.jsonParse.toFixed(1)}; ${[p.parse, p.validate, p.run, p.seal].map((x) => x.toFixed(1)).join(' / ')}`;
/**
 * Issue 47's goal, per round: the tool's CPU per request beyond its run phase, in floors (the
 * floor's CPU per request of the same round); at most 1.0 means CPU <= run + 1.0x the floor.
 */
const envelopes = (m: Measured): number[] =>
  m.rows
    .filter((_, i) => i % 2 === 1)
    .map((t, r) => (t.cpuMsPerRequest - m.c.runCpu) / m.rows[2 * r]!.cpuMsPerRequest);
const loadAverage = os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(' / ');
const md = [
  '## Tools beside their floors (gate example throughput, near-limit workloads, receipt sizes)',
  '',
  `autocannon 10 connections, pipelining 1; ${rounds} rounds of ${seconds} s, floor and tool alternating, after 1 s warm-up of each; eval service built, at its defaults (pool size = cores = ${os.availableParallelism()}, EVAL_INLINE_MAX_BYTES 16kb). Workloads: each tool's \`workload()\` (bench/lib/workloads.ts). Load average at the end ${loadAverage} on ${os.availableParallelism()} cores: compare ratios only, and on a loaded machine the CPU ratios (each server process's CPU time per answered request, all its threads, read from /proc around each round) before the throughput ones.`,
  '',
  `Gate example (${example.c.body.length} B, receipt ${example.c.receiptBytes} B, runs inline), target >= 0.30 of a bare route answering a canned body of the receipt's size: throughput ratio per round ${rounded(example.ratios)}, median **${exampleRatio.toFixed(2)}** (${met(exampleRatio >= 0.3)}); CPU ratio (floor CPU per request / tool CPU per request) per round ${rounded(example.cpuRatios.map((x) => 1 / x))}, median **${exampleCpu.toFixed(2)}** (${met(exampleCpu >= 0.3)}).`,
  '',
  'Near-limit workloads, target <= 1.5x the floor (a bare route that parses the same request and sends a pre-built body of the receipt size with its SHA-256):',
  '',
  '| tool | request KiB | receipt bytes | size target | status | floor req/s | tool req/s | time / floor | CPU / floor | target <= 1.5 (CPU) | in-process ms: JSON.parse alone; parse / validate / run / seal | run phase alone / floor CPU | floor CPU ms / request | tool CPU ms / request | run phase CPU ms | envelope in floors | goal <= 1.0 | in-process work beyond run and floor, ms | least envelope in floors |',
  '| --- | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |',
  ...tools.map((m) => {
    const floorRps =
      m.rows.filter((_, i) => i % 2 === 0).reduce((s, r) => s + r.requestsPerSecond, 0) / rounds;
    const toolRps =
      m.rows.filter((_, i) => i % 2 === 1).reduce((s, r) => s + r.requestsPerSecond, 0) / rounds;
    const slow = 1 / median(m.ratios);
    const cpu = median(m.cpuRatios);
    const target = SIZE_TARGET_KB[m.c.label];
    const size = target === undefined ? '' : `<= ${target} kB: ${met(m.c.receiptBytes <= target * 1000)}`;
    // The tool's own computation against everything the floor spends per request: above 1.5,
    // no saving in parsing, sealing or transport can bring the tool within 1.5x of its floor.
    const floorCpu = median(m.rows.filter((_, i) => i % 2 === 0).map((r) => r.cpuMsPerRequest));
    const envelope = median(envelopes(m));
    const toolCpu = median(m.rows.filter((_, i) => i % 2 === 1).map((r) => r.cpuMsPerRequest));
    return `| ${m.c.label} | ${kib(m.c.body.length)} | ${m.c.receiptBytes} | ${size} | ${m.c.status} | ${floorRps.toFixed(1)} | ${toolRps.toFixed(1)} | ${slow.toFixed(2)} | ${cpu.toFixed(2)} | ${met(cpu <= 1.5)} | ${phases(m.c)} | ${(m.c.phases.run / floorCpu).toFixed(2)} | ${floorCpu.toFixed(2)} | ${toolCpu.toFixed(2)} | ${m.c.runCpu.toFixed(2)} | ${envelope.toFixed(2)} | ${met(envelope <= 1)} | ${m.c.beyondFloorCpu.toFixed(2)} | ${(1 + m.c.beyondFloorCpu / floorCpu).toFixed(2)} |`;
  }),
  '',
  'The last column is a lower bound on the CPU / floor column: the run phase alone (the tool computing its answer, in process, wall time on an otherwise idle thread, nothing else) over all the CPU the floor spends per request. Where it is above 1.5, the tool cannot come within 1.5x of its floor while it computes what it does.',
  '',
  `Envelope in floors (issue 47): per round, (tool CPU per request - run phase CPU) / floor CPU per request, the run phase in thread CPU time (in process, mean of 15 runs, not wall time, which a loaded machine stretches), median over the rounds (per round: ${tools.map((m) => `${m.c.label} ${rounded(envelopes(m))}`).join('; ')}). Goal <= 1.0: everything but computing the answer (reading, parsing, validating, the thread hand-off, sealing, sending) costs at most what the whole floor costs.`,
  '',
  "Least envelope in floors: 1 + (thread CPU of executeTool's steps but the run: parse, validate, request hash, seal - the floor's own JSON.parse and SHA-256 of the receipt) / floor CPU per request, in process, each step a mean of 15 runs. The envelope holds all the floor's work (receiving, JSON.parse of the same bytes, one SHA-256 pass over the same receipt, sending the same bytes) and on top of it validation, the canonical request's hash, the receipt's canonicalisation and its items and result hashes, which the receipt format requires; so it cannot come below this figure before any thread hand-off, and the goal of 1.0 is out of reach for any tool whose figure is above it.",
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

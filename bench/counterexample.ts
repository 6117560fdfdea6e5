/**
 * Counterexample benchmark.
 *
 *   npx tsx bench/counterexample.ts        (writes bench/results/counterexample.md)
 *
 * 1. Kernel, in process, native beside TypeScript in the same run: feature evaluations per
 *    second (all 25 features of one random 10-vertex graph), annealing steps per second.
 * 2. Server time of the default request (parse + validate + run + seal, what a pool worker
 *    spends: executeTool), native beside TypeScript, and of a request that ends in the
 *    exhaustive check. Target: default request < 50 ms with the native kernel.
 * 3. HTTP: a real listening buildEvalApp server in a child process (BENCH_ROLE=server);
 *    autocannon on GET /api/health idle, then again while other connections saturate
 *    POST /api/counterexample. Target: health p99 under load within 5x of idle.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sealWithText } from '../src/core/receipt.js';
import { compileValidator } from '../src/core/validation.js';
import { parseExpression } from '../src/eval/dsl/parser.js';
import { FeatureCache } from '../src/eval/graph/features.js';
import { graphFromEdges, type Edge, type Graph } from '../src/eval/graph/graph.js';
import { loadNativeKernel } from '../src/eval/speed/graph-kernel-native.js';
import { runCounterexample } from '../src/eval/tools/counterexample/counterexample.js';
import { counterexampleExample } from '../src/eval/tools/counterexample/example.js';
import { kernelByName } from '../src/eval/speed/graph-kernel.js';
import type { Kernel } from '../src/eval/tools/counterexample/kernel-types.js';
import { prepareClaim } from '../src/eval/tools/counterexample/prepare.js';
import { restartState } from '../src/eval/tools/counterexample/prng.js';
import { CounterexampleRequest } from '../src/eval/tools/counterexample/schema.js';
import { load, ratio, table, type LoadResult } from './lib/autocannon.js';
import { freePort } from '../test/helpers/free-port.js';
import { startNode } from './lib/server.js';
import { lcg } from '../src/eval/math/lcg.testing.js';

function randomGraphs(count: number, n: number, p: number): Graph[] {
  const rnd = lcg(42);
  return Array.from({ length: count }, () => {
    const edges: Edge[] = [];
    for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) if (rnd() < p) edges.push([a, b]);
    return graphFromEdges(n, edges);
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Runs `fn` repeatedly for about `ms` milliseconds; returns work units per second. */
function rate(ms: number, fn: () => number): number {
  fn(); // warm-up
  let units = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    units += fn();
    now = performance.now();
  }
  return (units / (now - start)) * 1000;
}

const fmt = (x: number): string => (x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(2));

async function main(): Promise<void> {
  const { kernel: addon, reason } = loadNativeKernel();
  const ts = kernelByName('ts')!;
  const native = kernelByName('native');
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const lines: string[] = ['## Counterexample: graph kernel and POST /api/counterexample', ''];
  if (!addon) lines.push(`Native kernel unavailable (${reason}); TypeScript figures only.`, '');

  // ---- 1. kernel ---------------------------------------------------------------------------
  // TypeScript and native rounds alternate (7 of each, ~300 ms per round) and medians are
  // reported, so both kernels see the same machine load even on a shared machine.
  const compare = (
    tsRound: () => number,
    nativeRound: (() => number) | null,
  ): { ts: number; native: number; ratio: number } => {
    const round = (fn: () => number): number => rate(300, fn);
    round(tsRound);
    if (nativeRound) round(nativeRound);
    const a: number[] = [];
    const b: number[] = [];
    const q: number[] = [];
    for (let i = 0; i < 7; i++) {
      const x = round(tsRound);
      a.push(x);
      if (nativeRound) {
        const y = round(nativeRound);
        b.push(y);
        q.push(y / x);
      }
    }
    return { ts: median(a), native: nativeRound ? median(b) : 0, ratio: nativeRound ? median(q) : 0 };
  };

  const graphs = randomGraphs(2000, 10, 0.35);
  const cache = new FeatureCache(graphs[0]!);
  const flat = new Uint16Array(graphs.length * 10);
  graphs.forEach((g, i) => flat.set(g.adj, i * 10));
  const featureRow = compare(
    () => {
      for (const g of graphs) {
        cache.reset(g);
        cache.computeAll();
      }
      return graphs.length;
    },
    addon
      ? () => {
          addon.featuresBatch(10, flat, graphs.length);
          return graphs.length;
        }
      : null,
  );

  const annealClaims = [
    ['is_tree => m == n - 1', 'cheap features'],
    ['is_connected and is_triangle_free => chromatic_number <= 3', 'exact chromatic number per step'],
    [counterexampleExample.expression, 'default example: greedy vs chromatic number'],
  ] as const;
  const annealRound = (k: Kernel, src: string): (() => number) => {
    const prepared = prepareClaim(parseExpression(src));
    let seed = 0;
    return () => {
      let steps = 0;
      for (const n of [8, 9, 10, 11])
        steps += k.anneal(prepared, { n, steps: 1500, state: restartState(seed++, 0) }).stepsRun;
      return steps;
    };
  };
  const annealRows = annealClaims.map(([src, what]) => ({
    src,
    what,
    ...compare(annealRound(ts, src), native ? annealRound(native, src) : null),
  }));

  lines.push(
    '### Kernel (in process)',
    '',
    '| workload | TypeScript | native | native / TS |',
    '| --- | ---: | ---: | ---: |',
    `| feature evaluations/s (all 25 features, random G(10, 0.35)) | ${fmt(featureRow.ts)} | ${fmt(featureRow.native)} | **${featureRow.ratio.toFixed(2)}** |`,
    ...annealRows.map(
      (r) =>
        `| annealing steps/s: \`${r.src}\` (${r.what}) | ${fmt(r.ts)} | ${fmt(r.native)} | **${r.ratio.toFixed(2)}** |`,
    ),
    '',
    'Rates are medians of 7 alternating ~300 ms rounds; the ratio is the median of the per-round ratios. Target: native >= 3x TypeScript.',
    '',
  );

  // ---- 2. server time of one request -------------------------------------------------------
  const validate = compileValidator(CounterexampleRequest);
  const serverTime = (k: Kernel, body: string, runs: number): number => {
    const times: number[] = [];
    for (let i = 0; i < runs + 3; i++) {
      const start = performance.now();
      const request = validate.assert(JSON.parse(body));
      sealWithText('counterexample', request, runCounterexample(request, k));
      if (i >= 3) times.push(performance.now() - start);
    }
    return median(times);
  };
  const bodies = [
    [
      'default request (example, FALSIFIED by annealing)',
      JSON.stringify({ expression: counterexampleExample.expression }),
    ],
    [
      '`is_tree => m == n - 1` (defaults: annealing, then every graph on <= 7 vertices)',
      JSON.stringify({ expression: 'is_tree => m == n - 1' }),
    ],
  ] as const;
  lines.push(
    '### Server time per request (parse + validate + run + seal, median)',
    '',
    '| request | TypeScript ms | native ms | TS / native |',
    '| --- | ---: | ---: | ---: |',
  );
  for (const [label, body] of bodies) {
    const tsMs = serverTime(ts, body, 20);
    const natMs = native ? serverTime(native, body, 50) : 0;
    lines.push(
      `| ${label} | ${tsMs.toFixed(2)} | ${native ? natMs.toFixed(2) : 'n/a'} | ${ratio(tsMs, natMs)} |`,
    );
  }
  lines.push('', 'Target: default request < 50 ms server time with the native kernel.', '');

  // ---- 3. health under load ----------------------------------------------------------------
  const port = await freePort();
  const dataDir = '.tmp/bench-counterexample';
  mkdirSync(dataDir, { recursive: true });
  const server = await startNode(
    ['--import', 'tsx', 'bench/counterexample.ts'],
    { BENCH_ROLE: 'server', EVAL_PORT: String(port), DATA_DIR: dataDir },
    '/api/health',
    port,
  );
  const rows: LoadResult[] = [];
  const notes: string[] = [];
  try {
    const health = { url: `${server.url}/api/health` };
    const post = (body: string, connections: number, durationSeconds: number) =>
      load(`POST /api/counterexample (${connections} connections)`, {
        url: `${server.url}/api/counterexample`,
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
        connections,
        durationSeconds,
      });
    // Warm up the worker threads and the JIT.
    await post(bodies[0][1], 4, 2);
    const idle = await load('GET /api/health, idle (baseline)', { ...health, durationSeconds: seconds });
    rows.push(idle);
    for (const [label, body] of bodies) {
      const [h, p] = await Promise.all([
        load(`GET /api/health while ${label.split(' (')[0]} saturates the pool`, {
          ...health,
          durationSeconds: seconds,
        }),
        post(body, 16, seconds),
      ]);
      rows.push(h, { ...p, label: `${p.label}: ${label.split(' (')[0]}` });
      notes.push(
        `Health p99 under ${label.split(' (')[0]} load / idle = **${ratio(h.p99Ms, idle.p99Ms)}** (p50 ratio ${ratio(h.p50Ms, idle.p50Ms)}).`,
      );
    }
  } finally {
    await server.stop();
  }
  lines.push(
    '### /api/health under a saturating counterexample load',
    '',
    `A buildEvalApp server in a child process (pool of ${process.env.EVAL_POOL_SIZE ?? os.availableParallelism()} threads, kernel ${process.env.GRAPH_KERNEL ?? 'auto'}); autocannon ${seconds} s per run, health with 10 connections, the searches with 16 connections at the same time.`,
    '',
    table(rows),
    '',
    ...notes,
    '',
    'Target: health p99 under load within 5x of idle.',
  );

  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/counterexample.md', lines.join('\n') + '\n');
  process.stdout.write(lines.join('\n') + '\n');
}

// Dispatch last: main() uses the helpers above, which must be initialised first.
if (process.env.BENCH_ROLE === 'server') {
  const { buildEvalApp } = await import('../src/eval/app.js');
  const { loadEvalConfig } = await import('../src/eval/config.js');
  const app = await buildEvalApp(loadEvalConfig({ ...process.env, RATE_LIMITS: 'off', LOG_LEVEL: 'warn' }));
  await app.listen({ port: Number(process.env.EVAL_PORT), host: '127.0.0.1' });
} else {
  await main();
}

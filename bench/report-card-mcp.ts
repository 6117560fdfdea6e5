/**
 * Report-card grading time per submit, and MCP tools/call beside the plain HTTP call for the
 * same example (median ratios of wall and CPU time; target <= 1.3x), and open-bench submit time.
 * In-process (app.inject), so both sides skip the network alike. Writes
 * bench/results/report-card-mcp.md.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildEvalApp, reportCardWarmed } from '../src/eval/app.js';
import { loadEvalConfig } from '../src/eval/config.js';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const app = await buildEvalApp(
  loadEvalConfig({
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'bench-rc-')),
  }),
);
await reportCardWarmed(app);
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url,
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });

const grading: number[] = [];
for (let i = 0; i < 20; i++) {
  const session = (await post('/api/report-card/start', {})).json<{
    session_id: string;
    items: { item_id: string; class_predicate: string }[];
  }>();
  // The original classes as answers: every item is graded to a counterexample, the slowest path.
  const answers = Object.fromEntries(session.items.map((it) => [it.item_id, it.class_predicate]));
  const t = performance.now();
  const res = await post('/api/report-card/submit', { session_id: session.session_id, answers });
  grading.push(performance.now() - t);
  if (res.statusCode !== 200) throw new Error(res.body);
}

const examples = (await app.inject('/api/examples')).json().examples as Record<string, unknown>;
const rows: string[] = [];
const load0 = os.loadavg()[0]!.toFixed(2);
const PAIRS = 4000;
const TOOLS = [
  ['replay', '/api/replay'],
  ['gate', '/api/gate'],
  ['safepatch', '/api/safepatch'],
] as const;
const mcpHeaders = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
const mcpCall = (tool: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: tool, arguments: examples[tool] },
});
// Every path warmed before any is measured: without it the first tool measured paid for the
// JIT compiling the SDK's code (its MCP wall time read 3-5x the HTTP one, 1.7x once warm).
for (let i = 0; i < 300; i++) {
  for (const [tool, endpoint] of TOOLS) {
    await post(endpoint, examples[tool]);
    await post('/mcp', mcpCall(tool), mcpHeaders);
  }
}
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
for (const [tool, endpoint] of TOOLS) {
  const wall = { http: [] as number[], mcp: [] as number[] };
  const cpu = { http: [] as number[], mcp: [] as number[] };
  const call = mcpCall(tool);
  // Calls alternate one by one (the order flipped every pair), each timed in wall and process
  // CPU, so load from other processes weighs on both sides alike. Process CPU also counts the
  // pool's idle workers collecting their own heaps and V8's compiler threads, bursts of 5-40 ms
  // landing on either side at random (the thread clocks here tick at 10 ms, too coarse to
  // leave them out), so the ratio of the medians is given beside that of the means.
  for (let i = 0; i < PAIRS; i++) {
    for (const side of i % 2 === 0 ? (['http', 'mcp'] as const) : (['mcp', 'http'] as const)) {
      const c0 = process.cpuUsage();
      const t = performance.now();
      await (side === 'http' ? post(endpoint, examples[tool]) : post('/mcp', call, mcpHeaders));
      const w = performance.now() - t;
      const c = process.cpuUsage(c0);
      wall[side].push(w);
      cpu[side].push((c.user + c.system) / 1000);
    }
  }
  const ratio = (f: (xs: number[]) => number, of: { http: number[]; mcp: number[] }): string =>
    (f(of.mcp) / f(of.http)).toFixed(2);
  rows.push(
    `| ${tool} | ${median(wall.http).toFixed(3)} | ${median(wall.mcp).toFixed(3)} | ${ratio(median, wall)} | ${mean(cpu.http).toFixed(3)} | ${mean(cpu.mcp).toFixed(3)} | ${ratio(mean, cpu)} | ${ratio(median, cpu)} |`,
  );
}

// Open-bench submit: six tasks graded on both sides, the gate, the seal (no publication).
const openBench: number[] = [];
for (let i = 0; i < 20; i++) {
  const session = (await post('/api/open-bench/start', {})).json<{ session_id: string }>();
  const t = performance.now();
  const res = await post('/api/open-bench/submit', {
    session_id: session.session_id,
    baseline: {},
    candidate: {},
  });
  openBench.push(performance.now() - t);
  if (res.statusCode !== 200) throw new Error(res.body);
}
await app.close();

const text = `## report-card-mcp

Report-card submit (six items graded in the pool, every answer refuted): median ${median(grading).toFixed(1)} ms, max ${Math.max(...grading).toFixed(1)} ms over ${grading.length} submits.

Open-bench submit (six tasks, both sides, unanswered): median ${median(openBench).toFixed(2)} ms over ${openBench.length} submits.

MCP \`tools/call\` beside the plain HTTP call (in-process inject, 300 warm-up calls of each tool on each side, then ${PAIRS} calls each, alternating one by one; wall: median per call in ms; CPU: process CPU time per call, mean in ms, the ratio of the means and that of the medians; target ratio <= 1.3; load average ${load0} before, ${os.loadavg()[0]!.toFixed(2)} after, on ${os.cpus().length} cores):

| tool | HTTP wall | MCP wall | ratio | HTTP CPU | MCP CPU | ratio | median CPU ratio |
| --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
`;
writeFileSync('bench/results/report-card-mcp.md', text);
process.stdout.write(text);

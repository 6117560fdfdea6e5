/**
 * Report-card grading time per submit, and MCP tools/call beside the plain HTTP call for the
 * same example (median ratio; target <= 1.3x). In-process (app.inject), so both sides skip
 * the network alike. Writes bench/results/report-card-mcp.md.
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
for (const [tool, endpoint] of [
  ['replay', '/api/replay'],
  ['gate', '/api/gate'],
  ['safepatch', '/api/safepatch'],
] as const) {
  const http: number[] = [];
  const mcp: number[] = [];
  const call = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: tool, arguments: examples[tool] },
  };
  const mcpHeaders = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
  for (let i = 0; i < 300; i++) {
    let t = performance.now();
    await post(endpoint, examples[tool]);
    if (i >= 50) http.push(performance.now() - t);
    t = performance.now();
    await post('/mcp', call, mcpHeaders);
    if (i >= 50) mcp.push(performance.now() - t);
  }
  const ratio = median(mcp) / median(http);
  rows.push(`| ${tool} | ${median(http).toFixed(3)} | ${median(mcp).toFixed(3)} | ${ratio.toFixed(2)} |`);
}
await app.close();

const text = `## report-card-mcp

Report-card submit (six items graded in the pool, every answer refuted): median ${median(grading).toFixed(1)} ms, max ${Math.max(...grading).toFixed(1)} ms over ${grading.length} submits.

MCP \`tools/call\` beside the plain HTTP call (in-process inject, 250 alternating calls each, medians in ms; target ratio <= 1.3):

| tool | HTTP | MCP | ratio |
| --- | --- | --- | --- |
${rows.join('\n')}
`;
writeFileSync('bench/results/report-card-mcp.md', text);
process.stdout.write(text);

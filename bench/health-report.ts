/* eslint-disable @typescript-eslint/no-explicit-any -- the receipt is parsed JSON */
/**
 * Health-report kernel benchmark (in process: the time a pool worker spends on a request,
 * i.e. parse + validate + run + seal through executeTool), beside a baseline measured in the
 * same run: JSON.parse + schema validation of the same body.
 *
 *   npx tsx bench/health-report.ts      (writes bench/results/health-report.md)
 *
 * Workload: 5000 history rows over 1000 items and 5 systems, nine domains.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { compileValidator } from '../src/core/validation.js';
import { executeTool } from '../src/eval/execute.js';
import { lcg } from '../src/eval/math/lcg.testing.js';
import { HealthReportRequest } from '../src/eval/tools/health-report/schema.js';
import { time } from './lib/timing.js';

function healthBody(rows: number): string {
  const rnd = lcg(99);
  const history: { item_id: string; system: string; passed: boolean; domain: string }[] = [];
  const items = 1000;
  while (history.length < rows) {
    const i = Math.floor(rnd() * items);
    const kind = i % 5; // saturated, too hard, discriminating, flaky-ish, mixed
    const system = `sys-${Math.floor(rnd() * 5)}`;
    const p = [1, 0, system < 'sys-2' ? 1 : 0, 0.5, 0.8][kind]!;
    history.push({ item_id: `item-${i}`, system, passed: rnd() < p, domain: `d${i % 9}` });
  }
  return JSON.stringify({ history });
}

const validateHealth = compileValidator(HealthReportRequest);
const f2 = (x: number): string => x.toFixed(2);

function runOk(tool: string, body: string): Record<string, any> {
  const out = executeTool(tool, Buffer.from(body));
  if (!out.ok) throw new Error(`${tool}: ${JSON.stringify(out.problem).slice(0, 500)}`);
  return JSON.parse(out.body) as Record<string, any>;
}

// ---- health report ------------------------------------------------------------------------

const health = healthBody(5000);
const healthBase = time(() => validateHealth.assert(JSON.parse(health)), 5, 15);
const healthBytes = Buffer.from(health);
const healthMs = time(() => executeTool('health', healthBytes), 5, 15);
const healthReceipt = runOk('health', health);

const md = [
  '## Health report (in-process kernel)',
  '',
  'Time of `executeTool` (parse + validate + run + seal), median of 15 runs after warm-up, beside `JSON.parse` + ' +
    'schema validation of the same body measured in the same run. Command: `npx tsx bench/health-report.ts`. ' +
    `Machine: ${os.cpus().length} CPU(s), load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ')} at the end of the run.`,
  '',
  '### Health report: 5000 history rows (1000 items, 5 systems)',
  '',
  '| run | ms |',
  '| --- | ---: |',
  `| JSON.parse + validate (baseline) | ${f2(healthBase)} |`,
  `| POST /api/health-report kernel | ${f2(healthMs)} |`,
  '',
  `Ratio ${f2(healthMs / healthBase)}; target < 50 ms. ${String(healthReceipt.summary.items)} items classified ` +
    `(${Object.entries(healthReceipt.summary.classes as Record<string, number>)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}).`,
  '',
].join('\n');

mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/health-report.md', md);
process.stdout.write(md + '\n');

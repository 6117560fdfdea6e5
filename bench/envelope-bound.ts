/**
 * Issue 47's lower bound, in process: a pooled request's thread work beyond its run phase (parse,
 * validate, request hash, seal: executeTool minus the run) beside the floor's own work on the same
 * request and receipt (JSON.parse of the text, SHA-256 of the receipt's bytes). Neither side pays
 * HTTP or a thread hand-off, so where the ratio is above 1 the tool's envelope cannot come within
 * one floor (tool-floors.ts) while it computes what a receipt must hold. Thread CPU time, the
 * three measured back to back per sample, median of the samples.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { compileValidator } from '../src/core/validation.js';
import { executeTool } from '../src/eval/execute.js';
import { uniformMapFastPass } from '../src/eval/speed/uniform-map.js';
import { workloads } from './lib/workloads.js';

const samples = Number(process.env.BENCH_SAMPLES ?? 21);
/** Calls per sample: the kernel reports a thread's CPU time in steps too coarse for one short call. */
const perSample = 4;

function cpuMs(f: () => void): number {
  const c = process.threadCpuUsage();
  for (let i = 0; i < perSample; i++) f();
  const d = process.threadCpuUsage(c);
  return (d.user + d.system) / 1000 / perSample;
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const rows: string[] = [];
for (const { tool, body: text } of workloads().filter((w) => w.tool.costMsPerKiB !== null)) {
  const bytes = Buffer.from(text);
  const first = executeTool(tool.id, new Uint8Array(bytes));
  if (!first.ok) throw new Error(`${tool.id}: ${first.problem.detail}`);
  const receipt = Buffer.from(first.body, 'utf8');
  const validator = compileValidator(tool.schema, { fastPass: uniformMapFastPass });
  const whole: number[] = [];
  const run: number[] = [];
  const floor: number[] = [];
  for (let s = 0; s < samples + 3; s++) {
    const w = cpuMs(() => executeTool(tool.id, new Uint8Array(bytes)));
    const fresh = Array.from({ length: perSample }, () => validator.validate(JSON.parse(text)));
    let i = 0;
    const r = cpuMs(() => {
      const { value, mapKeys } = fresh[i++]!;
      tool.run(value, mapKeys);
    });
    const f = cpuMs(() => {
      JSON.parse(text);
      createHash('sha256').update(receipt).digest('hex');
    });
    if (s < 3) continue;
    whole.push(w);
    run.push(r);
    floor.push(f);
  }
  const beyond = median(whole) - median(run);
  // docs/speed.md's tool cost: executeTool's CPU per KiB of request, beside the declared costMsPerKiB.
  const perKiB = median(whole) / (bytes.length / 1024);
  rows.push(
    `| ${tool.id} | ${median(whole).toFixed(2)} | ${median(run).toFixed(2)} | ${beyond.toFixed(2)} | ${median(floor).toFixed(2)} | ${(beyond / median(floor)).toFixed(2)} | ${perKiB.toFixed(2)} | ${tool.costMsPerKiB} |`,
  );
}
const loadAverage = os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(' / ');
const md = [
  "## The envelope's lower bound in process (issue 47)",
  '',
  `Thread CPU ms per call, median of ${samples} samples of ${perSample} calls, the three measured back to back per sample; near-limit workloads (each tool's \`workload()\`, bench/lib/workloads.ts); load average at the end ${loadAverage} on ${os.availableParallelism()} cores (compare the ratio only).`,
  '',
  "| tool | executeTool | run phase | beyond the run | floor's JSON.parse + SHA-256 of the receipt | beyond the run / floor's parse + hash | executeTool ms / KiB | declared costMsPerKiB |",
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rows,
  '',
  'Beyond the run a tool must at least do what the floor does (JSON.parse, one SHA-256 pass over the receipt) and also validate, canonicalise and hash the request, canonicalise the receipt and hash its `result`. Above 1.0, the envelope exceeds one floor before any HTTP or thread hand-off.',
  '',
].join('\n');
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/envelope-bound.md', md);
process.stdout.write(md + '\n');

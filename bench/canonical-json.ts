/**
 * Why the project keeps its own RFC 8785 writer: src/core/canonical-json.ts beside the
 * `canonicalize` package (the test oracle) on the same 5,000-item gate receipt.
 *
 *   npx tsx bench/canonical-json.ts      (writes bench/results/canonical-json.md)
 */
import canonicalize from 'canonicalize';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { canonicalJson } from '../src/core/canonical-json.js';
import { executeTool } from '../src/eval/execute.js';
import { gateCohortBody } from './lib/gate-cohort.js';

const ROUNDS = Number(process.env.BENCH_CANONICAL_ROUNDS ?? 15);
// The row names the installed version (its exports hide package.json from require.resolve).
const libraryVersion = (
  JSON.parse(readFileSync(new URL('../node_modules/canonicalize/package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

const out = executeTool('gate', gateCohortBody(5000));
if (!out.ok) throw new Error(`gate failed: ${JSON.stringify(out.problem)}`);
const receipt = JSON.parse(out.body) as unknown;
const library = canonicalize as unknown as (value: unknown) => string;
if (library(receipt) !== canonicalJson(receipt)) throw new Error('the two writers disagree');

/** Median ms of one call, interleaved with the other writer, after 3 warm-up rounds. */
const ours: number[] = [];
const theirs: number[] = [];
for (let i = 0; i < ROUNDS + 3; i++) {
  let t0 = performance.now();
  canonicalJson(receipt);
  const a = performance.now() - t0;
  t0 = performance.now();
  library(receipt);
  const b = performance.now() - t0;
  if (i >= 3) {
    ours.push(a);
    theirs.push(b);
  }
}
const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const [mine, lib] = [median(ours), median(theirs)];
const md = [
  '## Canonical JSON writer beside the `canonicalize` package',
  '',
  `The same 5,000-item gate receipt (${(out.body.length / 1024).toFixed(0)} KiB of canonical JSON), both writers interleaved, median of ${ROUNDS} after 3 warm-up rounds, Node ${process.version}. Command: \`npx tsx bench/canonical-json.ts\`. Load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')} at the end (a shared machine inflates every figure; the ratio less so).`,
  '',
  '| writer | ms per receipt |',
  '| --- | ---: |',
  `| \`canonicalize\` ${libraryVersion} (baseline) | ${lib.toFixed(2)} |`,
  `| src/core/canonical-json.ts | ${mine.toFixed(2)} |`,
  '',
  `\`canonicalize\` / ours = **${(lib / mine).toFixed(2)}**.`,
  '',
].join('\n');
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/canonical-json.md', md);
process.stdout.write(md);

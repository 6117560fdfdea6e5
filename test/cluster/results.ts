/** The figures each scenario records, written to bench/results/cluster.md at the end of the run. */
import { readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './cluster.js';

const sections: { title: string; lines: string[] }[] = [];
const loadAtStart = loadavg();
const started = new Date();

export const load = (): string =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

export function record(title: string, lines: string[]): void {
  sections.push({ title, lines: [...lines, `- machine load average at the end: ${load()}`] });
}

/**
 * Writes this run's sections over the file's, keeping the sections of scenarios this run skipped
 * (CLUSTER_SCENARIOS), each with the run header it came from; sections in the order.
 */
export async function writeResults(): Promise<void> {
  const path = join(ROOT, 'bench', 'results', 'cluster.md');
  const run =
    `Run ${started.toISOString()}, load average ${loadAtStart.map((n) => n.toFixed(1)).join(' ')} at the start, ` +
    `${load()} at the end.`;
  const kept = new Map<string, string>();
  const previous = await readFile(path, 'utf8').catch(() => '');
  for (const part of previous.split(/^## /m).slice(1))
    kept.set(part.slice(0, part.indexOf('\n')), `## ${part.trimEnd()}`);
  for (const s of sections) kept.set(s.title, [`## ${s.title}`, '', `_${run}_`, '', ...s.lines].join('\n'));
  const text = [
    '# Cluster scenarios (`make cluster-test`)',
    '',
    'Ten hosts as network namespaces (lb, api1, api2, eval1, eval2, worker1, worker2, verify1, verify2, data) on',
    'one 2-core machine shared with other sessions: every figure includes that contention (each section names',
    'its run and the load average then). Written by test/cluster/platform.cluster.ts; the arithmetic to N hosts',
    'is in docs/scaling.md.',
    '',
    ...[...kept].sort(([a], [b]) => a.localeCompare(b)).map(([, text]) => `${text}\n`),
  ].join('\n');
  await writeFile(path, text);
}

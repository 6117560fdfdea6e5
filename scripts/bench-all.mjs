// `make bench`: runs every benchmark under bench/ (each writes bench/results/<name>.md),
// then assembles bench/results/latest.md. A failing benchmark is reported, not fatal, so
// one broken bench does not hide the others' figures.
import { readdirSync, readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';

const only = process.argv.slice(2);
const all = readdirSync('bench')
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();
// `node scripts/bench-all.mjs gate` re-runs only the named benches; latest.md still gathers
// every bench's most recent section.
const benches = all.filter((name) => only.length === 0 || only.includes(name));
mkdirSync('bench/results', { recursive: true });
const failed = [];
for (const name of benches) {
  process.stdout.write(`\n=== bench/${name}.ts ===\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', `bench/${name}.ts`], {
    stdio: 'inherit',
    env: process.env,
  });
  if (r.status !== 0) failed.push(name);
}
const sections = all
  .filter((name) => existsSync(`bench/results/${name}.md`))
  .map((name) => readFileSync(`bench/results/${name}.md`, 'utf8').trim());
const header = [
  '# Benchmark results',
  '',
  `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}.`,
  'Every figure stands beside a baseline measured in the same run; compare ratios, not absolute times.',
  failed.length ? `\nFailed benchmarks: ${failed.join(', ')}` : '',
  '',
].join('\n');
writeFileSync('bench/results/latest.md', header + '\n' + sections.join('\n\n') + '\n');
process.stdout.write(`\nwrote bench/results/latest.md (${sections.length} sections)\n`);
process.exit(failed.length ? 1 : 0);

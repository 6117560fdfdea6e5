// `make bench-guard`: runs the benches named in bench/floors.json briefly (their env settings)
// and fails when a ratio falls below its floor. The reports those brief runs write are
// temporary: bench/results/ is put back as it was, so the quiet-machine figures stay.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { formatVerdicts, judgeFloors, parseFloors } from '../dist/src/ops/bench-floors.js';

const floors = parseFloors(JSON.parse(readFileSync('bench/floors.json', 'utf8')));
const reports = {};
for (const bench of [...new Set(floors.map((f) => f.bench))]) {
  const path = `bench/results/${bench}.md`;
  const saved = existsSync(path) ? readFileSync(path) : undefined;
  const env = Object.assign({}, process.env, ...floors.filter((f) => f.bench === bench).map((f) => f.env));
  process.stdout.write(`\n=== bench/${bench}.ts (brief) ===\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', `bench/${bench}.ts`], { stdio: 'inherit', env });
  if (r.status === 0 && existsSync(path)) reports[bench] = readFileSync(path, 'utf8');
  if (saved) writeFileSync(path, saved);
  else rmSync(path, { force: true });
}
const verdicts = judgeFloors(floors, reports);
process.stdout.write(`\n${formatVerdicts(verdicts)}\n`);
process.exit(verdicts.every((v) => v.ok) ? 0 : 1);

// Build steps, in order: native addon (when its sources exist), Prisma client (when the
// schema exists), TypeScript, then the web front-ends (scripts/build-web.mjs, into dist/web).
// Each step is skipped with a message when not applicable.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (existsSync('scripts/build-native.mjs')) run(process.execPath, ['scripts/build-native.mjs']);
if (existsSync('prisma/schema.prisma')) run('npx', ['prisma', 'generate']);
run('npx', ['tsc', '-p', 'tsconfig.build.json']);
if (existsSync('web/tsconfig.json')) run(process.execPath, ['scripts/build-web.mjs']);

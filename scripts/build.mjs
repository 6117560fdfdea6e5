// Build steps, in order: native addon (when its sources exist), Prisma client (when the
// schema exists), TypeScript, then the web front-ends (scripts/build-web.mjs, into dist/web).
// Each step runs only when its inputs' contents changed since its last success (a SHA-256 over
// the files, kept in dist/.build-stamps/), so a `make start` with nothing changed starts at once;
// BUILD_FORCE=1 runs every step. Each step is skipped with a message when not applicable.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const STAMPS = 'dist/.build-stamps';

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** Every file under the paths (folders walked, node_modules and dist left out), sorted. */
function files(paths) {
  const out = [];
  const walk = (p) => {
    if (!existsSync(p)) return;
    if (statSync(p).isDirectory()) {
      for (const name of readdirSync(p)) if (name !== 'node_modules' && name !== 'dist') walk(join(p, name));
    } else out.push(p);
  };
  for (const p of paths) walk(p);
  return out.sort();
}

function digest(paths) {
  const hash = createHash('sha256').update(process.version);
  for (const f of files(paths)) hash.update(f).update('\0').update(readFileSync(f)).update('\0');
  return hash.digest('hex');
}

/** Runs `step` unless the inputs hash as at its last success and its output is there. */
function stamped(name, inputs, output, step) {
  const stamp = join(STAMPS, name);
  const now = digest(inputs);
  const same = existsSync(stamp) && readFileSync(stamp, 'utf8') === now && existsSync(output);
  if (same && !process.env.BUILD_FORCE) {
    console.log(`build: ${name} unchanged, skipped`);
    return;
  }
  step();
  mkdirSync(STAMPS, { recursive: true });
  writeFileSync(stamp, now);
}

const LOCKS = ['package-lock.json', 'package.json'];
if (existsSync('scripts/build-native.mjs')) run(process.execPath, ['scripts/build-native.mjs']);
if (existsSync('prisma/schema.prisma'))
  stamped('prisma', ['prisma/schema.prisma', 'prisma.config.ts', ...LOCKS], 'generated/prisma', () =>
    run('npx', ['prisma', 'generate']),
  );
stamped(
  'tsc',
  ['src', 'workers', 'generated', 'tsconfig.json', 'tsconfig.build.json', ...LOCKS],
  'dist/src/main/eval.js',
  () => run('npx', ['tsc', '-p', 'tsconfig.build.json']),
);
if (existsSync('web/tsconfig.json'))
  stamped('web', ['web', 'scripts/build-web.mjs', ...LOCKS], 'dist/web', () =>
    run(process.execPath, ['scripts/build-web.mjs']),
  );

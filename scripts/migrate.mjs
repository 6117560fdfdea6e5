// `prisma migrate deploy` for the start scripts, quietly: one line when the migrations are
// applied, Prisma's whole output only when it fails. Quiet because its driver-adapter notice
// ("The values from your schema will NOT be used!") asks nothing of the user: the schema's `url`
// must stay for `prisma generate` to work offline (prisma.config.ts). Like test/global-setup.ts,
// the CLI is stopped once it has said the migrations are applied: it lingers ~10 s after (a timer
// of its WASM engine), and each migration is committed by then.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.join(import.meta.dirname, '..');
const MIGRATED = /All migrations have been successfully applied|No pending migrations to apply/;
const database = new URL(
  process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/music',
).pathname.slice(1);

const child = spawn(path.join(root, 'node_modules', '.bin', 'prisma'), ['migrate', 'deploy'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'pipe'],
});
let output = '';
let done = false;
const onData = (chunk) => {
  output += chunk.toString();
  const found = !done && MIGRATED.exec(output);
  if (!found) return;
  done = true;
  const applied = output.match(/^[ \t]+└─ \S+\/$/gm)?.length ?? 0;
  console.log(
    `migrate: database ${database} is up to date${applied ? ` (${applied} migration(s) applied now)` : ''}`,
  );
  child.kill('SIGTERM');
};
child.stdout.on('data', onData);
child.stderr.on('data', onData);
child.on('error', (err) => {
  console.error(`migrate: cannot run prisma: ${err.message}`);
  process.exit(1);
});
child.on('exit', (code) => {
  if (done) return;
  process.stderr.write(output);
  console.error(`migrate: prisma migrate deploy failed on database ${database} (exit ${code})`);
  process.exit(code || 1);
});

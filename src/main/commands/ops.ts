/**
 * `ops <subcommand>`: operating the production shape. init-buckets (compose's one-shot), backup,
 * restore, check, render-nginx. docs/operations.md describes each.
 */
import { createObjectStores, ensureObjectStores } from '../../music/repositories/object-store/index.js';
import { NGINX_TEMPLATE_VARIABLES, renderNginxTemplate } from '../../ops/nginx-template.js';
import { readNginxTemplate } from '../../ops/repositories/nginx-template-file.js';
import { grantEvalRole } from '../../ops/repositories/database-roles.js';
import type { Command } from './command.js';
import { BACKUP_USAGE, RESTORE_USAGE, runBackup, runRestore } from './ops-backup.js';
import { CHECK_USAGE, runCheck } from './ops-check.js';
import { opsConfig, processIo, type OpsIo } from './ops-io.js';

async function initBuckets(argv: string[], io: OpsIo): Promise<number> {
  if (argv.length > 0) {
    io.err('usage: ops init-buckets\n');
    return 2;
  }
  const config = opsConfig(io, 'init-buckets');
  if (!config) return 2;
  const set = createObjectStores(config);
  try {
    await ensureObjectStores(set.stores);
    for (const store of Object.values(set.stores)) await store.ping();
    io.out(`object stores ready (${config.objectStore.kind}): ${Object.keys(set.stores).join(', ')}\n`);
    return 0;
  } finally {
    await set.close();
  }
}

async function renderNginx(argv: string[], io: OpsIo): Promise<number> {
  if (argv.length > 0) {
    io.err('usage: ops render-nginx   (values from the environment)\n');
    return 2;
  }
  try {
    io.out(renderNginxTemplate(await readNginxTemplate(process.cwd()), io.env));
    return 0;
  } catch (err) {
    io.err(
      `ops render-nginx: ${(err as Error).message} (variables: ${NGINX_TEMPLATE_VARIABLES.join(', ')})\n`,
    );
    return 2;
  }
}

/** After migrations (compose's `migrate`): the eval role's rights on the open-bench ledger. */
async function grantEval(argv: string[], io: OpsIo): Promise<number> {
  const url = io.env.DATABASE_URL;
  if (argv.length > 0 || !url) {
    io.err('usage: ops grant-eval   (DATABASE_URL: the owning role; EVAL_DB_USER: the role, default eval)\n');
    return 2;
  }
  const role = io.env.EVAL_DB_USER || 'eval';
  await grantEvalRole(url, role);
  io.out(`granted ${role} reading and adding open-bench receipts\n`);
  return 0;
}

const SUBCOMMANDS: Record<string, (argv: string[], io: OpsIo) => Promise<number>> = {
  'init-buckets': initBuckets,
  backup: runBackup,
  restore: runRestore,
  check: runCheck,
  'render-nginx': renderNginx,
  'grant-eval': grantEval,
};

const USAGE = [
  'ops init-buckets',
  BACKUP_USAGE,
  RESTORE_USAGE,
  CHECK_USAGE,
  'ops render-nginx   (DOMAIN, SECURE_LINK_SECRET, ports, TLS files, upstreams, cache dir, resolver from the environment)',
  'ops grant-eval   (DATABASE_URL of the owning role; EVAL_DB_USER, default eval)',
].join('\n  ');

export function runOps(argv: string[], io: OpsIo = processIo): Promise<number> {
  const [sub, ...rest] = argv;
  const run = sub === undefined ? undefined : SUBCOMMANDS[sub];
  if (!run) {
    io.err(`usage:\n  ${USAGE}\n`);
    return Promise.resolve(2);
  }
  return run(rest, io);
}

export const opsCommand: Command = {
  name: 'ops',
  summary:
    'Operations: init-buckets, backup, restore, check (exit code = failed checks), render-nginx, grant-eval.',
  usage:
    'ops init-buckets | backup | restore | check | render-nginx | grant-eval  (ops with no argument lists the options)',
  run: (argv) => runOps(argv),
};

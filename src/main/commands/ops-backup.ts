/**
 * `ops backup` (database dump and/or object-store archive, then the retention by age) and
 * `ops restore` (a dump into a new database; an archive into the configured stores).
 */
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createObjectStores } from '../../music/repositories/object-store/index.js';
import { ensureObjectStores } from '../../music/repositories/object-store/index.js';
import { dumpDatabase, restoreDatabase } from '../../ops/repositories/database-backup.js';
import { archiveObjects, restoreObjects } from '../../ops/repositories/object-archive.js';
import { offsiteTarget, type OffsiteTarget } from '../../ops/offsite-target.js';
import { copyOffsite } from '../../ops/repositories/offsite-copy.js';
import { ConfigError } from '../../core/env.js';
import { expiredBackups, type BackupKind } from '../../ops/retention.js';
import { opsConfig, type OpsIo } from './ops-io.js';

export const BACKUP_USAGE =
  'ops backup [--what db|objects|all] [--dir <dir>]   (dir: BACKUP_DIR, default ./backups)';
export const RESTORE_USAGE =
  'ops restore [--db <file.dump> --target-url <postgresql://…/new_db> [--owner <role>]] [--objects <file.tar.gz>]';

/** Copies a finished backup to the second target, when one is configured. */
async function offsite(file: string, target: OffsiteTarget | undefined, io: OpsIo): Promise<void> {
  if (!target) return;
  await copyOffsite(file, target, (await stat(file)).size);
  io.out(`copied ${file} to ${target.endpoint} bucket ${target.bucket}\n`);
}

async function prune(dir: string, kind: BackupKind, now: Date, io: OpsIo): Promise<void> {
  for (const name of expiredBackups(await readdir(dir), kind, now)) {
    await rm(join(dir, name), { force: true });
    io.out(`removed ${name} (past retention)\n`);
  }
}

export async function runBackup(argv: string[], io: OpsIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { what: { type: 'string', default: 'all' }, dir: { type: 'string' } },
    }));
  } catch (err) {
    io.err(`ops backup: ${(err as Error).message}\nusage: ${BACKUP_USAGE}\n`);
    return 2;
  }
  if (!['db', 'objects', 'all'].includes(values.what)) {
    io.err(`ops backup: --what must be db, objects or all\nusage: ${BACKUP_USAGE}\n`);
    return 2;
  }
  const config = opsConfig(io, 'backup');
  if (!config) return 2;
  let target;
  try {
    target = offsiteTarget(io.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.err(`ops backup: ${err.message}\n`);
    return 2;
  }
  const dir = values.dir ?? io.env.BACKUP_DIR ?? 'backups';
  await mkdir(dir, { recursive: true });
  const now = io.now();
  if (values.what !== 'objects') {
    const file = await dumpDatabase(config.databaseUrl, dir, now);
    io.out(`database dump ${file}\n`);
    await offsite(file, target, io);
    await prune(dir, 'db', now, io);
  }
  if (values.what !== 'db') {
    const set = createObjectStores(config);
    try {
      const s = await archiveObjects(set.stores, dir, now);
      io.out(`object archive ${s.file}: ${s.objects} objects, ${s.bytes} bytes\n`);
      await offsite(s.file, target, io);
    } finally {
      await set.close();
    }
    await prune(dir, 'objects', now, io);
  }
  return 0;
}

export async function runRestore(argv: string[], io: OpsIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        db: { type: 'string' },
        'target-url': { type: 'string' },
        owner: { type: 'string' },
        objects: { type: 'string' },
      },
    }));
  } catch (err) {
    io.err(`ops restore: ${(err as Error).message}\nusage: ${RESTORE_USAGE}\n`);
    return 2;
  }
  if ((values.db === undefined) !== (values['target-url'] === undefined) || (!values.db && !values.objects)) {
    io.err(`ops restore: give --db with --target-url, and/or --objects\nusage: ${RESTORE_USAGE}\n`);
    return 2;
  }
  if (values.db && values['target-url']) {
    await restoreDatabase(values.db, values['target-url'], values.owner);
    io.out(`database restored from ${values.db}\n`);
  }
  if (values.objects) {
    const config = opsConfig(io, 'restore');
    if (!config) return 2;
    const set = createObjectStores(config);
    try {
      await ensureObjectStores(set.stores);
      const { objects } = await restoreObjects(values.objects, set.stores);
      io.out(`${objects} objects restored from ${values.objects}\n`);
    } finally {
      await set.close();
    }
  }
  return 0;
}

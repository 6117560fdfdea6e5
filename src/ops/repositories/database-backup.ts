/**
 * Database backup and restore with PostgreSQL's own tools: `pg_dump --format=custom` (compressed,
 * restorable table by table) written under a temporary name and renamed when complete, and
 * `pg_restore` into a database that must not exist yet (a restore never overwrites live data).
 */
import { execFile } from 'node:child_process';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { databaseName, libpqUrl, maintenanceUrl } from '../database-url.js';
import { backupFileName } from '../retention.js';

const run = promisify(execFile);

/** Tool failures carry their stderr; the URL (with its password) is never part of the message. */
async function tool(name: string, args: string[]): Promise<void> {
  try {
    await run(name, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const e = err as { code?: string | number; stderr?: string };
    // No cause on either error: it holds the command line, and with it the URL's password.
    if (e.code === 'ENOENT')
      // eslint-disable-next-line preserve-caught-error
      throw new Error(`${name} is not installed (Debian: apt-get install postgresql-client)`);
    // eslint-disable-next-line preserve-caught-error
    throw new Error(`${name} failed (exit ${e.code}): ${(e.stderr ?? '').trim().slice(0, 2000)}`);
  }
}

export async function dumpDatabase(databaseUrl: string, dir: string, now: Date): Promise<string> {
  const file = join(dir, backupFileName('db', now));
  const partial = `${file}.partial`;
  try {
    await tool('pg_dump', [
      '--format=custom',
      '--no-password',
      `--file=${partial}`,
      `--dbname=${libpqUrl(databaseUrl)}`,
    ]);
    await rename(partial, file);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
  return file;
}

const SAFE_DATABASE_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,62}$/;
const SAFE_ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Restores a custom-format dump into `targetUrl`'s database, which this creates. With `owner`
 * (run as an administrator), the database and everything restored belong to that role: the
 * service's own role, not the administrator who restored it.
 */
export async function restoreDatabase(file: string, targetUrl: string, owner?: string): Promise<void> {
  const name = databaseName(targetUrl);
  if (!SAFE_DATABASE_NAME.test(name))
    throw new Error(
      `target database name ${JSON.stringify(name)}: use letters, digits, _ and - (at most 63)`,
    );
  if (owner !== undefined && !SAFE_ROLE_NAME.test(owner))
    throw new Error(`owner ${JSON.stringify(owner)}: use lower-case letters, digits and _ (at most 63)`);
  const admin = new pg.Client({ connectionString: maintenanceUrl(targetUrl) });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount)
      throw new Error(
        `database "${name}" exists already; restore into a new database (then switch DATABASE_URL)`,
      );
    await admin.query(`CREATE DATABASE "${name}"${owner ? ` OWNER "${owner}"` : ''}`);
  } finally {
    await admin.end();
  }
  await tool('pg_restore', [
    ...['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', '--no-password'],
    ...(owner ? [`--role=${owner}`] : []),
    `--dbname=${libpqUrl(targetUrl)}`,
    file,
  ]);
}

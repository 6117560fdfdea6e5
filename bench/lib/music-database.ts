/**
 * A throw-away PostgreSQL database for a benchmark (music; the eval's open-bench ledger): created
 * from DATABASE_ADMIN_URL (default: the local trust account), migrated with `prisma migrate
 * deploy`, dropped afterwards.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const ROOT = join(import.meta.dirname, '..', '..');
const ADMIN_URL = process.env.DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export async function withBenchDatabase<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const name = `music_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  try {
    await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'prisma'), ['migrate', 'deploy'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url.toString() },
    });
    return await fn(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

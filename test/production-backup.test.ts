/**
 * The production database roles and backups, end to end without Docker: docker/postgres/initdb
 * creates the roles as the image runs it; the lockfile's prisma CLI migrates as the music role
 * (compose's `migrate`), then `ops grant-eval`; the music API runs as that role and eval's role
 * reaches only the open-bench ledger. docker/ops/backup-loop.sh runs as a non-root user (nobody
 * when the test is root): into a fresh directory it owns, with an off-site copy to an
 * S3-protocol server, and into a root-owned one (the old image's volume), where the failure
 * must show in `ops check`. Then the restore drill: the loop's dump restored by an administrator
 * into a new database owned by the music role, every row equal, usable by both roles.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmod, chown, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOps } from '../src/main/commands/ops.js';
import type { OpsIo } from '../src/main/commands/ops-io.js';
import { createS3Client } from '../src/music/repositories/object-store/s3-store.js';
import {
  createMusicTestApp,
  TEST_CLIENT_KEY_SECRET,
  TEST_JWT_SECRET,
  TEST_SECURE_LINK_SECRET,
} from './helpers/music-app.js';
import { signupUser } from './helpers/music-domain.js';
import { testDatabaseUrl, testKeyPrefix, testQueuePrefix, uniqueSuffix } from './helpers/music-env.js';

const ROOT = join(import.meta.dirname, '..');
const run = promisify(execFile);
const asRoot = process.getuid?.() === 0;
const NOBODY = { uid: 65534, gid: 65534 };
// The loop's user: as root, nobody (what the image's `node` user is to a root-owned volume),
// when nobody can read this checkout and run this node; otherwise the current user.
const nobodyCanRun =
  asRoot &&
  spawnSync(
    'sh',
    ['-c', 'test -r "$1" && test -x "$2"', 'sh', join(ROOT, 'dist/src/main/cli.js'), process.execPath],
    NOBODY,
  ).status === 0;
const LOOP_USER = nobodyCanRun ? NOBODY : {};
// As root without such a user, a root-owned directory is writable: that case cannot be shown.
const NON_ROOT_LOOP = !asRoot || nobodyCanRun;
if (!NON_ROOT_LOOP)
  console.warn(
    'production-backup: skipping the root-owned directory case: running as root, and user nobody cannot read this checkout (run it from a world-readable directory, or as a non-root user)',
  );

function urlOf(database: string, user = 'postgres'): string {
  const url = new URL(testDatabaseUrl());
  url.username = user;
  url.password = '';
  url.pathname = `/${database}`;
  return url.toString();
}

async function sql<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

function io(env: Record<string, string>): OpsIo & { text: () => string } {
  const lines: string[] = [];
  return {
    env,
    out: (t) => lines.push(t),
    err: (t) => lines.push(t),
    now: () => new Date(),
    text: () => lines.join(''),
  };
}

/** table → sorted md5 of every row. */
async function fingerprint(url: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  const tables = await sql<{ t: string }>(
    url,
    "SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
  );
  for (const { t } of tables)
    out[t] = (await sql<{ h: string }>(url, `SELECT md5(x::text) AS h FROM "${t}" x ORDER BY 1`)).map(
      (r) => r.h,
    );
  return out;
}

describe('production roles, backup loop and restore drill', () => {
  const suffix = uniqueSuffix();
  const db = `prod_${suffix}`;
  const restored = `prod_restored_${suffix}`;
  const music = `music_${suffix}`;
  const evalRole = `eval_${suffix}`;
  const bucket = `offsite-${suffix}`.toLowerCase().replace(/_/g, '-');
  let work: string;
  let appEnv: Record<string, string>;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'prod-backup-'));
    await chmod(work, 0o755);
    // As the postgres image does: POSTGRES_DB created, then the initdb scripts as the superuser.
    await sql(urlOf('postgres'), `CREATE DATABASE "${db}"`);
    const { hostname, port } = new URL(testDatabaseUrl());
    await run('sh', [join(ROOT, 'docker/postgres/initdb/10-roles.sh')], {
      env: {
        PATH: process.env.PATH,
        PGHOST: hostname,
        PGPORT: port || '5432',
        POSTGRES_USER: 'postgres',
        POSTGRES_DB: db,
        MUSIC_DB_USER: music,
        EVAL_DB_USER: evalRole,
        MUSIC_DB_PASSWORD: 'unused-with-trust',
        EVAL_DB_PASSWORD: 'unused-with-trust',
      },
    });
    // Compose's `migrate`: the lockfile's prisma CLI as the music role, then the eval grants.
    await run('npx', ['--no-install', 'prisma', 'migrate', 'deploy'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: urlOf(db, music) },
    });
    const grant = io({ DATABASE_URL: urlOf(db, music), EVAL_DB_USER: evalRole });
    expect(await runOps(['grant-eval'], grant), grant.text()).toBe(0);
    appEnv = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: urlOf(db, music),
      CACHE_URL: 'redis://127.0.0.1:6379',
      MUSIC_CACHE_KEY_PREFIX: testKeyPrefix(),
      QUEUE_PREFIX: testQueuePrefix(),
      JWT_SECRET: TEST_JWT_SECRET,
      SECURE_LINK_SECRET: TEST_SECURE_LINK_SECRET,
      IP_HASH_SALT: 'test-ip-hash-salt-0123456789',
      CLIENT_KEY_SECRET: TEST_CLIENT_KEY_SECRET,
      OBJECT_STORE_ENDPOINT: process.env.TEST_S3_ENDPOINT!,
      OBJECT_STORE_ROOT_USER: process.env.TEST_S3_ACCESS_KEY!,
      OBJECT_STORE_ROOT_PASSWORD: process.env.TEST_S3_SECRET_KEY!,
      OBJECT_STORE_BUCKET_PREFIX: `prod-${suffix}-`.toLowerCase().replace(/_/g, '-'),
    };
  }, 180_000);

  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
    for (const name of [db, restored])
      await sql(urlOf('postgres'), `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    for (const role of [music, evalRole]) await sql(urlOf('postgres'), `DROP ROLE IF EXISTS "${role}"`);
  });

  it('gives each service its own unprivileged role: music owns the schema, eval reaches only the ledger', async () => {
    const roles = await sql<{
      rolname: string;
      rolsuper: boolean;
      rolcreatedb: boolean;
      rolcreaterole: boolean;
    }>(
      urlOf('postgres'),
      `SELECT rolname, rolsuper, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname IN ('${music}', '${evalRole}') ORDER BY 1`,
    );
    expect(roles).toHaveLength(2);
    for (const r of roles)
      expect([r.rolsuper, r.rolcreatedb, r.rolcreaterole], r.rolname).toEqual([false, false, false]);
    // The music API runs as its role: an account through the real API.
    const app = await createMusicTestApp(appEnv);
    try {
      await signupUser(app.app, 'prod');
    } finally {
      await app.close();
    }
    const asEval = urlOf(db, evalRole);
    await sql(
      asEval,
      `INSERT INTO open_bench_receipts (public_id, track, display_name, verdict, tasks, baseline_passed, candidate_passed, gains, regressions, receipt, receipt_sha256, published_at)
       VALUES (left('r-${suffix}', 32), 't', 'd', 'pass', 1, 1, 1, 0, 0, '{}', repeat('a', 64), now())`,
    );
    expect(await sql(asEval, 'SELECT count(*)::int AS n FROM open_bench_receipts')).toEqual([{ n: 1 }]);
    await expect(sql(asEval, 'SELECT * FROM users')).rejects.toThrow(/permission denied/);
    await expect(sql(asEval, 'DELETE FROM open_bench_receipts')).rejects.toThrow(/permission denied/);
    await expect(sql(asEval, 'CREATE TABLE x (a int)')).rejects.toThrow(/permission denied/);
    await expect(sql(urlOf('postgres', music), `CREATE DATABASE "x_${suffix}"`)).rejects.toThrow(
      /permission denied/,
    );
  }, 120_000);

  /** One pass of the loop as the non-root user: until it announces the next run, then stopped. */
  async function loopOnce(dir: string, extra: Record<string, string> = {}): Promise<string> {
    const child = spawn('sh', [join(ROOT, 'docker/ops/backup-loop.sh')], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        ...appEnv,
        NODE_ENV: 'production',
        BACKUP_DIR: dir,
        ...extra,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...LOOP_USER,
    });
    let output = '';
    const announced = new Promise<void>((resolve, reject) => {
      const onData = (c: Buffer) => {
        output += c.toString();
        if (/backup: next run at \d{4}-\d\d-\d\dT02:30:00Z/.test(output)) resolve();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`backup loop exited (${code}):\n${output}`)));
    });
    try {
      await announced;
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    }
    return output;
  }

  it('backs up as a non-root user into a fresh directory it owns, copies off the host, and ops check is ok', async () => {
    const dir = join(work, 'fresh');
    await mkdir(dir);
    if (nobodyCanRun) await chown(dir, NOBODY.uid, NOBODY.gid);
    const offsite = {
      BACKUP_OFFSITE_ENDPOINT: process.env.TEST_S3_ENDPOINT!,
      BACKUP_OFFSITE_BUCKET: bucket,
      BACKUP_OFFSITE_ACCESS_KEY: process.env.TEST_S3_ACCESS_KEY!,
      BACKUP_OFFSITE_SECRET_KEY: process.env.TEST_S3_SECRET_KEY!,
    };
    const output = await loopOnce(dir, offsite);
    expect(output).not.toMatch(/FAILED/);
    const files = (await readdir(dir)).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^db-\d{8}T\d{6}Z\.dump$/);
    expect(files[1]).toMatch(/^objects-\d{8}T\d{6}Z\.tar\.gz$/);
    if (nobodyCanRun) expect((await stat(join(dir, files[0]!))).uid).toBe(NOBODY.uid);
    const client = createS3Client({
      endpoint: offsite.BACKUP_OFFSITE_ENDPOINT,
      region: 'us-east-1',
      accessKeyId: offsite.BACKUP_OFFSITE_ACCESS_KEY,
      secretAccessKey: offsite.BACKUP_OFFSITE_SECRET_KEY,
      bucketPrefix: '',
    });
    try {
      for (const file of files) {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: file }));
        expect(head.ContentLength, file).toBe((await stat(join(dir, file))).size);
      }
    } finally {
      client.destroy();
    }
    const check = io({ ...appEnv, ...offsite, BACKUP_DIR: dir });
    await runOps(['check', '--min-free', '0', '--tls-host', '127.0.0.1:1'], check);
    expect(check.text()).toMatch(
      /^ok {3}backup: last good database backup db-\d{8}T\d{6}Z\.dump in .*fresh, 0\.0 h old/m,
    );
    expect(check.text()).toMatch(
      new RegExp(
        `^ok {3}backup-offsite: last good database backup db-\\d{8}T\\d{6}Z\\.dump in .* bucket ${bucket}, 0\\.0 h old`,
        'm',
      ),
    );
    // A target that holds no copy (its uploads failing) fails the check.
    const empty = io({ ...appEnv, ...offsite, BACKUP_OFFSITE_BUCKET: `${bucket}-empty`, BACKUP_DIR: dir });
    await runOps(['check', '--min-free', '0', '--tls-host', '127.0.0.1:1'], empty);
    expect(empty.text()).toMatch(/^FAIL backup-offsite: (no database backup in|could not check)/m);
  }, 120_000);

  it.skipIf(!NON_ROOT_LOOP)(
    'reports a backup directory it cannot write (root-owned) as FAILED, and ops check fails',
    async () => {
      const dir = join(work, 'root-owned');
      await mkdir(dir);
      // The old image: the volume root-owned (0755) while the process runs unprivileged.
      if (!asRoot) await chmod(dir, 0o555);
      const output = await loopOnce(dir);
      expect(output).toMatch(/backup: the db backup FAILED/);
      expect(output).toMatch(/EACCES|permission denied/i);
      const check = io({ ...appEnv, BACKUP_DIR: dir });
      const failed = await runOps(['check', '--min-free', '0', '--tls-host', '127.0.0.1:1'], check);
      expect(failed).toBeGreaterThanOrEqual(1);
      expect(check.text()).toMatch(/^FAIL backup: no database backup in .*root-owned/m);
    },
    120_000,
  );

  it('restores the loop’s dump as an administrator into a new database owned by the music role', async () => {
    const dir = join(work, 'fresh');
    const dump = (await readdir(dir)).find((f) => f.endsWith('.dump'))!;
    const restore = io(appEnv);
    const code = await runOps(
      ['restore', '--db', join(dir, dump), '--target-url', urlOf(restored), '--owner', music],
      restore,
    );
    expect(code, restore.text()).toBe(0);
    // What the stack does after DB_NAME is switched: migrate (nothing pending), then the grants.
    await run('npx', ['--no-install', 'prisma', 'migrate', 'deploy'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: urlOf(restored, music) },
    });
    const grant = io({ DATABASE_URL: urlOf(restored, music), EVAL_DB_USER: evalRole });
    expect(await runOps(['grant-eval'], grant), grant.text()).toBe(0);
    const [before, after] = [await fingerprint(urlOf(db)), await fingerprint(urlOf(restored))];
    expect(Object.keys(after)).toEqual(Object.keys(before));
    for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table]);
    expect(before.users!.length).toBe(1);
    const owners = await sql<{ tableowner: string }>(
      urlOf(restored),
      "SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'",
    );
    expect(owners).toEqual([{ tableowner: music }]);
    expect(
      await sql(urlOf(restored, evalRole), 'SELECT count(*)::int AS n FROM open_bench_receipts'),
    ).toEqual([{ n: 1 }]);
    await sql(urlOf(restored, music), "UPDATE users SET display_name = 'after restore'");
  }, 180_000);
});

/**
 * The restore drill: data written through the running API into its own database and stores →
 * `ops backup` (pg_dump custom format + object archive) → `ops restore` into a new database and
 * into an S3-protocol store → every table's row count and every row's checksum equal, every
 * object's bytes equal. Plus the retention applied by age and a restore that would overwrite.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOps } from '../src/main/commands/ops.js';
import type { OpsIo } from '../src/main/commands/ops-io.js';
import { createObjectStores } from '../src/music/repositories/object-store/index.js';
import { STORE_NAMES, type ObjectStores } from '../src/music/repositories/object-store/object-store.js';
import { backupFileName } from '../src/ops/retention.js';
import {
  createMusicTestApp,
  TEST_JWT_SECRET,
  TEST_SECURE_LINK_SECRET,
  type MusicTestApp,
} from './helpers/music-app.js';
import { signupUser } from './helpers/music-domain.js';
import { testDatabaseUrl, testKeyPrefix, testQueuePrefix, uniqueSuffix } from './helpers/music-env.js';
import { databaseUrlOf, withPostgres } from './helpers/postgres.js';

const ROOT = join(import.meta.dirname, '..');
const NOW = new Date('2026-11-25T02:30:00Z');

const urlOf = (name: string): string => databaseUrlOf(testDatabaseUrl(), name);
const admin = <T>(fn: (c: pg.Client) => Promise<T>): Promise<T> => withPostgres(urlOf('postgres'), fn);

/** A database with the project's schema: the migrations' SQL applied in order. */
async function createMigratedDatabase(name: string): Promise<void> {
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  await withPostgres(urlOf(name), async (client) => {
    const dir = join(ROOT, 'prisma', 'migrations');
    for (const m of (await readdir(dir, { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort())
      await client.query(await readFile(join(dir, m, 'migration.sql'), 'utf8'));
  });
}

/** table → sorted md5 of every row's text form (row count = its length). */
async function fingerprint(name: string): Promise<Record<string, string[]>> {
  return withPostgres(urlOf(name), async (client) => {
    const tables = await client.query<{ t: string }>(
      "SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
    );
    const out: Record<string, string[]> = {};
    for (const { t } of tables.rows) {
      const rows = await client.query<{ h: string }>(`SELECT md5(x::text) AS h FROM "${t}" x ORDER BY 1`);
      out[t] = rows.rows.map((r) => r.h);
    }
    return out;
  });
}

async function objectsOf(stores: ObjectStores): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of STORE_NAMES) {
    for (const key of await stores[name].list('')) {
      const got = await stores[name].get(key);
      out[`${name}/${key}`] = Buffer.concat(await got!.body.toArray()).toString('base64');
    }
  }
  return out;
}

function captureIo(env: Record<string, string>): OpsIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { env, stdout, stderr, out: (t) => stdout.push(t), err: (t) => stderr.push(t), now: () => NOW };
}

describe('backup and restore drill', () => {
  const suffix = uniqueSuffix();
  const source = `ops_drill_src_${suffix}`;
  const target = `ops_drill_dst_${suffix}`;
  let music: MusicTestApp;
  let backupDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    await createMigratedDatabase(source);
    music = await createMusicTestApp({ DATABASE_URL: urlOf(source), RATE_LIMITS: 'off' });
    backupDir = await mkdtemp(join(tmpdir(), 'ops-backups-'));
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: urlOf(source),
      DATA_DIR: music.dataDir,
      CACHE_URL: 'redis://127.0.0.1:6379',
      MUSIC_CACHE_KEY_PREFIX: testKeyPrefix(),
      QUEUE_PREFIX: testQueuePrefix(),
      JWT_SECRET: TEST_JWT_SECRET,
      SECURE_LINK_SECRET: TEST_SECURE_LINK_SECRET,
      IP_HASH_SALT: 'test-ip-hash-salt-0123456789',
    };
    // Data through the real API: accounts, tracks (one with text PostgreSQL must keep exactly), comments.
    for (let i = 0; i < 3; i++) {
      const user = await signupUser(music.app, 'drill');
      for (const title of [`Track ${i}`, `Ünïcødé — “quotes”, 'apostrophes' and \\backslash ${i}`]) {
        const track = await music.app.inject({
          method: 'POST',
          url: '/api/v1/tracks',
          headers: user.headers,
          payload: {
            title,
            description: `line one\nline two ${randomBytes(4).toString('hex')}`,
            visibility: 'public',
          },
        });
        expect(track.statusCode, track.body).toBe(201);
        const comment = await music.app.inject({
          method: 'POST',
          url: '/api/v1/comments',
          headers: user.headers,
          payload: { track_id: track.json<{ id: string }>().id, body: `first! 🎵 ${i}`, position_ms: 1234 },
        });
        expect(comment.statusCode, comment.body).toBe(201);
      }
    }
    await music.connections.stores.images.put('art/cover-512.jpg', randomBytes(70_000));
    await music.connections.stores.waveforms.put('v1/peaks.json', '{"version":2,"data":[0,1]}');
    await music.connections.stores.transcodes.put('v1/r0/index.m3u8', '#EXTM3U\n');
    // Backups older than the retention, and one that is not ours.
    for (const old of [backupFileName('db', new Date('2026-10-01T00:00:00Z')), 'notes.txt'])
      await writeFile(join(backupDir, old), 'old');
  }, 120_000);

  afterAll(async () => {
    await music?.close();
    await rm(backupDir, { recursive: true, force: true });
    await admin(async (c) => {
      for (const db of [source, target]) await c.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
    });
  });

  it('backs up, applies retention, restores into a new database with every row equal', async () => {
    const io = captureIo(env);
    expect(await runOps(['backup', '--dir', backupDir], io), io.stderr.join('')).toBe(0);
    const files = (await readdir(backupDir)).sort();
    expect(files).toEqual([backupFileName('db', NOW), backupFileName('objects', NOW), 'notes.txt'].sort());
    expect(io.stdout.join('')).toMatch(/removed db-20261001T000000Z\.dump \(past retention\)/);
    expect(await readFile(join(backupDir, backupFileName('db', NOW)))).toSatisfy((b: Buffer) =>
      b.subarray(0, 5).equals(Buffer.from('PGDMP')),
    );

    const restore = captureIo(env);
    const code = await runOps(
      ['restore', '--db', join(backupDir, backupFileName('db', NOW)), '--target-url', urlOf(target)],
      restore,
    );
    expect(code, restore.stderr.join('')).toBe(0);
    expect(restore.stdout.join('')).not.toContain(urlOf(target));
    const [before, after] = [await fingerprint(source), await fingerprint(target)];
    expect(Object.keys(after)).toEqual(Object.keys(before));
    expect(before.users).toHaveLength(3);
    expect(before.tracks).toHaveLength(6);
    expect(before.comments).toHaveLength(6);
    for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table]);
  }, 120_000);

  it('restores the object archive into an S3-protocol store with every object equal', async () => {
    const archive = join(backupDir, backupFileName('objects', NOW));
    const s3Env = {
      ...env,
      OBJECT_STORE_ENDPOINT: process.env.TEST_S3_ENDPOINT!,
      OBJECT_STORE_ROOT_USER: process.env.TEST_S3_ACCESS_KEY!,
      OBJECT_STORE_ROOT_PASSWORD: process.env.TEST_S3_SECRET_KEY!,
      OBJECT_STORE_BUCKET_PREFIX: `drill-${suffix}-`,
    };
    const io = captureIo(s3Env);
    expect(await runOps(['restore', '--objects', archive], io), io.stderr.join('')).toBe(0);
    expect(io.stdout.join('')).toMatch(/^3 objects restored/);
    const restored = createObjectStores({
      objectStore: {
        kind: 's3',
        endpoint: s3Env.OBJECT_STORE_ENDPOINT,
        region: 'us-east-1',
        accessKeyId: s3Env.OBJECT_STORE_ROOT_USER,
        secretAccessKey: s3Env.OBJECT_STORE_ROOT_PASSWORD,
        bucketPrefix: s3Env.OBJECT_STORE_BUCKET_PREFIX,
      },
    });
    try {
      expect(await objectsOf(restored.stores)).toEqual(await objectsOf(music.connections.stores));
    } finally {
      await restored.close();
    }
  }, 120_000);

  it('refuses to restore over an existing database, and explains the arguments it needs', async () => {
    const io = captureIo(env);
    await expect(
      runOps(
        ['restore', '--db', join(backupDir, backupFileName('db', NOW)), '--target-url', urlOf(source)],
        io,
      ),
    ).rejects.toThrow(/exists already; restore into a new database/);
    const usage = captureIo(env);
    expect(await runOps(['restore', '--db', 'x.dump'], usage)).toBe(2);
    expect(usage.stderr.join('')).toMatch(/give --db with --target-url/);
  });
});

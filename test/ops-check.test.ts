/**
 * `ops check`: exit code = number of failed checks, one line each or JSON. A fake low-disk
 * threshold, expired and soon-expiring self-signed certificates (from a file and from a live
 * handshake), real failed BullMQ jobs, and Redis being away.
 */
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOps } from '../src/main/commands/ops.js';
import type { OpsIo } from '../src/main/commands/ops-io.js';
import { TEST_JWT_SECRET, TEST_SECURE_LINK_SECRET } from './helpers/music-app.js';
import { testDatabaseUrl, testKeyPrefix, testQueuePrefix } from './helpers/music-env.js';
import { backupFileName } from '../src/ops/retention.js';
import { selfSignedCertificate } from './helpers/nginx-edge.js';

async function check(env: Record<string, string>, argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: OpsIo = { env, out: (t) => out.push(t), err: (t) => err.push(t), now: () => new Date() };
  const code = await runOps(['check', ...argv], io);
  return { code, out: out.join(''), err: err.join('') };
}

describe('ops check', () => {
  let dir: string;
  let certs: Record<'valid' | 'expired' | 'soon', string>;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ops-check-'));
    const make = async (name: string, days: number) => {
      const sub = join(dir, name);
      await mkdir(sub);
      return (await selfSignedCertificate(sub, days)).cert;
    };
    certs = {
      valid: await make('valid', 365),
      expired: await make('expired', -1),
      soon: await make('soon', 10),
    };
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: testDatabaseUrl(),
      DATA_DIR: dir,
      CACHE_URL: 'redis://127.0.0.1:6379',
      MUSIC_CACHE_KEY_PREFIX: testKeyPrefix(),
      QUEUE_PREFIX: testQueuePrefix(),
      JWT_SECRET: TEST_JWT_SECRET,
      SECURE_LINK_SECRET: TEST_SECURE_LINK_SECRET,
      IP_HASH_SALT: 'test-ip-hash-salt-0123456789',
      BACKUP_DIR: join(dir, 'backups'),
    };
    // A dump from an hour ago: the backup check's healthy case.
    await mkdir(env.BACKUP_DIR!);
    await writeFile(join(env.BACKUP_DIR!, backupFileName('db', new Date(Date.now() - 3_600_000))), 'PGDMP');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('passes everything on a healthy setup: exit 0, one line per check', async () => {
    const r = await check(env, ['--min-free', '0', '--cert', certs.valid]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^ok {3}disk: [\d.]+% free on .* \(needs more than 0\.0%\)$/);
    expect(lines[1]).toBe('ok   failed-jobs: 0 failed jobs (needs fewer than 10)');
    expect(lines[2]).toMatch(/^ok {3}tls-certificate: .*valid (364|365) more days/);
    expect(lines[3]).toMatch(
      /^ok {3}backup: last good database backup db-\d{8}T\d{6}Z\.dump in .*backups, 1\.0 h old \(needs at most 24 h\)$/,
    );
  });

  it('fails the backup check past the 24 h RPO, with no backup, and on an unreadable directory', async () => {
    const stale = join(dir, 'stale-backups');
    await mkdir(stale);
    // A newer dump that never completed does not count; the last good one is 25 h old.
    await writeFile(join(stale, backupFileName('db', new Date(Date.now() - 25 * 3_600_000))), 'PGDMP');
    await writeFile(join(stale, `${backupFileName('db', new Date())}.partial`), 'PG');
    await writeFile(join(stale, backupFileName('objects', new Date())), 'tar');
    const old = await check({ ...env, BACKUP_DIR: stale }, ['--min-free', '0', '--cert', certs.valid]);
    expect(old.code).toBe(1);
    expect(old.out).toMatch(
      /^FAIL backup: last good database backup db-\d{8}T\d{6}Z\.dump in .*stale-backups, 25\.0 h old \(needs at most 24 h\)$/m,
    );
    const none = await check(env, [
      '--min-free',
      '0',
      '--cert',
      certs.valid,
      '--backup-dir',
      join(dir, 'valid'),
    ]);
    expect(none.code).toBe(1);
    expect(none.out).toMatch(/^FAIL backup: no database backup in .*valid \(needs one within 24 h\)$/m);
    const missing = await check(env, [
      '--min-free',
      '0',
      '--cert',
      certs.valid,
      '--backup-dir',
      join(dir, 'nope'),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.out).toMatch(/^FAIL backup: could not check: ENOENT/m);
    expect((await check(env, ['--max-backup-age', '0'])).code).toBe(2);
  });

  it('fails the disk check on a fake low-disk threshold: exit 1', async () => {
    const r = await check(env, ['--min-free', '0.999999', '--cert', certs.valid]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^FAIL disk: [\d.]+% free on .* \(needs more than 100\.0%\)$/m);
  });

  it('fails on an expired certificate, and on one valid for fewer than 30 days', async () => {
    const expired = await check(env, ['--min-free', '0', '--cert', certs.expired]);
    expect(expired.code).toBe(1);
    expect(expired.out).toMatch(/^FAIL tls-certificate: .*expired on \d{4}-/m);
    const soon = await check(env, ['--min-free', '0', '--cert', certs.soon]);
    expect(soon.code).toBe(1);
    expect(soon.out).toMatch(/^FAIL tls-certificate: .*valid (9|10) more days.*needs more than 30/m);
    const both = await check(env, ['--min-free', '0.999999', '--cert', certs.expired, '--json']);
    expect(both.code).toBe(2);
    const json = JSON.parse(both.out) as { failed: number; checks: { name: string; ok: boolean }[] };
    expect(json.failed).toBe(2);
    expect(json.checks.map((c) => [c.name, c.ok])).toEqual([
      ['disk', false],
      ['failed-jobs', true],
      ['tls-certificate', false],
      ['backup', true],
    ]);
  });

  it('reads the certificate from a live handshake', async () => {
    const server: Server = createServer({
      cert: await readFile(certs.expired),
      key: await readFile(join(dir, 'expired', 'key.pem')),
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    try {
      const r = await check(env, ['--min-free', '0', '--tls-host', `127.0.0.1:${port}`]);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(new RegExp(`^FAIL tls-certificate: 127\\.0\\.0\\.1:${port}: expired on`, 'm'));
    } finally {
      server.close();
    }
  });

  it('counts real failed BullMQ jobs: 10 failed is a failure', async () => {
    const prefix = testQueuePrefix();
    const connection = { host: '127.0.0.1', port: 6379 };
    const queue = new Queue('transcode', { connection, prefix });
    const worker = new Worker(
      'transcode',
      () => Promise.reject(new Error('synthetic failure for ops check')),
      { connection, prefix, concurrency: 10 },
    );
    let failed = 0;
    const allFailed = new Promise<void>((resolve) =>
      worker.on('failed', () => {
        if (++failed === 10) resolve();
      }),
    );
    try {
      await queue.addBulk(
        Array.from({ length: 10 }, (_, i) => ({ name: 't', data: { i }, opts: { attempts: 1 } })),
      );
      await allFailed;
      const r = await check({ ...env, QUEUE_PREFIX: prefix }, ['--min-free', '0', '--cert', certs.valid]);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/^FAIL failed-jobs: 10 failed jobs \(transcode 10\) \(needs fewer than 10\)$/m);
    } finally {
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });

  it('reports a check it cannot run as failed, with the reason', async () => {
    const r = await check({ ...env, CACHE_URL: 'redis://127.0.0.1:1' }, [
      '--min-free',
      '0',
      '--cert',
      certs.valid,
    ]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^FAIL failed-jobs: could not check: /m);
    const bad = await check(env, ['--min-free', '2']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--min-free is a ratio below 1/);
  });
});

describe('ops init-buckets', () => {
  it('creates the four buckets on an S3-protocol server, idempotently', async () => {
    const bucketPrefix = `init-${Date.now().toString(36)}-`;
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: testDatabaseUrl(),
      OBJECT_STORE_ENDPOINT: process.env.TEST_S3_ENDPOINT!,
      OBJECT_STORE_ROOT_USER: process.env.TEST_S3_ACCESS_KEY!,
      OBJECT_STORE_ROOT_PASSWORD: process.env.TEST_S3_SECRET_KEY!,
      OBJECT_STORE_BUCKET_PREFIX: bucketPrefix,
    };
    for (let run = 0; run < 2; run++) {
      const out: string[] = [];
      const io: OpsIo = { env, out: (t) => out.push(t), err: (t) => out.push(t), now: () => new Date() };
      expect(await runOps(['init-buckets'], io), out.join('')).toBe(0);
      expect(out.join('')).toBe('object stores ready (s3): originals, transcodes, images, waveforms\n');
    }
    const listing = await fetch(`${process.env.TEST_S3_ENDPOINT}/`).then((r) => r.text());
    for (const name of ['originals', 'transcodes', 'images', 'waveforms'])
      expect(listing).toContain(`<Name>${bucketPrefix}${name}</Name>`);
  });
});

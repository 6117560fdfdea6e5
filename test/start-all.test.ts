/**
 * `make start` (scripts/start-all.sh, run on the built dist) on free ports and a fresh database:
 * it creates and migrates music's database and eval's open-bench ledger beside it, so the
 * leaderboard answers 200; its output is JSON lines when stdout is not a terminal, holds no
 * Prisma notice nor any secret made up for one run, and ends with a banner naming every URL
 * once everything answers.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, testKeyPrefix, testQueuePrefix, uniqueSuffix } from './helpers/music-env.js';
import { databaseUrlOf, withPostgres } from './helpers/postgres.js';
import { freePort } from './helpers/free-port.js';

const ROOT = path.join(import.meta.dirname, '..');

const admin = <T>(fn: (c: pg.Client) => Promise<T>): Promise<T> =>
  withPostgres(databaseUrlOf(testDatabaseUrl(), 'postgres'), fn);

describe('make start (scripts/start-all.sh)', () => {
  const name = `start_${uniqueSuffix()}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'start-all-'));
  const lines: string[] = [];
  let exited: Promise<number | null>;
  let stop: () => void = () => undefined;
  let ports: number[];

  beforeAll(async () => {
    ports = [await freePort(), await freePort(), await freePort()];
    await admin((c) => c.query(`CREATE DATABASE "${name}"`));
    const child = spawn('bash', ['scripts/start-all.sh'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: databaseUrlOf(testDatabaseUrl(), name),
        EVAL_PORT: String(ports[0]),
        MUSIC_PORT: String(ports[1]),
        WORKER_PORT: String(ports[2]),
        DATA_DIR: dataDir,
        MUSIC_CACHE_KEY_PREFIX: testKeyPrefix(),
        QUEUE_PREFIX: testQueuePrefix(),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    stop = () => child.kill('SIGTERM');
    await new Promise<void>((resolve, reject) => {
      const onLine = (line: string): void => {
        lines.push(line);
        if (line.includes('Everything is up.')) resolve();
      };
      createInterface({ input: child.stdout }).on('line', onLine);
      createInterface({ input: child.stderr }).on('line', onLine);
      void exited.then((code) => reject(new Error(`start-all exited (${code}):\n${lines.join('\n')}`)));
    });
  }, 120_000);

  afterAll(async () => {
    stop();
    await exited;
    await admin(async (c) => {
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.query(`DROP DATABASE IF EXISTS "${name}_open_bench" WITH (FORCE)`);
    });
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('gives eval its open-bench ledger: the leaderboard answers 200', async () => {
    const res = await fetch(`http://127.0.0.1:${ports[0]}/api/open-bench/leaderboard`);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ total: 0, entries: [] });
    const ledger = await admin((c) =>
      c.query('SELECT 1 FROM pg_database WHERE datname = $1', [`${name}_open_bench`]),
    );
    expect(ledger.rowCount).toBe(1);
  });

  it('prints a banner with every URL once all is up, JSON logs off a terminal, no Prisma notice', () => {
    const text = lines.join('\n');
    for (const url of [
      `http://localhost:${ports[0]}/`,
      `http://localhost:${ports[0]}/for-agents`,
      `http://localhost:${ports[1]}/`,
      `http://localhost:${ports[2]}/health`,
    ])
      expect(text).toContain(url);
    expect(text).toContain('bin/verifier-music admin create');
    expect(text).not.toMatch(/WARNING|will NOT be used/);
    // Development secrets come from DATA_DIR, made once, readable by the owner only.
    expect(text).not.toMatch(/random secret for this run only/);
    const secrets = path.join(dataDir, 'dev-secrets.env');
    expect(statSync(secrets).mode & 0o777).toBe(0o600);
    expect(readFileSync(secrets, 'utf8')).toMatch(/^JWT_SECRET=[\w-]{64}$/m);
    const logLines = lines.filter((l) => l.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(0);
    for (const l of logLines) expect(() => JSON.parse(l) as unknown).not.toThrow();
    expect(lines.filter((l) => /^migrate: database \w+ is up to date/.test(l))).toHaveLength(2);
  });
});

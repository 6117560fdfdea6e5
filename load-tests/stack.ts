/**
 * `make load`'s own stack, when no EVAL_URL or MUSIC_URL names one: eval, music-api and
 * music-worker from dist/ on free loopback ports, with the settings the scenarios need
 * (RATE_LIMITS=on; TRUSTED_PROXIES=127.0.0.1, so each iteration is a fresh client), a database
 * of their own (created, migrated, dropped after), fresh Redis prefixes (deleted after) and a
 * track of their own (uploaded, transcoded by the worker, ready to stream). It runs beside any
 * `make start` on the same machine without touching it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { databaseUrlOf, withPostgres } from '../test/helpers/postgres.js';
import { noiseWav, uploadAsTrack } from './scenarios/upload-burst.js';
import { freePort } from '../test/helpers/free-port.js';

const ROOT = path.join(import.meta.dirname, '..');

interface OwnStack {
  evalUrl: string;
  musicUrl: string;
  trackIds: string[];
  stop: () => Promise<void>;
}

interface Started {
  name: string;
  child: ChildProcess;
  output: string[];
}

function start(name: string, args: string[], env: NodeJS.ProcessEnv): Started {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return { name, child, output };
}

function exited(p: Started): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => p.child.once('exit', () => resolve()));
}

async function waitUntil<T>(what: string, seconds: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} after ${seconds} s`);
    await sleep(250);
  }
}

const answers = async (url: string): Promise<true | undefined> =>
  (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok ? true : undefined;

/** A track with a ready version: uploaded as a new account, added, transcoded by the worker. */
async function ownTrack(musicUrl: string): Promise<string> {
  const { trackId: id, headers } = await uploadAsTrack(
    musicUrl,
    '10.255.0.1',
    noiseWav(2, 44_100),
    'Load test track',
  );
  await waitUntil('the load track has no ready version', 180, async () => {
    const track = (await (await fetch(`${musicUrl}/api/v1/tracks/${id}`, { headers })).json()) as {
      current_version?: { hls_url?: string | null };
    };
    return track.current_version?.hls_url ? true : undefined;
  });
  return id;
}

export async function startOwnStack(log: (line: string) => void): Promise<OwnStack> {
  for (const entry of ['eval', 'music-api', 'music-worker'])
    if (!existsSync(path.join(ROOT, 'dist', 'src', 'main', `${entry}.js`)))
      throw new Error('dist/ is not built: run make load (it builds first), or make build');
  const id = `load_${randomBytes(4).toString('hex')}`;
  const server = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/music';
  const maintenance = databaseUrlOf(server, 'postgres');
  const redisUrl = process.env.CACHE_URL || 'redis://127.0.0.1:6379';
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'load-stack-'));
  const [evalPort, musicPort, workerPort] = [await freePort(), await freePort(), await freePort()];
  const secret = () => randomBytes(48).toString('base64');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrlOf(server, id),
    CACHE_URL: redisUrl,
    RATE_LIMITS: 'on',
    TRUSTED_PROXIES: '127.0.0.1',
    EVAL_HOST: '127.0.0.1',
    MUSIC_HOST: '127.0.0.1',
    EVAL_PORT: String(evalPort),
    MUSIC_PORT: String(musicPort),
    WORKER_PORT: String(workerPort),
    CACHE_KEY_PREFIX: `${id}:eval:`,
    MUSIC_CACHE_KEY_PREFIX: `${id}:music:`,
    QUEUE_PREFIX: id,
    VERIFY_QUEUE_PREFIX: id,
    JWT_SECRET: secret(),
    SECURE_LINK_SECRET: secret(),
    IP_HASH_SALT: secret(),
    CLIENT_KEY_SECRET: secret(),
  };
  const processes: Started[] = [];
  let created = false;
  const stop = async () => {
    for (const p of processes) p.child.kill('SIGTERM');
    await Promise.all(processes.map(exited));
    if (created)
      await withPostgres(maintenance, (c) => c.query(`DROP DATABASE IF EXISTS "${id}" WITH (FORCE)`)).catch(
        (err: Error) => log(`load: could not drop the database ${id}: ${err.message}\n`),
      );
    const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      for (const pattern of [`${id}:*`, `${id}*`]) {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
          if (keys.length) await redis.unlink(...keys);
          cursor = next;
        } while (cursor !== '0');
      }
    } catch (err) {
      log(`load: could not delete the Redis keys ${id}*: ${(err as Error).message}\n`);
    } finally {
      redis.disconnect();
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    log(`load: starting its own stack (database ${id}, ports ${evalPort}, ${musicPort}, ${workerPort})\n`);
    await withPostgres(maintenance, (c) => c.query(`CREATE DATABASE "${id}"`));
    created = true;
    const migrate = start('migrate', ['scripts/migrate.mjs'], env);
    await exited(migrate);
    if (migrate.child.exitCode !== 0) throw new Error(`migrating ${id} failed:\n${migrate.output.join('')}`);
    processes.push(
      start('eval', ['dist/src/main/eval.js'], env),
      start('music-api', ['dist/src/main/music-api.js'], env),
      start('music-worker', ['dist/src/main/music-worker.js'], env),
    );
    const evalUrl = `http://127.0.0.1:${evalPort}`;
    const musicUrl = `http://127.0.0.1:${musicPort}`;
    let starting = true;
    const dead = Promise.race(processes.map((p) => exited(p).then(() => p))).then((p) => {
      if (starting) throw new Error(`${p.name} exited while starting:\n${p.output.join('').slice(-2000)}`);
    });
    dead.catch(() => undefined);
    const ready = Promise.all([
      waitUntil('eval is not answering', 120, () => answers(`${evalUrl}/api/health`)),
      waitUntil('music-api is not ready', 120, () => answers(`${musicUrl}/api/v1/health/ready`)),
      waitUntil('music-worker is not answering', 120, () => answers(`http://127.0.0.1:${workerPort}/health`)),
    ]).then(() => ownTrack(musicUrl));
    ready.catch(() => undefined);
    const trackId = (await Promise.race([ready, dead])) as string;
    starting = false;
    log(`load: own stack up, track ${trackId} ready\n`);
    return { evalUrl, musicUrl, trackIds: [trackId], stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

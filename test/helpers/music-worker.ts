/**
 * Helpers for the media pipeline tests: generated audio (nothing downloaded), the rows of a
 * version created directly through Prisma, and the music-worker started as a real process.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { MusicConfig } from '../../src/music/config.js';
import type { MediaJobData } from '../../src/music/jobs/queues.js';
import type { MusicConnections } from '../../src/music/connections.js';
import { TEST_JWT_SECRET, TEST_SECURE_LINK_SECRET, type MusicTestApp } from './music-app.js';
import { PASSWORD, signupUser } from './music-domain.js';

export const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

/**
 * A stereo 1 kHz sine at -20 dBFS (amplitude 0.1) for `sineSeconds`, then silence up to
 * `seconds`, optionally with an attached 800x600 cover picture.
 */
export async function generateAudio(
  path: string,
  options: { seconds: number; sineSeconds?: number; cover?: boolean; codec?: string; channels?: 1 | 2 },
): Promise<void> {
  const sine = options.sineSeconds ?? options.seconds;
  const expr = `if(lt(t,${sine}),0.1*sin(2*PI*1000*t),0)`;
  const channels = options.channels ?? 2;
  const args = [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `aevalsrc='${Array(channels).fill(expr).join('|')}':s=44100:d=${options.seconds}`,
  ];
  if (options.cover) args.push('-f', 'lavfi', '-i', 'color=c=blue:s=800x600:d=1');
  args.push('-map', '0:a');
  if (options.cover)
    args.push('-map', '1:v', '-frames:v', '1', '-c:v', 'mjpeg', '-disposition:v', 'attached_pic');
  args.push('-c:a', options.codec ?? 'flac', path);
  await run('ffmpeg', args);
}

/** A user, a track, an uploaded asset and a pending version, inserted directly. */
export async function createVersionRows(
  resources: MusicConnections,
  sourceKey: string,
): Promise<MediaJobData> {
  const suffix = randomUUID().slice(0, 8);
  const prisma = resources.prisma;
  const user = await prisma.user.create({
    data: {
      handle: `u_${suffix}`,
      email: `u_${suffix}@example.org`,
      passwordHash: 'x',
      displayName: 'Pipeline test',
    },
  });
  const track = await prisma.track.create({ data: { title: 'Sine', ownerUserId: user.id } });
  const asset = await prisma.asset.create({
    data: {
      ownerUserId: user.id,
      objectKey: sourceKey,
      filename: 'sine.flac',
      contentType: 'audio/flac',
      size: 1n,
      status: 'uploaded',
    },
  });
  const version = await prisma.trackVersion.create({
    data: { trackId: track.id, number: 1, assetId: asset.id },
  });
  return { versionId: version.id, trackId: track.id, assetId: asset.id, sourceKey };
}

/** A new account with `role`, logged in again after the change so its token carries the role. */
export async function tokenWithRole(t: MusicTestApp, role: 'user' | 'admin'): Promise<string> {
  const user = await signupUser(t.app, role);
  await t.connections.prisma.user.update({ where: { id: user.id }, data: { role } });
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { login: user.handle, password: PASSWORD },
  });
  return login.json<{ token: string }>().token;
}

export interface WorkerProcess {
  child: ChildProcess;
  port: number;
  /** Resolves with the exit code (or signal name) when the process ends. */
  exited: Promise<number | string>;
  /** Every log line seen so far. */
  lines: string[];
  /** The next log line (from now on) that matches. */
  nextLine: (match: (line: string) => boolean) => Promise<string>;
}

/** Starts src/main/music-worker.ts (through tsx) against the test app's database, Redis and data dir. */
export async function startWorkerProcess(
  config: MusicConfig,
  env: Record<string, string> = {},
): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'main', 'music-worker.ts')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: config.databaseUrl,
      CACHE_URL: config.cacheUrl,
      QUEUE_PREFIX: config.queuePrefix,
      DATA_DIR: config.dataDir,
      JWT_SECRET: TEST_JWT_SECRET,
      SECURE_LINK_SECRET: TEST_SECURE_LINK_SECRET,
      IP_HASH_SALT: 'test-ip-hash-salt-0123456789',
      WORKER_PORT: '0',
      WORKER_HOST: '127.0.0.1',
      WORKER_SCHEDULES: 'off',
      // The test machine is shared: a niced ffmpeg would starve behind other work.
      FFMPEG_NICENESS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const lines: string[] = [];
  const watchers = new Set<(line: string) => void>();
  const port = await new Promise<number>((resolve, reject) => {
    const onLine = (line: string): void => {
      lines.push(line);
      for (const w of watchers) w(line);
      if (!line.includes('music-worker listening')) return;
      resolve((JSON.parse(line) as { port: number }).port);
    };
    createInterface({ input: child.stdout }).on('line', onLine);
    createInterface({ input: child.stderr }).on('line', onLine);
    void exited.then((code) =>
      reject(new Error(`music-worker exited (${code}) before listening:\n${lines.join('\n')}`)),
    );
  });
  const nextLine = (match: (line: string) => boolean): Promise<string> =>
    new Promise((resolve) => {
      const watcher = (line: string): void => {
        if (!match(line)) return;
        watchers.delete(watcher);
        resolve(line);
      };
      watchers.add(watcher);
    });
  return { child, port, exited, lines, nextLine };
}

/** SIGTERM (or the given signal) and the exit code. */
export async function stopWorkerProcess(
  worker: WorkerProcess,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<number | string> {
  if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill(signal);
  return worker.exited;
}

export { once };

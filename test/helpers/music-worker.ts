/**
 * Helpers for the media pipeline tests: generated audio (nothing downloaded), the rows of a
 * version created directly through Prisma, and the music-worker started as a real process.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { promisify } from 'node:util';
import type { MusicConfig } from '../../src/music/config.js';
import type { MediaJobData } from '../../src/music/jobs/queues.js';
import type { MusicConnections } from '../../src/music/connections.js';
import { startLoggedProcess, stopLoggedProcess, type LoggedProcess } from './logged-process.js';
import { TEST_JWT_SECRET, TEST_SECURE_LINK_SECRET } from './music-app.js';

export const run = promisify(execFile);

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

export interface WorkerProcess extends LoggedProcess {
  port: number;
}

/** Starts src/main/music-worker.ts (through tsx) against the test app's database, Redis and data dir. */
export async function startWorkerProcess(
  config: MusicConfig,
  env: Record<string, string> = {},
): Promise<WorkerProcess> {
  const p = await startLoggedProcess(
    'music-worker',
    {
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
    (line) => line.includes('music-worker listening'),
  );
  return { ...p, port: (JSON.parse(p.readyLine) as { port: number }).port };
}

/** SIGTERM (or the given signal) and the exit code. */
export const stopWorkerProcess = stopLoggedProcess;

export { once };

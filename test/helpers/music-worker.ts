/**
 * Helpers for the media pipeline tests: generated audio (nothing downloaded), the rows of a
 * version created directly through Prisma, and the music-worker started as a real process.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { setTimeout } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { MusicConfig } from '../../src/music/config.js';
import type { MediaJobData } from '../../src/music/jobs/queues.js';
import type { MusicConnections } from '../../src/music/repositories/connections.js';
import { openFlowEvents, type FlowEvents } from './flow-events.js';
import { startLoggedProcess, stopLoggedProcess, type LoggedProcess } from './logged-process.js';
import {
  createMusicTestApp,
  TEST_JWT_SECRET,
  TEST_SECURE_LINK_SECRET,
  type MusicTestApp,
} from './music-app.js';
import { PASSWORD, signupUser, type TestUser } from './music-domain.js';

export { generateAudio, run } from './generated-audio.js';

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
      // Live events go under the test's own key prefix, where its API instances follow them.
      MUSIC_CACHE_KEY_PREFIX: config.cacheKeyPrefix,
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

/** The worker processes one test file starts; whatever is still running is killed by stopAll. */
export class WorkerFleet {
  private readonly running = new Set<WorkerProcess>();

  constructor(
    private readonly config: MusicConfig,
    /** Environment every worker of this fleet gets (each launch may add more). */
    private readonly env: Record<string, string> = {},
  ) {}

  async launch(env: Record<string, string> = {}): Promise<WorkerProcess> {
    const w = await startWorkerProcess(this.config, { ...this.env, ...env });
    this.running.add(w);
    return w;
  }

  /** Sends the signal and resolves with the exit code or signal name. */
  stop(w: WorkerProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | string> {
    this.running.delete(w);
    return stopWorkerProcess(w, signal);
  }

  /** Stops every worker still running; their exit codes (or signal names). */
  stopAll(signal: NodeJS.Signals = 'SIGTERM'): Promise<(number | string)[]> {
    return Promise.all([...this.running].map((w) => this.stop(w, signal)));
  }
}

export interface PipelineApp {
  t: MusicTestApp;
  /** http://127.0.0.1:<port> of the listening app. */
  base: string;
  flow: FlowEvents;
  worker: WorkerProcess;
}

/** A test app listening on a free port, the flow's events, and one music-worker process. */
export async function startPipelineApp(
  env: Record<string, string> = { RATE_LIMITS: 'off' },
  workerEnv: Record<string, string> = {},
): Promise<PipelineApp> {
  const t = await createMusicTestApp(env);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const flow = await openFlowEvents(t.config);
  const worker = await startWorkerProcess(t.config, workerEnv);
  return { t, base, flow, worker };
}

/**
 * A track of an uploaded asset, made through the API; resolves with its id once the pipeline made
 * the version ready (the finalize job completing, or the track already saying so when it finished first).
 */
export async function readyTrack(
  t: MusicTestApp,
  flow: FlowEvents,
  who: TestUser,
  assetId: string,
  track: { title: string; visibility: string },
): Promise<string> {
  const send = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const created = await send('POST', '/api/v1/tracks', track);
  expect(created.statusCode, created.body).toBe(201);
  const trackId = created.json().id as string;
  const added = await send('POST', `/api/v1/tracks/${trackId}/versions`, { asset_id: assetId });
  expect(added.statusCode, added.body).toBe(202);
  await new Promise<void>((resolve, reject) => {
    flow.finalized(added.json().id as string).then(resolve, reject);
    void send('GET', `/api/v1/tracks/${trackId}`).then((r) => {
      if (r.json().current_version?.status === 'ready') resolve();
    });
  });
  return trackId;
}

/**
 * POST /api/v1/admin/jobs/retry as an operator's client sends it: a 503 (Redis not answering in
 * time, e.g. a starved machine) is sent again after its Retry-After, a few times.
 */
export async function retryFailedJobs(
  t: MusicTestApp,
  token: string,
  payload: { queue: string; limit: number },
): Promise<LightMyRequestResponse> {
  for (let attempt = 1; ; attempt++) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/jobs/retry',
      payload,
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.statusCode !== 503 || attempt === 5) return res;
    await setTimeout(Number(res.headers['retry-after']) * 1000);
  }
}

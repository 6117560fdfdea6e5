/**
 * Builds a real music-api app for a test: the run's PostgreSQL database, real Redis with a key
 * prefix unique to the test, a filesystem object store in a temporary folder (or s3rver), and
 * fixed secrets so the test can sign and verify independently.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { buildMusicApp, type MusicAppOptions } from '../../src/music/app.js';
import { loadMusicConfig, type MusicConfig } from '../../src/music/config.js';
import { ensureObjectStores } from '../../src/music/repositories/object-store/index.js';
import type { ObjectStore } from '../../src/music/repositories/object-store/object-store.js';
import { createMusicConnections, type MusicConnections } from '../../src/music/repositories/connections.js';
import { testDatabaseUrl, testKeyPrefix, testQueuePrefix } from './music-env.js';

export const TEST_SECURE_LINK_SECRET = 'test-secure-link-secret-0123456789';
export const TEST_CLIENT_KEY_SECRET = 'test-client-key-secret-0123456789abcdef';
export const TEST_JWT_SECRET = 'test-jwt-secret-0123456789abcdefghijklmnop';

export interface MusicTestApp {
  app: FastifyInstance;
  config: MusicConfig;
  connections: MusicConnections;
  dataDir: string;
  close(): Promise<void>;
}

export async function createMusicTestApp(
  env: Record<string, string> = {},
  options: MusicAppOptions & { dataDir?: string; keyPrefix?: string } = {},
): Promise<MusicTestApp> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'music-data-')));
  const config = loadMusicConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: testDatabaseUrl(),
    CACHE_URL: process.env.TEST_CACHE_URL ?? 'redis://127.0.0.1:6379',
    MUSIC_CACHE_KEY_PREFIX: options.keyPrefix ?? testKeyPrefix(),
    QUEUE_PREFIX: testQueuePrefix(),
    DATA_DIR: dataDir,
    JWT_SECRET: TEST_JWT_SECRET,
    SECURE_LINK_SECRET: TEST_SECURE_LINK_SECRET,
    IP_HASH_SALT: 'test-ip-hash-salt-0123456789',
    CLIENT_KEY_SECRET: TEST_CLIENT_KEY_SECRET,
    // The test machine is shared: a niced ffmpeg would starve behind other work.
    FFMPEG_NICENESS: '0',
    ...env,
  });
  const connections = createMusicConnections(config);
  await ensureObjectStores(connections.stores);
  const app = buildMusicApp(config, connections, options);
  await app.ready();
  return {
    app,
    config,
    connections,
    dataDir,
    close: async () => {
      await app.close();
      await connections.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const run = promisify(execFile);

/**
 * Real HLS output from ffmpeg (two AAC renditions, fMP4 segments, VOD playlists and a master
 * playlist) uploaded to the transcodes store under `<versionId>/`. Returns the version id.
 */
export async function publishTestHls(store: ObjectStore, versionId = randomUUID()): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hls-'));
  try {
    await run(
      'ffmpeg',
      [
        ...['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=9'],
        ...['-filter_complex', '[0:a]asplit=2[a1][a2]', '-map', '[a1]', '-map', '[a2]'],
        ...['-c:a', 'aac', '-b:a:0', '64k', '-b:a:1', '128k', '-ac', '2'],
        ...['-f', 'hls', '-hls_time', '4', '-hls_playlist_type', 'vod', '-hls_segment_type', 'fmp4'],
        ...[
          '-hls_segment_filename',
          'r%v/seg%d.m4s',
          '-master_pl_name',
          'master.m3u8',
          '-var_stream_map',
          'a:0 a:1',
        ],
        'r%v/index.m3u8',
      ],
      { cwd: dir },
    );
    for (const file of await listFiles(dir)) {
      await store.put(`${versionId}/${relative(dir, file).split(sep).join('/')}`, await readFile(file));
    }
    return versionId;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(full)));
    else out.push(full);
  }
  return out;
}

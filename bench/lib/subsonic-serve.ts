/**
 * The Subsonic bench's child process: a fresh database seeded with `size` ready songs (generated
 * tags, batches through the Prisma client), the real music-api app listening; prints Served.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Session } from 'node:inspector/promises';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { buildMusicApp } from '../../src/music/app.js';
import { loadMusicConfig } from '../../src/music/config.js';
import { createMusicConnections } from '../../src/music/repositories/connections.js';
import { ensureObjectStores } from '../../src/music/repositories/object-store/index.js';
import { PrismaUserRepository } from '../../src/music/repositories/user-repository.js';
import { ClientKeyCrypto } from '../../src/music/subsonic/client-key-crypto.js';
import { ClientKeyRepository } from '../../src/music/repositories/client-key-repository.js';
import { ClientKeyService } from '../../src/music/subsonic/client-key-service.js';

// The bench's settings (environment) and what its parts share.
export const run = promisify(execFile);
export const ROOT = join(import.meta.dirname, '..', '..');
export const ADMIN_URL = process.env.DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const SIZES = (process.env.BENCH_SUBSONIC_SIZES ?? '10000,100000').split(',').map(Number);
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const CONNECTIONS = 10;
// BENCH_SUBSONIC_ENDPOINTS=search3,getAlbum runs only those; BENCH_SUBSONIC_SUPYSONIC=off skips the peer.
export const ENDPOINTS = process.env.BENCH_SUBSONIC_ENDPOINTS?.split(',');
export const WITH_SUPYSONIC = process.env.BENCH_SUBSONIC_SUPYSONIC !== 'off';
export const BATCH = 2000;

export interface SongTags {
  title: string;
  artist: string;
  album: string;
  genre: string;
  track: number;
  year: number;
}

/** The i-th song of the generated library (same tags for both servers). */
export function songTags(i: number): SongTags {
  const album = Math.floor(i / 10);
  const artist = Math.floor(album / 10);
  return {
    title: `Song ${i} ${['amber', 'blue', 'cedar', 'dusk', 'ember'][i % 5]}`,
    artist: `Artist ${artist}`,
    album: `Album ${album}`,
    genre: `Genre ${album % 20}`,
    track: (i % 10) + 1,
    year: 1970 + (album % 50),
  };
}

export interface Served {
  base: string;
  query: string;
  albumId: string;
  /** The serving process (its CPU is read around each run). */
  pid: number;
  /** Its PostgreSQL database, whose backends' CPU counts too; none for supysonic (SQLite in process). */
  database?: string;
}

/** Child: a fresh database with `size` ready songs, the music app listening; prints Served. */
export async function serve(size: number): Promise<void> {
  const name = `subsonic_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'subsonic-bench-'));
  try {
    await run(join(ROOT, 'node_modules', '.bin', 'prisma'), ['migrate', 'deploy'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url.toString() },
    });
    const config = loadMusicConfig({
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      RATE_LIMITS: 'off',
      DATABASE_URL: url.toString(),
      MUSIC_CACHE_KEY_PREFIX: `bench:${randomBytes(4).toString('hex')}:`,
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('hex'),
      SECURE_LINK_SECRET: randomBytes(32).toString('hex'),
      IP_HASH_SALT: randomBytes(16).toString('hex'),
      CLIENT_KEY_SECRET: randomBytes(32).toString('hex'),
    });
    const connections = createMusicConnections(config);
    await ensureObjectStores(connections.stores);
    const prisma = connections.prisma;
    const user = await prisma.user.create({
      data: { handle: 'bench_user', email: 'bench@example.org', passwordHash: 'x', displayName: 'Bench' },
    });
    for (let start = 0; start < size; start += BATCH) {
      const n = Math.min(BATCH, size - start);
      const ids = Array.from({ length: n }, () => ({
        track: randomUUID(),
        asset: randomUUID(),
        version: randomUUID(),
      }));
      await prisma.track.createMany({
        data: ids.map((id, k) => ({ id: id.track, title: `Upload ${start + k}`, ownerUserId: user.id })),
      });
      await prisma.asset.createMany({
        data: ids.map((id) => ({
          id: id.asset,
          ownerUserId: user.id,
          objectKey: `${user.id}/${id.asset}`,
          filename: 'song.mp3',
          contentType: 'audio/mpeg',
          size: 4_000_000n,
          status: 'uploaded' as const,
        })),
      });
      await prisma.trackVersion.createMany({
        data: ids.map((id, k) => {
          const t = songTags(start + k);
          return {
            id: id.version,
            trackId: id.track,
            number: 1,
            assetId: id.asset,
            status: 'ready' as const,
            durationMs: 180_000,
            codec: 'mp3',
            bitRate: 320_000,
            channels: 2,
            sampleRate: 44_100,
            replayGain: -4.5,
            truePeak: -0.5,
            hlsKey: id.version,
            progressiveKey: `${id.version}/progressive.m4a`,
            tagTitle: t.title,
            tagArtist: t.artist,
            tagAlbum: t.album,
            tagGenre: t.genre,
            tagTrackNumber: t.track,
            tagYear: t.year,
          };
        }),
      });
    }
    await prisma.$executeRaw`UPDATE tracks t SET current_version_id = v.id FROM track_versions v WHERE v.track_id = t.id`;
    await prisma.$executeRaw`ANALYZE`;
    const app = buildMusicApp(config, connections);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const keys = new ClientKeyService(
      new ClientKeyRepository(prisma),
      new PrismaUserRepository(prisma),
      new ClientKeyCrypto(config.clientKeySecret),
    );
    const { key: apiKey } = await keys.create(
      { userId: user.id, handle: user.handle, role: user.role, jti: 'bench', exp: 0 },
      'bench',
    );
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/rest/`;
    const list = (await (
      await fetch(`${base}getAlbumList2?f=json&type=newest&size=1&apiKey=${apiKey}`)
    ).json()) as {
      'subsonic-response': { albumList2: { album: { id: string }[] } };
    };
    const served: Served = {
      base,
      query: `apiKey=${apiKey}&f=json`,
      albumId: list['subsonic-response'].albumList2.album[0]!.id,
      pid: process.pid,
      database: name,
    };
    // BENCH_SUBSONIC_PROFILE=<file>: the serving time's V8 CPU profile (seeding left out) is written there.
    const profileFile = process.env.BENCH_SUBSONIC_PROFILE;
    const session = profileFile ? new Session() : undefined;
    if (session) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    process.stdout.write(JSON.stringify(served) + '\n');
    process.stdin.resume();
    await once(process.stdin, 'end');
    if (session && profileFile) {
      const { profile } = await session.post('Profiler.stop');
      await writeFile(profileFile, JSON.stringify(profile));
    }
    await app.close();
    await connections.close();
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * OpenSubsonic API benchmark: getAlbumList2, search3, getArtists and getAlbum at 10
 * connections over a library of 10,000 and one of 100,000 songs (generated tags: 10 songs an
 * album, 10 albums an artist, 20 genres), beside Debian's supysonic (a Python Subsonic server)
 * answering the same requests over the same songs in the same run, where it is installed.
 *
 * Songs are seeded in batches through the Prisma client (users, tracks, assets, ready versions
 * with tags: the rows the pipeline would leave), then read through the real music-api app in a
 * child process (this file with --serve), so autocannon never shares its event loop.
 * supysonic needs files: each song is a copy of one tiny generated MP3 re-tagged with mutagen
 * (installed with supysonic), scanned by `supysonic-cli`; it runs for the smallest size only
 * (its scan of 100,000 files takes longer than the bench should).
 *
 *   npx tsx bench/subsonic.ts                 # 10000 and 100000
 *   BENCH_SUBSONIC_SIZES=2000 BENCH_SECONDS=3 npx tsx bench/subsonic.ts
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Session } from 'node:inspector/promises';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import pg from 'pg';
import { buildMusicApp } from '../src/music/app.js';
import { loadMusicConfig } from '../src/music/config.js';
import { createMusicConnections } from '../src/music/repositories/connections.js';
import { ensureObjectStores } from '../src/music/repositories/object-store/index.js';
import { PrismaUserRepository } from '../src/music/repositories/user-repository.js';
import { ClientKeyCrypto } from '../src/music/subsonic/client-key-crypto.js';
import { ClientKeyRepository } from '../src/music/subsonic/client-key-repository.js';
import { ClientKeyService } from '../src/music/subsonic/client-key-service.js';
import { generateAudio } from '../test/helpers/generated-audio.js';
import { load, ratio, type LoadResult } from './lib/autocannon.js';
import { processCpuMs } from './lib/process-cpu.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const ADMIN_URL = process.env.DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const SIZES = (process.env.BENCH_SUBSONIC_SIZES ?? '10000,100000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 10;
// BENCH_SUBSONIC_ENDPOINTS=search3,getAlbum runs only those; BENCH_SUBSONIC_SUPYSONIC=off skips the peer.
const ENDPOINTS = process.env.BENCH_SUBSONIC_ENDPOINTS?.split(',');
const WITH_SUPYSONIC = process.env.BENCH_SUBSONIC_SUPYSONIC !== 'off';
const BATCH = 2000;

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

interface Served {
  base: string;
  query: string;
  albumId: string;
  /** The serving process (its CPU is read around each run). */
  pid: number;
  /** Its PostgreSQL database, whose backends' CPU counts too; none for supysonic (SQLite in process). */
  database?: string;
}

/** Measured rows plus the PostgreSQL backends' CPU per request of each (NaN when not measured). */
interface Measured {
  rows: LoadResult[];
  dbCpuMsPerRequest: number[];
}

/** Child: a fresh database with `size` ready songs, the music app listening; prints Served. */
async function serve(size: number): Promise<void> {
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

/** Summed CPU of a database's backends (a backend gone since `before` is not counted). */
async function backendsCpu(admin: pg.Client | undefined, database: string | undefined) {
  if (!admin || database === undefined) return new Map<number, number>();
  const { rows } = await admin.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [database],
  );
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      out.set(pid, processCpuMs(pid));
    } catch {
      // gone between the listing and the read
    }
  }
  return out;
}

async function measure(label: string, s: Served): Promise<Measured> {
  const endpoints: [string, string][] = [
    ['getAlbumList2 newest', `getAlbumList2.view?type=newest&size=20&${s.query}`],
    ['search3 "blue"', `search3.view?query=blue&songCount=20&albumCount=20&artistCount=20&${s.query}`],
    ['getArtists', `getArtists.view?${s.query}`],
    ['getAlbum', `getAlbum.view?id=${encodeURIComponent(s.albumId)}&${s.query}`],
  ];
  const out: Measured = { rows: [], dbCpuMsPerRequest: [] };
  const admin = s.database === undefined ? undefined : new pg.Client({ connectionString: ADMIN_URL });
  await admin?.connect();
  try {
    for (const [name, path] of endpoints) {
      if (ENDPOINTS && !ENDPOINTS.includes(name.split(' ')[0]!)) continue;
      progress(`${label}: ${name} (${uptime()})`);
      const first = await fetch(s.base + path);
      const text = await first.text();
      if (first.status !== 200 || !text.includes('"ok"'))
        throw new Error(`${label} ${name}: ${first.status} ${text.slice(0, 200)}`);
      await load('warm-up', { url: s.base + path, connections: CONNECTIONS, durationSeconds: 1 });
      const before = await backendsCpu(admin, s.database);
      const row = await load(`${label}: ${name}`, {
        url: s.base + path,
        connections: CONNECTIONS,
        durationSeconds: SECONDS,
        cpuPid: s.pid,
      });
      const after = await backendsCpu(admin, s.database);
      let db = 0;
      for (const [pid, ms] of after) db += ms - (before.get(pid) ?? 0);
      out.rows.push(row);
      out.dbCpuMsPerRequest.push(admin && row.requests > 0 ? db / row.requests : NaN);
    }
  } finally {
    await admin?.end();
  }
  return out;
}

/** The load average, reported beside each run (the machine is shared). */
const uptime = (): string =>
  `load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;

const progress = (text: string): void => void process.stderr.write(`subsonic bench: ${text}\n`);

async function ours(size: number): Promise<Measured> {
  progress(`seeding ${size} songs`);
  const child = spawn(
    process.execPath,
    [...process.execArgv, import.meta.filename, '--serve', String(size)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  progress(`serving ${size} songs`);
  try {
    return await measure(`platform ${size}`, JSON.parse(line) as Served);
  } finally {
    const exited = once(child, 'exit');
    child.stdin.end();
    // The child drops its database on the way out; one that does not finish in 60 s is killed.
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    await exited;
    clearTimeout(timer);
  }
}

/** supysonic over the same songs, when the Debian package is installed; undefined otherwise. */
async function supysonic(size: number): Promise<Measured | string> {
  if (spawnSync('sh', ['-c', 'command -v supysonic-cli']).status !== 0)
    return 'supysonic is not installed (apt-get install -y supysonic): not measured';
  progress(`supysonic: writing ${size} tagged files`);
  const dir = await mkdtemp(join(tmpdir(), 'supysonic-bench-'));
  const music = join(dir, 'music');
  await mkdir(music);
  const template = join(dir, 'template.mp3');
  // 0.2 s of mono silence, 32 kb/s MP3.
  const silence = { seconds: 0.2, sineSeconds: 0, channels: 1, sampleRate: 22050 } as const;
  await generateAudio(template, { ...silence, codec: 'libmp3lame', bitRate: '32k' });
  const script = [
    'import shutil, sys, os',
    'from mutagen.easyid3 import EasyID3',
    'src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])',
    'words = ["amber", "blue", "cedar", "dusk", "ember"]',
    'for i in range(n):',
    '    album = i // 10; artist = album // 10',
    '    d = os.path.join(out, f"Artist {artist}", f"Album {album}")',
    '    os.makedirs(d, exist_ok=True)',
    '    f = os.path.join(d, f"{i}.mp3")',
    '    shutil.copyfile(src, f)',
    '    t = EasyID3()',
    '    t.update({"title": f"Song {i} {words[i % 5]}", "artist": f"Artist {artist}", "album": f"Album {album}", "genre": f"Genre {album % 20}", "tracknumber": str(i % 10 + 1), "date": str(1970 + album % 50)})',
    '    t.save(f)',
  ].join('\n');
  // Debian's python (supysonic's own mutagen), not whichever python3 is first on PATH.
  await run('/usr/bin/python3', ['-c', script, template, music, String(size)], { maxBuffer: 1 << 20 });
  const configFile = join(dir, 'supysonic.conf');
  await writeFile(
    configFile,
    `[base]\ndatabase_uri = sqlite:///${join(dir, 'supysonic.db')}\n[webapp]\ncache_dir = ${join(dir, 'cache')}\nlog_level = WARNING\n[daemon]\nsocket = ${join(dir, 'daemon.sock')}\n`,
  );
  // supysonic reads ./supysonic.conf (among fixed paths): every command runs in `dir`.
  const cli = (args: string[]) => run('supysonic-cli', args, { cwd: dir, maxBuffer: 16 << 20 });
  await cli(['user', 'add', 'bench', '-p', 'benchpass']);
  await cli(['folder', 'add', 'library', music]);
  progress('supysonic: scanning');
  await cli(['folder', 'scan', 'library']);
  progress('supysonic: serving');
  const port = 20000 + Math.floor(Math.random() * 20000);
  const server = spawn(
    'supysonic-server',
    ['-S', 'waitress', '--host', '127.0.0.1', '--port', String(port)],
    { cwd: dir, stdio: 'ignore' },
  );
  try {
    const base = `http://127.0.0.1:${port}/rest/`;
    const query = 'u=bench&p=benchpass&v=1.12.0&c=bench&f=json';
    for (let i = 0; i < 100; i++) {
      const ok = await fetch(`${base}ping.view?${query}`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 200)); // polling a server we started: no event tells us it listens
    }
    const list = (await (await fetch(`${base}getAlbumList2.view?type=newest&size=1&${query}`)).json()) as {
      'subsonic-response': { albumList2: { album: { id: string }[] } };
    };
    return await measure(`supysonic ${size}`, {
      base,
      query,
      albumId: list['subsonic-response'].albumList2.album[0]!.id,
      pid: server.pid ?? 0,
    });
  } finally {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = once(server, 'exit');
      server.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  }
}

/** Rows with the server's CPU and, for the platform, its PostgreSQL backends' CPU per request. */
function cpuTable(measured: Measured[]): string {
  const ms = (v: number): string => (Number.isNaN(v) ? '' : v.toFixed(3));
  const lines = [
    '| run | req/s | p50 ms | p99 ms | non-2xx | errors | server CPU ms / req | PostgreSQL CPU ms / req | total CPU ms / req |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const m of measured)
    m.rows.forEach((r, i) => {
      const db = m.dbCpuMsPerRequest[i] ?? NaN;
      const total = r.cpuMsPerRequest + (Number.isNaN(db) ? 0 : db);
      lines.push(
        `| ${r.label} | ${r.requestsPerSecond.toFixed(1)} | ${r.p50Ms} | ${r.p99Ms} | ${r.non2xx} | ${r.errors} | ${ms(r.cpuMsPerRequest)} | ${ms(db)} | ${ms(total)} |`,
      );
    });
  return lines.join('\n');
}

const totalCpu = (m: Measured, i: number): number =>
  (m.rows[i]?.cpuMsPerRequest ?? NaN) +
  (Number.isNaN(m.dbCpuMsPerRequest[i] ?? NaN) ? 0 : m.dbCpuMsPerRequest[i]!);

async function main(): Promise<void> {
  const sections: string[] = [];
  const bySize = new Map<number, Measured>();
  let theirs: Measured | string = 'not run (BENCH_SUBSONIC_SUPYSONIC=off)';
  const loadBefore = uptime();
  for (const size of SIZES) bySize.set(size, await ours(size));
  const smallest = Math.min(...SIZES);
  if (WITH_SUPYSONIC)
    try {
      theirs = await supysonic(smallest);
    } catch (err) {
      theirs = `supysonic failed: ${(err as Error).message.split('\n')[0]}`;
    }
  const all = [...bySize.values()];
  if (typeof theirs !== 'string') all.push(theirs);
  sections.push(
    '## subsonic',
    '',
    `autocannon ${CONNECTIONS} connections, ${SECONDS} s per endpoint; libraries of ${SIZES.join(' and ')} songs (10 songs an album, 10 albums an artist); apiKey auth, f=json. supysonic ${typeof theirs !== 'string' ? `over the same ${smallest} songs as MP3 files, u/p auth` : `: ${theirs}`}. ${loadBefore} at the start, ${uptime()} at the end (2 cores). CPU: the serving process from /proc, plus its PostgreSQL backends for the platform (supysonic's SQLite runs in its process).`,
    '',
    cpuTable(all),
    '',
  );
  const small = bySize.get(smallest);
  if (small && typeof theirs !== 'string') {
    sections.push(
      '| endpoint | platform / supysonic req/s (target ≥ 10) | platform p99 ms (target ≤ 25) | supysonic / platform total CPU per request |',
      '| --- | ---: | ---: | ---: |',
    );
    small.rows.forEach((r, i) => {
      const other = theirs.rows[i];
      sections.push(
        `| ${r.label.split(': ')[1]} | ${other ? ratio(r.requestsPerSecond, other.requestsPerSecond) : 'n/a'} | ${r.p99Ms} | ${other ? ratio(totalCpu(theirs, i), totalCpu(small, i)) : 'n/a'} |`,
      );
    });
    sections.push('');
  }
  const largest = Math.max(...SIZES);
  const big = bySize.get(largest);
  if (largest !== smallest && small && big) {
    sections.push(`p99 growth from ${smallest} to ${largest} songs:`, '');
    small.rows.forEach((r, i) => {
      const b = big.rows[i];
      if (b)
        sections.push(
          `- ${r.label.split(': ')[1]}: ${r.p99Ms} ms -> ${b.p99Ms} ms (x${ratio(b.p99Ms, Math.max(1, r.p99Ms))}); total CPU ${totalCpu(small, i).toFixed(3)} -> ${totalCpu(big, i).toFixed(3)} ms / request`,
        );
    });
    sections.push('');
  }
  const markdown = sections.join('\n');
  await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(join(ROOT, 'bench', 'results', 'subsonic.md'), markdown);
  process.stdout.write(markdown);
}

const serveAt = process.argv.indexOf('--serve');
if (serveAt !== -1) await serve(Number(process.argv[serveAt + 1]));
else await main();

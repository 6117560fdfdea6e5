/**
 * The music-api as the music benchmarks start it: a throw-away database (music-database.ts),
 * production config with fresh secrets and key/queue prefixes, connections with the object
 * stores made, the app built; and the child-process plumbing (a `--serve` child prints one JSON
 * line, serves until its stdin ends) so autocannon never shares the server's event loop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { FastifyInstance } from 'fastify';
import { buildMusicApp, type MusicAppOptions } from '../../src/music/app.js';
import { loadMusicConfig, type MusicConfig } from '../../src/music/config.js';
import { createMusicConnections, type MusicConnections } from '../../src/music/repositories/connections.js';
import { ensureObjectStores } from '../../src/music/repositories/object-store/index.js';
import { withBenchDatabase } from './music-database.js';

const ROOT = join(import.meta.dirname, '..', '..');

export interface BenchMusic {
  config: Readonly<MusicConfig>;
  connections: MusicConnections;
  app: FastifyInstance;
}

/** Production settings, silent, rate limits off, fresh secrets and prefixes; `env` overrides. */
export function benchMusicConfig(
  databaseUrl: string,
  dataDir: string,
  env: NodeJS.ProcessEnv = {},
): Readonly<MusicConfig> {
  const run = randomBytes(4).toString('hex');
  return loadMusicConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    RATE_LIMITS: 'off',
    DATABASE_URL: databaseUrl,
    MUSIC_CACHE_KEY_PREFIX: `bench:${run}:`,
    QUEUE_PREFIX: `bench-${run}`,
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    SECURE_LINK_SECRET: randomBytes(32).toString('hex'),
    IP_HASH_SALT: randomBytes(16).toString('hex'),
    CLIENT_KEY_SECRET: randomBytes(32).toString('hex'),
    ...env,
  });
}

/** The config's connections, with every object store's directory or bucket made. */
export async function benchMusicConnections(config: Readonly<MusicConfig>): Promise<MusicConnections> {
  const connections = createMusicConnections(config);
  await ensureObjectStores(connections.stores);
  return connections;
}

/** A music app on a fresh database for the length of `fn`; closed (and the database dropped) after. */
export async function withBenchMusic<T>(
  dataDir: string,
  fn: (music: BenchMusic) => Promise<T>,
  options: { env?: NodeJS.ProcessEnv; app?: MusicAppOptions } = {},
): Promise<T> {
  return withBenchDatabase(async (databaseUrl) => {
    const config = benchMusicConfig(databaseUrl, dataDir, options.env);
    const connections = await benchMusicConnections(config);
    const app = buildMusicApp(config, connections, options.app);
    try {
      return await fn({ config, connections, app });
    } finally {
      await app.close();
      await connections.close();
    }
  });
}

/** Listens on a free loopback port; returns the base URL. */
export async function listenLocal(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** Child side: hands `served` to the parent (one JSON line), then serves until stdin ends. */
export async function serveUntilParentEnds(served: unknown): Promise<void> {
  process.stdout.write(JSON.stringify(served) + '\n');
  process.stdin.resume();
  await once(process.stdin, 'end');
}

export interface ServeChild<T> {
  served: T;
  process: ChildProcess;
  /** The next line the child prints (after the first); throws when it has ended. */
  nextLine: () => Promise<string>;
  /** Writes one line to the child's stdin. */
  sendLine: (line: string) => void;
  /** Ends the child's stdin and waits for it to exit. */
  stop: () => Promise<void>;
}

/** Parent side: runs `file --serve` (same node flags) and reads the JSON line it prints first. */
export async function startServeChild<T>(file: string, env: NodeJS.ProcessEnv = {}): Promise<ServeChild<T>> {
  const child = spawn(process.execPath, [...process.execArgv, file, '--serve'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const nextLine = async (): Promise<string> => {
    const r = await lines.next();
    if (r.done) throw new Error(`${file} --serve ended (exit code ${String(child.exitCode)})`);
    return r.value;
  };
  return {
    served: JSON.parse(await nextLine()) as T,
    process: child,
    nextLine,
    sendLine: (line) => child.stdin.write(`${line}\n`),
    stop: async () => {
      child.stdin.end();
      if (child.exitCode === null && child.signalCode === null) await exited;
    },
  };
}

/** Writes bench/results/<name>.md and prints it. */
export async function writeBenchResult(name: string, markdown: string): Promise<void> {
  await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(join(ROOT, 'bench', 'results', `${name}.md`), markdown);
  process.stdout.write(markdown);
}

/**
 * The built music-worker (as `make start-worker` runs it) on `config`'s database, Redis, prefixes,
 * secrets and data dir, niceness 0; resolves once it listens. `env` adds to or overrides that.
 */
export async function startBenchWorker(
  config: Readonly<MusicConfig>,
  env: NodeJS.ProcessEnv = {},
): Promise<{ process: ChildProcess; stop: () => Promise<void> }> {
  const entry = join(ROOT, 'dist', 'src', 'main', 'music-worker.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run node scripts/build.mjs first`);
  const worker = spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      DATABASE_URL: config.databaseUrl,
      CACHE_URL: config.cacheUrl,
      QUEUE_PREFIX: config.queuePrefix,
      MUSIC_CACHE_KEY_PREFIX: config.cacheKeyPrefix,
      DATA_DIR: config.dataDir,
      JWT_SECRET: config.jwt.secret,
      SECURE_LINK_SECRET: config.secureLink.secret,
      IP_HASH_SALT: config.ipHashSalt,
      CLIENT_KEY_SECRET: config.clientKeySecret,
      WORKER_PORT: '0',
      WORKER_SCHEDULES: 'off',
      FFMPEG_NICENESS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    worker.once('exit', (code) => reject(new Error(`music-worker exited (${String(code)})`)));
    createInterface({ input: worker.stdout }).on(
      'line',
      (l) => l.includes('music-worker listening') && resolve(),
    );
  });
  return {
    process: worker,
    stop: async () => {
      const exited = once(worker, 'exit');
      worker.kill('SIGTERM');
      await exited;
    },
  };
}

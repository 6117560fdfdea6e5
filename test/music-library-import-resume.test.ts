/**
 * `bin/verifier-music library import` killed with SIGKILL mid-import, then run again: it resumes
 * the same import, every file ends up imported exactly once, nothing half-made is left, and a
 * third run imports nothing.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMusicTestApp,
  TEST_JWT_SECRET,
  TEST_SECURE_LINK_SECRET,
  TEST_CLIENT_KEY_SECRET,
  type MusicTestApp,
} from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';
import { generateLibraryTree, type LibraryTree } from './helpers/library-tree.js';

const ROOT = join(import.meta.dirname, '..');

let t: MusicTestApp;
let tree: LibraryTree;
let root: string;
let dir: string;
let owner: TestUser;

function cli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'main', 'cli.ts'), ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: t.config.databaseUrl,
      CACHE_URL: t.config.cacheUrl,
      QUEUE_PREFIX: t.config.queuePrefix,
      MUSIC_CACHE_KEY_PREFIX: t.config.cacheKeyPrefix,
      DATA_DIR: t.config.dataDir,
      JWT_SECRET: TEST_JWT_SECRET,
      SECURE_LINK_SECRET: TEST_SECURE_LINK_SECRET,
      IP_HASH_SALT: 'test-ip-hash-salt-0123456789',
      CLIENT_KEY_SECRET: TEST_CLIENT_KEY_SECRET,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  return { child, exited, output: () => out };
}

beforeAll(async () => {
  t = await createMusicTestApp({ RATE_LIMITS: 'off' });
  dir = await mkdtemp(join(tmpdir(), 'library-resume-'));
  tree = await generateLibraryTree(join(dir, 'music'), { bulk: 180, bad: false });
  root = await realpath(tree.root);
  owner = await signupUser(t.app, 'res');
}, 300_000);

afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('library import CLI', () => {
  it('resumes after SIGKILL: every file once, nothing half-made; a re-run imports nothing', async () => {
    const prisma = t.connections.prisma;
    const first = cli(['library', 'import', root, '--owner', owner.handle]);
    // Killed once some files are recorded, well before the end.
    for (;;) {
      const n = await prisma.libraryFile.count({ where: { ownerUserId: owner.id } });
      if (n >= 30) break;
      if ((await Promise.race([first.exited, sleep(100).then(() => 'running')])) !== 'running')
        throw new Error(`the import ended before it could be killed:\n${first.output()}`);
    }
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    const atKill = await prisma.libraryFile.count({ where: { ownerUserId: owner.id } });
    expect(atKill).toBeLessThan(tree.good.length);

    const second = cli(['library', 'import', root, '--owner', owner.handle]);
    expect(await second.exited, second.output()).toBe(0);
    expect(second.output()).toContain('resuming import');
    const imports = await prisma.libraryImport.findMany({ where: { ownerUserId: owner.id } });
    expect(imports).toHaveLength(1);
    expect(imports[0]).toMatchObject({ status: 'done', imported: tree.good.length, failed: 0 });

    const tracks = await prisma.track.findMany({
      where: { ownerUserId: owner.id },
      include: { versions: true },
    });
    expect(tracks).toHaveLength(tree.good.length);
    expect(tracks.every((tr) => tr.versions.length === 1)).toBe(true);
    const assets = await prisma.asset.findMany({
      where: { ownerUserId: owner.id },
      include: { versions: true },
    });
    expect(new Set(assets.map((a) => a.sha256)).size).toBe(assets.length);
    expect(assets.every((a) => a.versions.length === 1)).toBe(true);
    const files = await prisma.libraryFile.findMany({ where: { ownerUserId: owner.id } });
    expect(files.map((f) => f.path).sort()).toEqual(tree.good.map((g) => g.path).sort());

    const third = cli(['library', 'import', root, '--owner', owner.handle]);
    expect(await third.exited, third.output()).toBe(0);
    expect(third.output()).toMatch(/imported 0, updated 0/);
    expect(await prisma.track.count({ where: { ownerUserId: owner.id } })).toBe(tree.good.length);
  }, 300_000);
});

/**
 * docker/Dockerfile: the build stage running what `make build` runs from the locked
 * dependencies, the migrate and runtime stages, the build context, and every entry point the
 * compose file starts present in that build's output.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compose, parseDockerfile, read, ROOT } from './helpers/compose.js';

describe('docker/Dockerfile', () => {
  const stages = parseDockerfile(read('docker/Dockerfile'));
  const build = stages.find((s) => s.name === 'build');
  const runtime = stages.at(-1)!;

  it('has a build, a migrate and a runtime stage on Node 24, pinned by digest', () => {
    expect(stages.map((s) => s.name)).toEqual(['build', 'migrate', 'runtime-deps', undefined]);
    for (const s of [stages[0]!, runtime]) expect(s.from).toMatch(/^node:24[-.\w]*@sha256:[0-9a-f]{64}$/);
    expect(stages[0]!.from).toBe(runtime.from);
    expect(stages[1]!.from).toBe('build');
  });

  it('migrates with the lockfile’s prisma CLI and prisma.config.ts, never one npx would fetch', () => {
    const migrate = stages.find((s) => s.name === 'migrate')!;
    const cmd = migrate.instructions.find((i) => i.keyword === 'CMD')!.args;
    expect(JSON.parse(cmd)).toEqual(['npx', '--no-install', 'prisma', 'migrate', 'deploy']);
    expect(compose.services.migrate!.command!.join(' ')).toMatch(
      /^sh -c npx --no-install prisma migrate deploy && /,
    );
    // The build stage holds the checkout (prisma.config.ts) and every dependency (npm ci, no prune).
    expect(build!.instructions.some((i) => i.keyword === 'COPY' && i.args === '. .')).toBe(true);
    expect(build!.instructions.some((i) => /npm prune/.test(i.args))).toBe(false);
    expect(JSON.parse(read('package.json')).devDependencies.prisma).toBeDefined();
  });

  it('keeps the host’s installs, builds, data and secrets out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    for (const entry of [
      '**/node_modules',
      '.runtime',
      'data',
      'dist',
      'generated',
      'native/build',
      '.env',
      '.git',
    ])
      expect(ignored, entry).toContain(entry);
  });

  it('builds dist/ with the command `make build` runs, from the locked dependencies', () => {
    const recipe = /^build:.*\n((?:\t.*\n)+)/m.exec(read('Makefile'))?.[1] ?? '';
    const makeBuild = recipe
      .split('\n')
      .map((l) => l.replace(/^\t@?/, '').trim())
      .filter(Boolean);
    expect(makeBuild).toEqual(['node scripts/build.mjs']);
    const runs = build!.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    expect(stages.find((s) => s.name === 'runtime-deps')!.instructions.map((i) => i.args)).toEqual([
      'npm prune --omit=dev',
    ]);
    const installAt = runs.findIndex((r) => /\bnpm ci\b/.test(r));
    const buildAt = runs.findIndex((r) => r.split('&&').some((part) => part.trim() === makeBuild[0]));
    expect(installAt).toBeGreaterThanOrEqual(0);
    expect(buildAt).toBeGreaterThan(installAt);
    const copies = build!.instructions.filter((i) => i.keyword === 'COPY').map((i) => i.args);
    expect(copies[0]).toBe('package.json package-lock.json ./');
  });

  it('copies into the runtime image what the processes load, and has pg_dump for backups', () => {
    const copied = runtime.instructions
      .filter((i) => i.keyword === 'COPY' && i.args.startsWith('--from='))
      .map((i) => i.args.split(/\s+/)[1]);
    // Production dependencies only: the pruned copy of the build's.
    expect(runtime.instructions.find((i) => i.args.includes('/app/node_modules'))?.args).toMatch(
      /^--from=runtime-deps /,
    );
    for (const path of [
      '/app/dist',
      '/app/node_modules',
      '/app/prisma.config.ts',
      '/app/generated',
      '/app/native/build',
      '/app/prisma',
      '/app/web',
    ])
      expect(copied).toContain(path);
    const apt = runtime.instructions.find((i) => i.keyword === 'RUN' && i.args.includes('apt-get install'));
    for (const pkg of ['ffmpeg', 'tini', 'postgresql-client']) expect(apt?.args).toContain(pkg);
  });

  it('starts only entry points that the build writes', () => {
    const entries = new Set<string>();
    for (const service of Object.values(compose.services)) {
      for (const part of service.command ?? [])
        for (const m of part.matchAll(/dist\/[\w/.-]+\.js/g)) entries.add(m[0]);
    }
    const cmd = runtime.instructions.find((i) => i.keyword === 'CMD');
    for (const m of cmd?.args.matchAll(/dist\/[\w/.-]+\.js/g) ?? []) entries.add(m[0]);
    expect([...entries].sort()).toEqual([
      'dist/src/main/cli.js',
      'dist/src/main/eval.js',
      'dist/src/main/music-api.js',
      'dist/src/main/music-worker.js',
    ]);
    // `make build` output of this checkout (the tests run after it).
    for (const entry of entries) expect(existsSync(join(ROOT, entry)), entry).toBe(true);
  });
});

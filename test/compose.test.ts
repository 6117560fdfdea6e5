/**
 * The production shape that cannot run here (no Docker): docker/compose.yaml against the
 * Compose specification's JSON schema, secrets only as environment references, images pinned,
 * and the Dockerfile's build stage running what `make build` runs, with every entry point the
 * compose file starts present in that build's output.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = join(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
}
interface Compose {
  services: Record<string, Service>;
}

const compose = parse(read('docker/compose.yaml'), { merge: true }) as Compose;

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  from: string;
  name: string | undefined;
  instructions: Instruction[];
}

/** Dockerfile → stages of instructions (line continuations joined, comments dropped). */
function parseDockerfile(text: string): Stage[] {
  const logical = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, keyword = '', args = ''] = /^(\S+)(?:\s+(\S.*))?$/.exec(line) ?? [];
    if (keyword.toUpperCase() === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      stages.push({ from: m?.[1] ?? args, name: m?.[2], instructions: [] });
    } else stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args });
  }
  return stages;
}

describe('docker/compose.yaml', () => {
  it('is valid against the Compose specification schema', () => {
    const schema = JSON.parse(read('test/fixtures/compose-spec/compose-spec.json')) as object;
    // The schema names its draft by an https URI ajv does not register; it is plain draft-07.
    const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
    const validate = ajv.compile(schema);
    // YAML merge keys (<<) are resolved first, as Compose does.
    expect(validate(compose), JSON.stringify(validate.errors, null, 2)).toBe(true);
    // The validator itself refuses what the specification refuses.
    expect(validate({ services: { api: { image: 'x', restart_policy: 'always' } } })).toBe(false);
    expect(validate({ services: { api: { image: 'x', ports: { a: 1 } } } })).toBe(false);
  });

  it('holds no secret: every secret-like value is an environment reference', () => {
    const secretName = /PASSWORD|SECRET|SALT|TOKEN|ACCESS_KEY|_KEY$|ROOT_USER/;
    let checked = 0;
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [key, value] of Object.entries(service.environment ?? {})) {
        const text = String(value);
        if (secretName.test(key)) {
          expect(text, `${name}.${key}`).toMatch(/^\$\{[A-Z_]+(:\?[^}]*)?\}$/);
          checked++;
        }
        // Credentials inside URLs too (postgresql://user:password@host).
        const userinfo = /^[a-z]+:\/\/[^/@:]+:([^@]+)@/.exec(text);
        if (userinfo) expect(userinfo[1], `${name}.${key}`).toMatch(/^\$\{[A-Z_]+(:\?[^}]*)?\}$/);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  it('pins the object store by digest, runs SeaweedFS (not MinIO), and nothing runs :latest from a registry', () => {
    const store = compose.services.objectstore!;
    expect(store.image).toMatch(/^chrislusf\/seaweedfs:[\d.]+@sha256:[0-9a-f]{64}$/);
    for (const [name, service] of Object.entries(compose.services)) {
      expect(service.image ?? '', name).not.toMatch(/minio/i);
      if (!service.build) expect(service.image ?? '', name).not.toMatch(/:latest$|^[^:]+$/);
    }
    const app = compose.services.api!.environment!;
    expect(app.OBJECT_STORE_ENDPOINT).toBe('http://objectstore:8333');
  });

  it('initialises the buckets once, before the processes start', () => {
    expect(compose.services.buckets!.command).toEqual([
      'node',
      'dist/src/main/cli.js',
      'ops',
      'init-buckets',
    ]);
    for (const name of ['api', 'worker', 'eval', 'backup']) {
      const deps = compose.services[name]!.depends_on as Record<string, { condition: string }>;
      expect(deps.buckets, name).toEqual({ condition: 'service_completed_successfully' });
    }
    const bucketDeps = compose.services.buckets!.depends_on as Record<string, { condition: string }>;
    expect(bucketDeps.objectstore).toEqual({ condition: 'service_healthy' });
  });

  it('gives nginx every variable its template uses', () => {
    const template = read('docker/nginx/templates/default.conf.template');
    const used = new Set([...template.matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((m) => m[1]));
    const env = compose.services.nginx!.environment!;
    for (const name of used) expect(env, String(name)).toHaveProperty(String(name));
    expect(new RegExp(env.NGINX_ENVSUBST_FILTER!).test('DOMAIN')).toBe(true);
    expect(new RegExp(env.NGINX_ENVSUBST_FILTER!).test('uri')).toBe(false);
  });
});

describe('docker/Dockerfile', () => {
  const stages = parseDockerfile(read('docker/Dockerfile'));
  const build = stages.find((s) => s.name === 'build');
  const runtime = stages.at(-1)!;

  it('has a build stage and a runtime stage on Node 24', () => {
    expect(stages).toHaveLength(2);
    expect(build).toBeDefined();
    for (const s of stages) expect(s.from).toMatch(/^node:24[-.\w]*$/);
  });

  it('builds dist/ with the command `make build` runs, from the locked dependencies', () => {
    const recipe = /^build:.*\n((?:\t.*\n)+)/m.exec(read('Makefile'))?.[1] ?? '';
    const makeBuild = recipe
      .split('\n')
      .map((l) => l.replace(/^\t@?/, '').trim())
      .filter(Boolean);
    expect(makeBuild).toEqual(['node scripts/build.mjs']);
    const runs = build!.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    const installAt = runs.findIndex((r) => /\bnpm ci\b/.test(r));
    const buildAt = runs.findIndex((r) => r.split('&&').some((part) => part.trim() === makeBuild[0]));
    expect(installAt).toBeGreaterThanOrEqual(0);
    expect(buildAt).toBeGreaterThan(installAt);
    const copies = build!.instructions.filter((i) => i.keyword === 'COPY').map((i) => i.args);
    expect(copies[0]).toBe('package.json package-lock.json ./');
  });

  it('copies into the runtime image what the processes load, and has pg_dump for backups', () => {
    const copied = runtime.instructions
      .filter((i) => i.keyword === 'COPY' && i.args.startsWith('--from=build'))
      .map((i) => i.args.split(/\s+/)[1]);
    for (const path of [
      '/app/dist',
      '/app/node_modules',
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

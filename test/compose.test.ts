/**
 * The production shape that cannot run here (no Docker): docker/compose.yaml against the
 * Compose specification's JSON schema and Debian's `docker-compose config`, secrets only as
 * environment references, images pinned; every service's production configuration loaded with
 * the project's own loaders from exactly the environment compose gives it (the image's ENV
 * under the service's, interpolated from a complete production env file); networks, volumes
 * and healthchecks. The Dockerfile's build is in dockerfile.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { BlockList } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseProxyEntry } from '../src/core/trusted-proxies.js';
import { loadEvalConfig } from '../src/eval/config.js';
import { loadSigningKeys } from '../src/eval/repositories/receipt-keys.js';
import { loadMusicConfig } from '../src/music/config.js';
import { loadWorkerConfig } from '../src/music/worker-config.js';
import { offsiteTarget } from '../src/ops/offsite-target.js';
import { NGINX_TEMPLATE_VARIABLES, renderNginxTemplate } from '../src/ops/nginx-template.js';
import {
  compose,
  imageEnv,
  interpolate,
  productionEnv,
  read,
  ROOT,
  type Compose,
  type Service,
} from './helpers/compose.js';

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
          expect(text, `${name}.${key}`).toMatch(/^\$\{[A-Z_]+(:\?[^}]*|:-)?\}$/);
          checked++;
        }
        // Credentials inside URLs too (postgresql://user:password@host).
        const userinfo = /^[a-z]+:\/\/[^/@:]+:([^@]+)@/.exec(text);
        if (userinfo) expect(userinfo[1], `${name}.${key}`).toMatch(/^\$\{[A-Z_]+(:\?[^}]*)?\}$/);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  it('pins every registry image by digest, runs SeaweedFS (not MinIO), and nothing runs :latest from a registry', () => {
    const store = compose.services.objectstore!;
    expect(store.image).toMatch(/^chrislusf\/seaweedfs:[\d.]+@sha256:[0-9a-f]{64}$/);
    expect(compose.services.nginx!.image).toMatch(/^nginx:1\.30\.\d+@sha256:[0-9a-f]{64}$/);
    expect(compose.services.postgres!.image).toMatch(/^postgres:15\.\d+@sha256:[0-9a-f]{64}$/);
    expect(compose.services.redis!.image).toMatch(/@sha256:[0-9a-f]{64}$/);
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
    for (const name of ['api', 'worker', 'backup']) {
      const deps = compose.services[name]!.depends_on as Record<string, { condition: string }>;
      expect(deps.buckets, name).toEqual({ condition: 'service_completed_successfully' });
    }
    // Migrations before every process that uses the database, with the image's migrate stage.
    for (const name of ['api', 'worker', 'eval', 'backup']) {
      const deps = compose.services[name]!.depends_on as Record<string, { condition: string }>;
      expect(deps.migrate, name).toEqual({ condition: 'service_completed_successfully' });
    }
    expect(compose.services.migrate!.build?.target).toBe('migrate');
    const bucketDeps = compose.services.buckets!.depends_on as Record<string, { condition: string }>;
    expect(bucketDeps.objectstore).toEqual({ condition: 'service_healthy' });
  });

  it('gives nginx every variable its template uses, and the image substitutes only those', () => {
    const template = read('docker/nginx/templates/default.conf.template');
    const used = new Set([...template.matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((m) => m[1]!));
    expect([...used].sort()).toEqual([...NGINX_TEMPLATE_VARIABLES].sort());
    const env = interpolate(compose.services.nginx!.environment, {
      DOMAIN: 'd',
      SECURE_LINK_SECRET: 's',
    }) as Record<string, string>;
    for (const name of used) expect(env, name).toHaveProperty(name);
    // The image's envsubst takes the names this pattern matches (awk), in both $NAME and ${NAME}
    // forms: exactly the template's, and no nginx variable the template uses.
    const filter = new RegExp(env.NGINX_ENVSUBST_FILTER!);
    for (const name of NGINX_TEMPLATE_VARIABLES) expect(filter.test(name), name).toBe(true);
    const nginxVariables = new Set([...template.matchAll(/\$([a-z_][a-z0-9_]*)/gi)].map((m) => m[1]!));
    expect(nginxVariables.size).toBeGreaterThan(10);
    for (const name of nginxVariables) expect(filter.test(name), name).toBe(false);
  });
});

describe('each service started from the environment compose gives it', () => {
  const ourImage = (s: Service) => s.image === 'verifier-music:latest';

  async function services(): Promise<Record<string, Service & { env: Record<string, string> }>> {
    const resolved = interpolate(compose, await productionEnv()) as Compose;
    const base = imageEnv();
    return Object.fromEntries(
      Object.entries(resolved.services).map(([name, service]) => [
        name,
        { ...service, env: { ...(ourImage(service) ? base : {}), ...service.environment } },
      ]),
    );
  }

  it('lists every variable the compose file reads in docker/production.env.example', () => {
    const used = new Set([...read('docker/compose.yaml').matchAll(/\$\{([A-Z_]+)/g)].map((m) => m[1]!));
    const listed = new Set(
      [...read('docker/production.env.example').matchAll(/^([A-Z_]+)=/gm)].map((m) => m[1]!),
    );
    expect([...used].filter((n) => !listed.has(n))).toEqual([]);
  });

  it('loads every process’s production configuration with the project’s own loaders', async () => {
    const all = await services();
    const started = Object.entries(all).filter(([, s]) => ourImage(s));
    expect(started.map(([n]) => n).sort()).toEqual(['api', 'backup', 'buckets', 'eval', 'worker']);
    for (const [name, { env }] of started) expect(env.NODE_ENV, name).toBe('production');

    const evalEnv = all.eval!.env;
    const evalConfig = loadEvalConfig(evalEnv);
    expect(evalConfig.production).toBe(true);
    // What eval.ts does next: the signing keys, which production requires.
    const keys = await loadSigningKeys({
      dataDir: evalConfig.dataDir,
      envKey: evalConfig.receiptSigningKey,
      production: true,
    });
    expect(keys.active.kid).toBeTruthy();
    expect(() => loadMusicConfig(all.api!.env)).not.toThrow();
    expect(loadMusicConfig(all.api!.env).port).toBe(8081);
    expect(() => loadMusicConfig(all.worker!.env)).not.toThrow();
    expect(loadWorkerConfig(all.worker!.env).port).toBe(8082);
    // `ops init-buckets`, `ops backup` and `ops check` read the music configuration.
    for (const name of ['buckets', 'backup'])
      expect(() => loadMusicConfig(all[name]!.env), name).not.toThrow();
    expect(offsiteTarget(all.backup!.env)).toBeUndefined();
    expect(() =>
      renderNginxTemplate(read('docker/nginx/templates/default.conf.template'), all.nginx!.env),
    ).not.toThrow();
    // The migrate one-shot needs the owning role's URL and the eval role's name.
    expect(all.migrate!.env.DATABASE_URL).toMatch(/^postgresql:\/\/music:[^@]+@postgres:5432\/music$/);
    expect(all.migrate!.env.EVAL_DB_USER).toBe('eval');
  });

  it('gives eval none of music’s secrets and its own database role', async () => {
    const all = await services();
    const evalEnv = all.eval!.env;
    const musicSecrets = Object.entries(all.api!.env).filter(([k]) =>
      /SECRET|SALT|PASSWORD|ROOT_USER/.test(k),
    );
    expect(musicSecrets.length).toBeGreaterThanOrEqual(6);
    for (const [key, value] of musicSecrets) {
      expect(evalEnv, key).not.toHaveProperty(key);
      for (const v of Object.values(evalEnv)) expect(v.includes(value), key).toBe(false);
    }
    expect(evalEnv.DATABASE_URL).toMatch(/^postgresql:\/\/eval:/);
    expect(all.api!.env.DATABASE_URL).toMatch(/^postgresql:\/\/music:/);
    expect(all.postgres!.env.POSTGRES_USER).toBe('postgres');
    expect(read('docker/postgres/initdb/10-roles.sh')).toMatch(/NOSUPERUSER/);
    expect(compose.services.postgres!.volumes).toContain('./postgres/initdb:/docker-entrypoint-initdb.d:ro');
  });

  it('trusts only the edge network for X-Forwarded-For, by a range no redeploy changes', async () => {
    const all = await services();
    const resolved = interpolate(compose, await productionEnv()) as Compose;
    const subnet = resolved.networks.edge!.ipam!.config[0]!.subnet;
    expect(parseProxyEntry(subnet)).toEqual({ kind: 'range', text: subnet });
    const edge = Object.entries(all)
      .filter(([, s]) => s.networks?.includes('edge'))
      .map(([n]) => n)
      .sort();
    expect(edge).toEqual(['api', 'eval', 'nginx']);
    expect(all.nginx!.networks).toEqual(['edge']);
    for (const name of ['api', 'eval', 'worker', 'backup']) {
      const entries = all[name]!.env.TRUSTED_PROXIES!.split(',');
      // Addresses and ranges only: a host name would be resolved once, from the service's side.
      for (const entry of entries) expect(parseProxyEntry(entry), name).toMatchObject({ kind: 'range' });
      expect(entries, name).toEqual([subnet]);
    }
    const [base, bits] = subnet.split('/');
    const list = new BlockList();
    list.addSubnet(base!, Number(bits));
    expect(list.check(base!.replace(/\.0$/, '.7'))).toBe(true);
  });

  it('creates and hands to the node user every directory a volume of ours is mounted on', () => {
    const dockerfile = read('docker/Dockerfile');
    const owned = /RUN mkdir -p ([^&]+) && chown node:node ([^\n]+)/.exec(dockerfile);
    expect(owned).not.toBeNull();
    const made = owned![1]!.trim().split(/\s+/);
    expect(owned![2]!.trim().split(/\s+/)).toEqual(made);
    expect(dockerfile).toMatch(/^USER node$/m);
    for (const [name, service] of Object.entries(compose.services).filter(([, s]) => ourImage(s))) {
      for (const volume of service.volumes ?? []) {
        const [source, target] = volume.split(':');
        // Named volumes (not bind mounts of the checkout) are written by the process.
        if (source!.startsWith('.') || source!.startsWith('$')) continue;
        expect(made, `${name}: ${volume}`).toContain(target);
      }
    }
    expect(compose.services.backup!.environment!.BACKUP_DIR).toBe('/backups');
    expect(compose.services.eval!.volumes).toEqual(['eval-data:/data']);
  });

  it('has a healthcheck on every long-running service, probing the port that service listens on', async () => {
    const all = await services();
    const ports: Record<string, string> = { api: 'MUSIC_PORT', eval: 'EVAL_PORT', worker: 'WORKER_PORT' };
    for (const [name, service] of Object.entries(all)) {
      if (['migrate', 'buckets'].includes(name)) continue;
      expect(service.healthcheck?.test, name).toBeDefined();
    }
    const paths: Record<string, string> = { api: '/api/v1/health', eval: '/api/health', worker: '/health' };
    for (const [name, variable] of Object.entries(ports)) {
      const probe = all[name]!.healthcheck!.test.join(' ');
      expect(probe, name).toContain(`http://127.0.0.1:${all[name]!.env[variable]}${paths[name]}'`);
    }
    expect(all.backup!.healthcheck!.test).toEqual([
      'CMD',
      'node',
      'dist/src/main/cli.js',
      'ops',
      'check',
      '--cert',
      '/tls/fullchain.pem',
    ]);
  });

  it('is accepted by Debian’s docker-compose, which gives each service the same environment', async () => {
    const env = await productionEnv();
    const dir = await mkdtemp(join(tmpdir(), 'compose-'));
    try {
      const envFile = join(dir, 'production.env');
      await writeFile(
        envFile,
        Object.entries(env)
          .map(([k, v]) => `${k}=${v}`)
          .join('\n') + '\n',
      );
      let stdout: string;
      try {
        ({ stdout } = await promisify(execFile)(
          'docker-compose',
          ['-p', 'verifier-music', '--env-file', envFile, '-f', join(ROOT, 'docker/compose.yaml'), 'config'],
          { env: { PATH: process.env.PATH }, maxBuffer: 8 * 1024 * 1024 },
        ));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT')
          throw new Error(
            'docker-compose is not installed: `make setup` installs it (Debian package docker-compose)',
            { cause: err },
          );
        throw err;
      }
      // Its output escapes a literal $ as $$ again (it is itself a compose file).
      const config = interpolate(parse(stdout), {}) as Compose;
      const ours = interpolate(compose, env) as Compose;
      expect(Object.keys(config.services).sort()).toEqual(Object.keys(ours.services).sort());
      for (const [name, service] of Object.entries(ours.services))
        expect(config.services[name]!.environment ?? {}, name).toEqual(service.environment ?? {});
      // A required variable left empty stops it, naming the variable.
      await writeFile(
        envFile,
        Object.entries({ ...env, RECEIPT_SIGNING_KEY: '' })
          .map(([k, v]) => `${k}=${v}`)
          .join('\n'),
      );
      await expect(
        promisify(execFile)(
          'docker-compose',
          ['-p', 'verifier-music', '--env-file', envFile, '-f', join(ROOT, 'docker/compose.yaml'), 'config'],
          {
            env: { PATH: process.env.PATH },
          },
        ),
      ).rejects.toThrow(/RECEIPT_SIGNING_KEY/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

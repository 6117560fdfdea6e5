/**
 * The platform on several hosts: `data` (PostgreSQL, Redis, s3rver), `api1`/`api2` (music-api),
 * `eval1`/`eval2` (eval, VERIFY_MODE=queue), `worker1`/`worker2` (music-worker),
 * `verify1`/`verify2` (verify-worker), `lb` (Debian's nginx with the production template), each
 * a network namespace running the build in dist/. The test process (on the bridge, .1) plays
 * the clients and the DNS server nginx re-resolves `api` and `eval` with.
 */
import { execFile } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Agent, setGlobalDispatcher } from 'undici';
import { renderNginxTemplate } from '../../src/ops/nginx-template.js';
import { startTestDns, type TestDns } from '../helpers/dns-server.js';
import { PAYMENT_ENV } from '../helpers/payment-provider.js';
import { readNginxTemplate } from '../../src/ops/repositories/nginx-template-file.js';
import { DATABASE_SERVER, DataHost, REDIS_URL, S3_ENDPOINT } from './data-host.js';
import { closeClients, trustLb } from './clients.js';
import { buildNetwork, cleanNetwork, GATEWAY, HOSTS, type HostName } from './netns.js';
import { answersOk, startOn, stopProcess, until, type HostProcess } from './processes.js';

const exec = promisify(execFile);
export const ROOT = join(import.meta.dirname, '..', '..');
const node = (entry: string): [string, string[]] => [
  process.execPath,
  [join(ROOT, 'dist/src/main', `${entry}.js`)],
];

export const MUSIC_PORT = 8081;
export const EVAL_PORT = 8080;
export const WORKER_PORT = 8082;
/** The API hosts' live-updates heartbeat (25 s by default): a cut-off host is noticed in two. */
export const HEARTBEAT_SECONDS = 2;
export const LB = `https://${HOSTS.lb}`;
export const musicUrl = (host: 'api1' | 'api2'): string => `http://${HOSTS[host]}:${MUSIC_PORT}`;
export const evalUrl = (host: 'eval1' | 'eval2'): string => `http://${HOSTS[host]}:${EVAL_PORT}`;

const secret = (): string => randomBytes(48).toString('base64url');

export class Cluster {
  readonly processes = new Map<string, HostProcess>();
  data!: DataHost;
  dns?: TestDns;
  dir = '';
  ca = '';
  musicEnv: Record<string, string> = {};
  evalEnv: Record<string, string> = {};
  workerEnv: Record<string, string> = {};
  verifyEnv: Record<string, string> = {};

  async start(): Promise<void> {
    if (process.getuid?.() !== 0) throw new Error('make cluster-test needs root (network namespaces)');
    this.dir = await mkdtemp(join(tmpdir(), 'vmc-'));
    // The postgres user runs the data host's database under it.
    await chmod(this.dir, 0o711);
    await buildNetwork();
    this.data = new DataHost(join(this.dir, 'data'), ROOT);
    await mkdir(join(this.dir, 'data'));
    await this.data.init();
    await this.prepareDatabases();
    await this.startNginx();
    await Promise.all([
      this.startApi('api1'),
      this.startApi('api2'),
      this.startEval('eval1'),
      this.startEval('eval2'),
      this.startWorker('worker1'),
      this.startWorker('worker2'),
      this.startVerify('verify1'),
      this.startVerify('verify2'),
    ]);
  }

  private async prepareDatabases(): Promise<void> {
    await this.data.query('CREATE DATABASE music');
    await this.data.query('CREATE DATABASE open_bench');
    const trusted = `${GATEWAY},${HOSTS.lb}`;
    this.musicEnv = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DOMAIN: HOSTS.lb,
      DATABASE_URL: `${DATABASE_SERVER}/music`,
      CACHE_URL: REDIS_URL,
      OBJECT_STORE_ENDPOINT: S3_ENDPOINT,
      OBJECT_STORE_ROOT_USER: 'S3RVER',
      OBJECT_STORE_ROOT_PASSWORD: 'S3RVER',
      JWT_SECRET: secret(),
      SECURE_LINK_SECRET: secret(),
      IP_HASH_SALT: secret(),
      CLIENT_KEY_SECRET: secret(),
      TRUSTED_PROXIES: trusted,
      MUSIC_HOST: '0.0.0.0',
      MUSIC_PORT: String(MUSIC_PORT),
      EVENTS_HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS),
      // Scenario 3's six sockets of one user, plus those a cut-off host still counts (default 5).
      EVENTS_MAX_CONNECTIONS_PER_USER: '20',
      // Payments on, so scenario 5 delivers the provider's webhooks (no call leaves for the provider).
      ...PAYMENT_ENV,
    };
    this.workerEnv = {
      ...this.musicEnv,
      WORKER_HOST: '0.0.0.0',
      WORKER_PORT: String(WORKER_PORT),
      // A dead worker host's jobs are taken back within seconds (the defaults are 30 s).
      WORKER_LOCK_MS: '5000',
      WORKER_STALLED_INTERVAL_MS: '2000',
      WORKER_SCHEDULES: 'off',
    };
    const key = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
    this.evalEnv = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DOMAIN: HOSTS.lb,
      EVAL_HOST: '0.0.0.0',
      EVAL_PORT: String(EVAL_PORT),
      VERIFY_MODE: 'queue',
      // Every tool call and batch line crosses the verify queue (none runs inline on eval).
      EVAL_INLINE_MAX_BYTES: '0',
      CACHE_URL: REDIS_URL,
      DATABASE_URL: `${DATABASE_SERVER}/open_bench`,
      RECEIPT_SIGNING_KEY: JSON.stringify({ ...key, kid: 'cluster-1' }),
      TRUSTED_PROXIES: trusted,
    };
    this.verifyEnv = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      CACHE_URL: REDIS_URL,
      VERIFY_WORKER_THREADS: '1',
    };
    for (const url of [this.musicEnv.DATABASE_URL!, this.evalEnv.DATABASE_URL!])
      await exec(process.execPath, ['scripts/migrate.mjs'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH, DATABASE_URL: url },
      });
    await exec(process.execPath, ['dist/src/main/cli.js', 'ops', 'init-buckets'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, ...this.musicEnv },
    });
  }

  private add(p: HostProcess): HostProcess {
    this.processes.set(p.host, p);
    return p;
  }

  async startApi(host: 'api1' | 'api2'): Promise<void> {
    const p = this.add(
      startOn(
        host,
        'music-api',
        ...node('music-api'),
        { ...this.musicEnv, DATA_DIR: join(this.dir, host) },
        ROOT,
      ),
    );
    await until(
      `${host} answers its health probe`,
      120,
      () => answersOk(`${musicUrl(host)}/api/v1/health/ready`),
      p,
    );
  }

  async startEval(host: 'eval1' | 'eval2'): Promise<void> {
    const p = this.add(
      startOn(host, 'eval', ...node('eval'), { ...this.evalEnv, DATA_DIR: join(this.dir, host) }, ROOT),
    );
    await until(`${host} answers its health probe`, 120, () => answersOk(`${evalUrl(host)}/api/health`), p);
  }

  async startWorker(host: 'worker1' | 'worker2', env: Record<string, string> = {}): Promise<void> {
    const p = this.add(
      startOn(
        host,
        'music-worker',
        ...node('music-worker'),
        { ...this.workerEnv, DATA_DIR: join(this.dir, host), ...env },
        ROOT,
      ),
    );
    await until(
      `${host} answers its health probe`,
      120,
      () => answersOk(`http://${HOSTS[host]}:${WORKER_PORT}/health`),
      p,
    );
  }

  async startVerify(host: 'verify1' | 'verify2'): Promise<void> {
    const p = this.add(startOn(host, 'verify-worker', ...node('verify-worker'), this.verifyEnv, ROOT));
    await until(
      `${host} is ready`,
      120,
      () => Promise.resolve(p.lines.some((l) => l.includes('verify-worker ready'))),
      p,
    );
  }

  private async startNginx(): Promise<void> {
    this.dns = await startTestDns(
      { api: [HOSTS.api1, HOSTS.api2], eval: [HOSTS.eval1, HOSTS.eval2] },
      GATEWAY,
    );
    const prefix = join(this.dir, 'lb');
    for (const d of ['cache', 'tmp', 'logs']) await mkdir(join(prefix, d), { recursive: true });
    const [cert, key] = [join(prefix, 'cert.pem'), join(prefix, 'key.pem')];
    await exec('openssl', [
      ...[
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
      ],
      ...[
        '-keyout',
        key,
        '-out',
        cert,
        '-subj',
        `/CN=${HOSTS.lb}`,
        '-addext',
        `subjectAltName=IP:${HOSTS.lb}`,
      ],
    ]);
    this.ca = await readFile(cert, 'utf8');
    setGlobalDispatcher(new Agent({ connect: { ca: this.ca }, connections: 256 }));
    trustLb(this.ca);
    const rendered = renderNginxTemplate(await readNginxTemplate(ROOT), {
      DOMAIN: HOSTS.lb,
      SECURE_LINK_SECRET: this.musicEnv.SECURE_LINK_SECRET,
      HTTP_PORT: `${HOSTS.lb}:80`,
      HTTPS_PORT: `${HOSTS.lb}:443`,
      TLS_CERT_FILE: cert,
      TLS_KEY_FILE: key,
      MUSIC_API_UPSTREAM: `api:${MUSIC_PORT}`,
      EVAL_UPSTREAM: `eval:${EVAL_PORT}`,
      NGINX_CACHE_DIR: join(prefix, 'cache'),
      NGINX_RESOLVER: this.dns.address,
    });
    await writeFile(join(prefix, 'edge.conf'), rendered);
    const tmp = join(prefix, 'tmp');
    // The nginx image's main configuration around conf.d/, with this run's paths.
    await writeFile(
      join(prefix, 'nginx.conf'),
      `user root;\nworker_processes 2;\npid ${prefix}/nginx.pid;\nerror_log ${prefix}/logs/error.log warn;\n` +
        `events { worker_connections 4096; }\n` +
        `http {\n  include /etc/nginx/mime.types;\n  default_type application/octet-stream;\n  sendfile on;\n` +
        `  keepalive_timeout 65;\n  access_log off;\n  client_body_temp_path ${tmp}/body;\n  proxy_temp_path ${tmp}/proxy;\n` +
        `  fastcgi_temp_path ${tmp}/fastcgi;\n  uwsgi_temp_path ${tmp}/uwsgi;\n  scgi_temp_path ${tmp}/scgi;\n` +
        `  include ${prefix}/edge.conf;\n}\n`,
    );
    const args = ['-p', prefix, '-e', join(prefix, 'logs/error.log'), '-c', join(prefix, 'nginx.conf')];
    await exec('ip', ['netns', 'exec', 'vmc-lb', '/usr/sbin/nginx', ...args, '-t']);
    const p = this.add(startOn('lb', 'nginx', '/usr/sbin/nginx', [...args, '-g', 'daemon off;'], {}, ROOT));
    // The http port answers with its redirect at once, whatever is behind.
    await until(
      'nginx listens',
      30,
      async () => (await fetch(`http://${HOSTS.lb}/`, { redirect: 'manual' })).status === 301,
      p,
    );
  }

  process(host: HostName): HostProcess {
    const p = this.processes.get(host);
    if (!p) throw new Error(`nothing runs on ${host}`);
    return p;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.processes.values()].map((p) => stopProcess(p).catch(() => undefined)));
    await this.data?.stop().catch(() => undefined);
    await this.dns?.close().catch(() => undefined);
    await closeClients();
    await cleanNetwork();
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }
}

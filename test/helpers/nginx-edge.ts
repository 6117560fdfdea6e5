/**
 * Real nginx (the Debian package) run as the current user from a temporary prefix, in front of
 * apps the test started: the production template rendered for loopback ports and temp paths,
 * wrapped in the image's main config less its system paths (no daemon), with a self-signed certificate.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { renderNginxTemplate } from '../../src/ops/nginx-template.js';
import { readNginxTemplate } from '../../src/ops/repositories/nginx-template-file.js';
import { freePort } from './free-port.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
// Debian installs it in /usr/sbin, which a non-root PATH often lacks.
const NGINX = process.env.NGINX_BIN ?? (existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx');
// The same upstream file the image ships as /etc/nginx/mime.types (Debian's nginx-common).
const MIME_TYPES = process.env.NGINX_MIME_TYPES ?? '/etc/nginx/mime.types';

/**
 * A self-signed certificate for localhost / 127.0.0.1 valid for `days` from now; `days = -1`
 * gives one that expired yesterday (openssl x509 accepts -1, req does not).
 */
export async function selfSignedCertificate(
  dir: string,
  days = 365,
): Promise<{ cert: string; key: string; pem: string }> {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  const csr = join(dir, 'cert.csr');
  await run('openssl', [
    ...['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
    ...['-keyout', key, '-out', csr, '-subj', '/CN=localhost'],
    ...['-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
  ]);
  await run('openssl', [
    ...['x509', '-req', '-in', csr, '-key', key, '-days', String(days), '-copy_extensions', 'copy'],
    ...['-out', cert],
  ]);
  return { cert, key, pem: await readFile(cert, 'utf8') };
}

export interface NginxEdge {
  httpPort: number;
  httpsPort: number;
  ca: string;
  prefix: string;
  stop(): Promise<void>;
}

async function waitForPort(port: number, child: ChildProcess, log: () => Promise<string>): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${await log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${port}:\n${await log()}`);
    await new Promise((r) => setImmediate(r));
  }
}

export async function startNginxEdge(options: {
  musicApi: string;
  eval: string;
  domain: string;
  secureLinkSecret: string;
  /** host:port of the DNS server nginx re-resolves the upstream names with. */
  resolver: string;
  /** The template's text as changed from the production file (a benchmark's "without" side). */
  editTemplate?: (template: string) => string;
}): Promise<NginxEdge> {
  const prefix = await mkdtemp(join(tmpdir(), 'nginx-edge-'));
  for (const d of ['cache', 'tmp', 'logs']) await mkdir(join(prefix, d));
  const tls = await selfSignedCertificate(prefix);
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const template = await readNginxTemplate(ROOT);
  const rendered = renderNginxTemplate(options.editTemplate?.(template) ?? template, {
    DOMAIN: options.domain,
    SECURE_LINK_SECRET: options.secureLinkSecret,
    HTTP_PORT: `127.0.0.1:${httpPort}`,
    HTTPS_PORT: `127.0.0.1:${httpsPort}`,
    TLS_CERT_FILE: tls.cert,
    TLS_KEY_FILE: tls.key,
    MUSIC_API_UPSTREAM: options.musicApi,
    EVAL_UPSTREAM: options.eval,
    NGINX_CACHE_DIR: join(prefix, 'cache'),
    NGINX_RESOLVER: options.resolver,
  });
  await writeFile(join(prefix, 'edge.conf'), rendered);
  const tmp = join(prefix, 'tmp');
  // As root, nginx would hand its workers to `nobody`, who cannot read a 0700 temp dir.
  const user = process.getuid?.() === 0 ? `user ${userInfo().username};\n` : '';
  await writeFile(
    join(prefix, 'nginx.conf'),
    `${user}worker_processes 1;\npid ${prefix}/nginx.pid;\nerror_log ${prefix}/logs/error.log warn;\n` +
      `events { worker_connections 512; }\n` +
      // The nginx image's http{} around conf.d/: its MIME types and default type, sendfile, keep-alive.
      `http {\n  include ${MIME_TYPES};\n  default_type application/octet-stream;\n  sendfile on;\n  keepalive_timeout 65;\n  access_log off;\n  client_body_temp_path ${tmp}/body;\n  proxy_temp_path ${tmp}/proxy;\n` +
      `  fastcgi_temp_path ${tmp}/fastcgi;\n  uwsgi_temp_path ${tmp}/uwsgi;\n  scgi_temp_path ${tmp}/scgi;\n` +
      `  include ${prefix}/edge.conf;\n}\n`,
  );
  const args = ['-p', prefix, '-e', join(prefix, 'logs', 'error.log'), '-c', join(prefix, 'nginx.conf')];
  await run(NGINX, [...args, '-t']);
  const child = spawn(NGINX, [...args, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const log = async (): Promise<string> =>
    stderr + (await readFile(join(prefix, 'logs', 'error.log'), 'utf8').catch(() => ''));
  await waitForPort(httpsPort, child, log);
  await waitForPort(httpPort, child, log);
  return {
    httpPort,
    httpsPort,
    ca: tls.pem,
    prefix,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGQUIT');
        await once(child, 'exit');
      }
      await rm(prefix, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  raw: string[];
  body: string;
}

export function collect(res: IncomingMessage): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('error', reject);
    res.on('end', () =>
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        raw: res.rawHeaders,
        body: Buffer.concat(chunks).toString('utf8'),
      }),
    );
  });
}

/** How many times a header name occurs in the raw response (case-insensitive). */
export function occurrences(answer: Answer, name: string): number {
  return answer.raw.filter((v, i) => i % 2 === 0 && v.toLowerCase() === name).length;
}

export interface EdgeRequest {
  method?: string;
  body?: string;
  headers?: Record<string, string>;
}

/** One HTTPS request to the edge for `domain`, trusting its certificate, on a fresh connection. */
export function edgeHttps(
  edge: NginxEdge,
  domain: string,
  path: string,
  options: EdgeRequest = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port: edge.httpsPort,
        servername: domain,
        ca: edge.ca,
        path,
        method: options.method ?? 'GET',
        headers: { host: domain, ...options.headers },
        agent: false,
      },
      (res) => void collect(res).then(resolve, reject),
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

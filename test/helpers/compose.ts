/**
 * docker/compose.yaml and docker/Dockerfile read as the production tooling reads them: the
 * compose file with its merge keys, Compose's interpolation, a complete production env file,
 * the runtime image's ENV, and the Dockerfile's stages.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import { parse } from 'yaml';

export const ROOT = join(import.meta.dirname, '..', '..');
export const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

export interface Service {
  image?: string;
  build?: { context: string; dockerfile: string; target?: string };
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  networks?: string[];
  volumes?: string[];
  healthcheck?: { test: string[] };
}
export interface Compose {
  services: Record<string, Service>;
  networks: Record<string, { ipam?: { config: { subnet: string }[] } }>;
  volumes: Record<string, unknown>;
}

export const compose = parse(read('docker/compose.yaml'), { merge: true }) as Compose;

/** Compose's interpolation: ${V}, ${V:-default}, ${V-default}, ${V:?error}, ${V?error}, $$. */
export function interpolate(value: unknown, env: Record<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => interpolate(v, env));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env)]));
  if (typeof value !== 'string') return value;
  return value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}/g,
    (whole, name?: string, colon?: string, op?: string, arg?: string) => {
      if (whole === '$$') return '$';
      const v = env[name!];
      const missing = v === undefined || (colon === ':' && v === '');
      if (op === '-') return missing ? arg! : v;
      if (op === '?' && missing) throw new Error(`compose: ${name}: ${arg}`);
      return v ?? '';
    },
  );
}

/** The production env file, complete: every variable of docker/production.env.example filled. */
export async function productionEnv(): Promise<Record<string, string>> {
  const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const example = Object.fromEntries(
    read('docker/production.env.example')
      .split('\n')
      .filter((l) => /^[A-Z_]+=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  const secret = (n: number) => randomBytes(n).toString('base64url');
  return {
    ...example,
    DOMAIN: 'music.example.org',
    POSTGRES_ADMIN_PASSWORD: secret(24),
    MUSIC_DB_PASSWORD: secret(24),
    EVAL_DB_PASSWORD: secret(24),
    OBJECT_STORE_ROOT_USER: 'admin',
    OBJECT_STORE_ROOT_PASSWORD: secret(24),
    JWT_SECRET: secret(48),
    SECURE_LINK_SECRET: secret(48),
    IP_HASH_SALT: secret(48),
    CLIENT_KEY_SECRET: secret(48),
    RECEIPT_SIGNING_KEY: JSON.stringify(await exportJWK(privateKey)),
  };
}

/** The runtime stage's ENV (the image's environment under each service's own). */
export function imageEnv(): Record<string, string> {
  const stages = read('docker/Dockerfile').split(/^FROM /m);
  const runtime = stages.at(-1)!;
  const env: Record<string, string> = {};
  for (const line of runtime.split('\n').filter((l) => l.startsWith('ENV ')))
    for (const m of line.slice(4).matchAll(/(?<![A-Z_])([A-Z_]+)=(\S+)/g)) env[m[1]!] = m[2]!;
  return env;
}

export interface Instruction {
  keyword: string;
  args: string;
}
export interface Stage {
  from: string;
  name: string | undefined;
  instructions: Instruction[];
}

/** Dockerfile → stages of instructions (line continuations joined, comments dropped). */
export function parseDockerfile(text: string): Stage[] {
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

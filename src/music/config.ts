/**
 * Configuration of the music processes, read once from the environment: every name of the
 * seed plus the conventions of the design README. Validated, defaulted, frozen; a bad or
 * missing variable stops start-up with a message naming each one.
 *
 * Secrets (JWT_SECRET, SECURE_LINK_SECRET, IP_HASH_SALT, CLIENT_KEY_SECRET): required when NODE_ENV=production;
 * in development a random one is generated per start and reported in `generatedSecrets` so
 * the entry point logs a warning.
 */
import { resolve } from 'node:path';
import { Type } from 'typebox';
import { ClientEdgeEnv, trustedProxiesSetting } from '../core/client-edge-env.js';
import { ConfigError, parseByteSize, parseEnv, secretOrDev } from '../core/env.js';
import { HttpLimitsEnv, httpLimitsFromEnv, type HttpLimits } from '../core/http-limits.js';
import { METRICS_SCRAPERS_SETTING, parseScrapers } from '../core/metrics-access.js';

const MB = 1024 * 1024;

export const EnvSchema = Type.Object({
  NODE_ENV: Type.String({ default: 'development' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info', description: 'one of fatal, error, warn, info, debug, trace, silent' },
  ),
  DOMAIN: Type.String({
    default: 'localhost',
    pattern: '^[A-Za-z0-9.-]{1,253}$',
    description: 'public host name, e.g. music.example.org',
  }),
  MUSIC_HOST: Type.String({ default: '0.0.0.0', description: 'listen address' }),
  MUSIC_PORT: Type.Integer({ default: 8081, minimum: 0, maximum: 65535 }),
  MUSIC_TLS_PORT: Type.Integer({ default: 8443, minimum: 0, maximum: 65535 }),
  TLS_CERT_FILE: Type.Optional(
    Type.String({ description: 'PEM certificate chain; with TLS_KEY_FILE enables HTTPS' }),
  ),
  TLS_KEY_FILE: Type.Optional(
    Type.String({ description: 'PEM private key; with TLS_CERT_FILE enables HTTPS' }),
  ),
  DATA_DIR: Type.String({ default: './data' }),
  DATABASE_URL: Type.String({
    default: 'postgresql://postgres@127.0.0.1:5432/music',
    pattern: '^postgres(ql)?://',
    description: 'a postgresql:// URL',
  }),
  CACHE_URL: Type.String({
    default: 'redis://127.0.0.1:6379',
    pattern: '^rediss?://',
    description: 'a redis:// URL',
  }),
  MUSIC_CACHE_KEY_PREFIX: Type.String({ default: 'music:', maxLength: 200 }),
  QUEUE_PREFIX: Type.String({
    default: 'bull',
    pattern: '^[A-Za-z0-9_-]{1,64}$',
    description: 'BullMQ key prefix: letters, digits, _ and -',
  }),
  OBJECT_STORE_ENDPOINT: Type.Optional(
    Type.String({
      pattern: '^https?://',
      description: 'S3 endpoint URL; unset = filesystem store under DATA_DIR',
    }),
  ),
  OBJECT_STORE_ROOT_USER: Type.Optional(Type.String()),
  OBJECT_STORE_ROOT_PASSWORD: Type.Optional(Type.String()),
  OBJECT_STORE_REGION: Type.String({ default: 'us-east-1' }),
  OBJECT_STORE_BUCKET_PREFIX: Type.String({
    default: '',
    pattern: '^[a-z0-9-]{0,40}$',
    description: 'lower-case letters, digits and dashes prepended to the bucket names',
  }),
  JWT_SECRET: Type.Optional(Type.String({ minLength: 32, description: 'at least 32 characters' })),
  JWT_EXPIRES_IN: Type.String({
    default: '24h',
    pattern: '^[1-9][0-9]*[smhd]?$',
    description: 'a duration such as 3600, 90m, 24h or 7d',
  }),
  SECURE_LINK_SECRET: Type.Optional(Type.String({ minLength: 16, description: 'at least 16 characters' })),
  SIGNED_URL_TTL_SECONDS: Type.Integer({ default: 3600, minimum: 1, maximum: 604800 }),
  IP_HASH_SALT: Type.Optional(Type.String({ minLength: 16, description: 'at least 16 characters' })),
  CLIENT_KEY_SECRET: Type.Optional(
    Type.String({
      minLength: 32,
      description: 'at least 32 characters: encrypts and indexes Subsonic client keys',
    }),
  ),
  PAYMENT_SECRET_KEY: Type.Optional(Type.String()),
  PAYMENT_PUBLISHABLE_KEY: Type.Optional(Type.String()),
  PAYMENT_WEBHOOK_SECRET: Type.Optional(Type.String()),
  SMTP_HOST: Type.Optional(Type.String()),
  SMTP_PORT: Type.Integer({ default: 587, minimum: 1, maximum: 65535 }),
  SMTP_USER: Type.Optional(Type.String()),
  SMTP_PASS: Type.Optional(Type.String()),
  MAIL_FROM: Type.Optional(
    Type.String({
      minLength: 3,
      maxLength: 254,
      pattern: '^[^\\r\\n]+$',
      description: 'From of outgoing mail, e.g. "Music <no-reply@example.org>"; default no-reply@DOMAIN',
    }),
  ),
  PUBLIC_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[A-Za-z0-9.:\\[\\]-]+$',
      description:
        'the origin links in mails point to, e.g. https://music.example.org; default https://DOMAIN',
    }),
  ),
  LIBRARY_IMPORT_ROOTS: Type.Optional(
    Type.String({
      description:
        'colon-separated absolute folders the admin API may import music from (empty: API imports off; the CLI reads any folder)',
    }),
  ),
  ADMIN_PASSWORD: Type.Optional(
    Type.String({
      description:
        'the password `cli admin create` and `cli admin reset-password` set (else read from stdin)',
    }),
  ),
  ...ClientEdgeEnv,
  METRICS_SCRAPERS: METRICS_SCRAPERS_SETTING,
  MUSIC_JSON_BODY_LIMIT: Type.String({
    default: '1mb',
    description: 'largest JSON request body, e.g. 1mb (uploads have their own 500 MB bound)',
  }),
  MEDIA_CACHE_MAX_BYTES: Type.String({
    default: '256mb',
    description: 'byte bound of the in-process media cache, e.g. 256mb',
  }),
  MEDIA_CACHE_MAX_OBJECT_BYTES: Type.String({
    default: '8mb',
    description: 'largest object the media cache holds, e.g. 8mb',
  }),
  FFMPEG_NICENESS: Type.Integer({
    default: 10,
    minimum: 0,
    maximum: 19,
    description: 'nice(1) level of every ffmpeg and ffprobe the API and the worker start (0-19)',
  }),
  // Live updates (GET /api/v1/events, docs/live-updates.md).
  EVENTS_RESUME_WINDOW: Type.Integer({ default: 500, minimum: 10, maximum: 10000 }),
  EVENTS_MAX_CONNECTIONS_PER_USER: Type.Integer({ default: 5, minimum: 1, maximum: 1000 }),
  EVENTS_HEARTBEAT_SECONDS: Type.Integer({ default: 25, minimum: 1, maximum: 300 }),
  EVENTS_MAX_BUFFERED_BYTES: Type.Integer({ default: 1048576, minimum: 16384, maximum: 67108864 }),
  ...HttpLimitsEnv,
});

export interface S3Settings {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  bucketPrefix: string;
}

export interface MusicConfig {
  production: boolean;
  /** NODE_ENV: development, test or production (pretty logs only in development on a terminal). */
  nodeEnv: string;
  logLevel: string;
  domain: string;
  host: string;
  port: number;
  tls: { port: number; certFile: string; keyFile: string } | undefined;
  dataDir: string;
  databaseUrl: string;
  cacheUrl: string;
  cacheKeyPrefix: string;
  /** BullMQ key prefix of every job queue (src/music/jobs). */
  queuePrefix: string;
  objectStore: { kind: 'filesystem'; root: string } | ({ kind: 's3' } & S3Settings);
  jwt: { secret: string; expiresInSeconds: number };
  secureLink: { secret: string; ttlSeconds: number };
  ipHashSalt: string;
  /** Encrypts client keys at rest and keys their lookup hash (docs/subsonic.md). */
  clientKeySecret: string;
  payment: { secretKey: string; publishableKey: string; webhookSecret: string } | undefined;
  smtp: { host: string; port: number; user: string | undefined; pass: string | undefined } | undefined;
  /** Outgoing mail (docs/accounts.md): its From and the origin of the links it carries. */
  mail: { from: string; publicUrl: string };
  rateLimits: boolean;
  trustedProxies: string[];
  httpLimits: HttpLimits;
  /** Who may read /metrics (api and worker): core/metrics-access.ts. */
  metricsScrapers: string[];
  /** 500 MB: the seed's request body limit, for the upload part routes only (streamed). */
  bodyLimit: number;
  /** Every other route's body limit (JSON): small, so a huge body is a 413 before any parsing. */
  jsonBodyLimit: number;
  mediaCache: { maxBytes: number; maxObjectBytes: number };
  /** The niceness every ffmpeg/ffprobe of both processes runs at, below the requests and jobs that start them. */
  ffmpegNiceness: number;
  /** The live updates websocket's bounds (docs/live-updates.md). */
  liveEvents: {
    resumeWindow: number;
    maxConnectionsPerUser: number;
    heartbeatSeconds: number;
    maxBufferedBytes: number;
  };
  /** Names of the secrets generated for this start (development only), for a warning. */
  generatedSecrets: string[];
  /** The password `cli admin create` gives the account; unset, the command reads stdin. */
  adminPassword: string | undefined;
  /** Folders POST /api/v1/admin/library/imports may read (docs/library-import.md). */
  libraryImportRoots: readonly string[];
}

export const BODY_LIMIT_BYTES = 500 * MB;

const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** "24h" -> 86400; a bare number is seconds. */
export function parseDurationSeconds(text: string): number {
  const m = /^([1-9][0-9]*)([smhd]?)$/.exec(text);
  if (!m)
    throw new ConfigError([
      `JWT_EXPIRES_IN (got ${JSON.stringify(text)}): must be a duration such as 3600, 90m, 24h or 7d`,
    ]);
  return Number(m[1]) * (DURATION_UNITS[m[2] || 's'] ?? 1);
}

export function loadMusicConfig(env: NodeJS.ProcessEnv = process.env): Readonly<MusicConfig> {
  const e = parseEnv(EnvSchema, env);
  const production = e.NODE_ENV === 'production';
  const problems: string[] = [];
  const generatedSecrets: string[] = [];

  const secret = (
    name: 'JWT_SECRET' | 'SECURE_LINK_SECRET' | 'IP_HASH_SALT' | 'CLIENT_KEY_SECRET',
  ): string => {
    try {
      const outcome = secretOrDev(name, e[name], production);
      if (outcome.generated) generatedSecrets.push(name);
      return outcome.value;
    } catch (err) {
      if (err instanceof ConfigError) problems.push(...err.problems);
      return '';
    }
  };
  const jwtSecret = secret('JWT_SECRET');
  const secureLinkSecret = secret('SECURE_LINK_SECRET');
  const ipHashSalt = secret('IP_HASH_SALT');
  const clientKeySecret = secret('CLIENT_KEY_SECRET');

  if ((e.TLS_CERT_FILE === undefined) !== (e.TLS_KEY_FILE === undefined)) {
    problems.push('TLS_CERT_FILE and TLS_KEY_FILE: set both to enable HTTPS, or neither');
  }
  const endpoint = e.OBJECT_STORE_ENDPOINT;
  if (endpoint !== undefined) {
    if (e.OBJECT_STORE_ROOT_USER === undefined)
      problems.push('OBJECT_STORE_ROOT_USER: is required when OBJECT_STORE_ENDPOINT is set');
    if (e.OBJECT_STORE_ROOT_PASSWORD === undefined)
      problems.push('OBJECT_STORE_ROOT_PASSWORD: is required when OBJECT_STORE_ENDPOINT is set');
  }
  const paymentNames = ['PAYMENT_SECRET_KEY', 'PAYMENT_PUBLISHABLE_KEY', 'PAYMENT_WEBHOOK_SECRET'] as const;
  const paymentSet = paymentNames.filter((n) => e[n] !== undefined);
  if (paymentSet.length > 0 && paymentSet.length < paymentNames.length) {
    problems.push(
      `${paymentNames.filter((n) => e[n] === undefined).join(', ')}: payments need all three PAYMENT_* variables`,
    );
  }
  const byteSize = (
    name: 'MEDIA_CACHE_MAX_BYTES' | 'MEDIA_CACHE_MAX_OBJECT_BYTES' | 'MUSIC_JSON_BODY_LIMIT',
  ): number => {
    const n = parseByteSize(e[name]);
    if (n === undefined)
      problems.push(
        `${name} (got ${JSON.stringify(e[name])}): must be a size such as 256mb, 64kb or 1048576`,
      );
    return n ?? 0;
  };
  const mediaCache = {
    maxBytes: byteSize('MEDIA_CACHE_MAX_BYTES'),
    maxObjectBytes: byteSize('MEDIA_CACHE_MAX_OBJECT_BYTES'),
  };
  const jsonBodyLimit = byteSize('MUSIC_JSON_BODY_LIMIT');
  const { entries: trustedProxies, problems: proxyProblems } = trustedProxiesSetting(e.TRUSTED_PROXIES);
  problems.push(...proxyProblems);
  const scrapers = parseScrapers(e.METRICS_SCRAPERS);
  problems.push(...scrapers.problems);
  if (problems.length > 0) throw new ConfigError(problems);

  const dataDir = resolve(e.DATA_DIR);
  const config: MusicConfig = {
    production,
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    domain: e.DOMAIN,
    host: e.MUSIC_HOST,
    port: e.MUSIC_PORT,
    tls:
      e.TLS_CERT_FILE !== undefined && e.TLS_KEY_FILE !== undefined
        ? { port: e.MUSIC_TLS_PORT, certFile: e.TLS_CERT_FILE, keyFile: e.TLS_KEY_FILE }
        : undefined,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    cacheUrl: e.CACHE_URL,
    cacheKeyPrefix: e.MUSIC_CACHE_KEY_PREFIX,
    queuePrefix: e.QUEUE_PREFIX,
    objectStore:
      endpoint === undefined
        ? { kind: 'filesystem', root: resolve(dataDir, 'objects') }
        : {
            kind: 's3',
            endpoint,
            region: e.OBJECT_STORE_REGION,
            accessKeyId: e.OBJECT_STORE_ROOT_USER ?? '',
            secretAccessKey: e.OBJECT_STORE_ROOT_PASSWORD ?? '',
            bucketPrefix: e.OBJECT_STORE_BUCKET_PREFIX,
          },
    jwt: { secret: jwtSecret, expiresInSeconds: parseDurationSeconds(e.JWT_EXPIRES_IN) },
    secureLink: { secret: secureLinkSecret, ttlSeconds: e.SIGNED_URL_TTL_SECONDS },
    ipHashSalt,
    clientKeySecret,
    payment:
      e.PAYMENT_SECRET_KEY !== undefined &&
      e.PAYMENT_PUBLISHABLE_KEY !== undefined &&
      e.PAYMENT_WEBHOOK_SECRET !== undefined
        ? {
            secretKey: e.PAYMENT_SECRET_KEY,
            publishableKey: e.PAYMENT_PUBLISHABLE_KEY,
            webhookSecret: e.PAYMENT_WEBHOOK_SECRET,
          }
        : undefined,
    smtp:
      e.SMTP_HOST !== undefined
        ? { host: e.SMTP_HOST, port: e.SMTP_PORT, user: e.SMTP_USER, pass: e.SMTP_PASS }
        : undefined,
    mail: {
      from: e.MAIL_FROM ?? `Music <no-reply@${e.DOMAIN}>`,
      publicUrl: e.PUBLIC_URL ?? `https://${e.DOMAIN}`,
    },
    rateLimits: e.RATE_LIMITS === 'on',
    trustedProxies,
    httpLimits: httpLimitsFromEnv(e),
    metricsScrapers: scrapers.entries,
    bodyLimit: BODY_LIMIT_BYTES,
    jsonBodyLimit,
    mediaCache,
    ffmpegNiceness: e.FFMPEG_NICENESS,
    liveEvents: {
      resumeWindow: e.EVENTS_RESUME_WINDOW,
      maxConnectionsPerUser: e.EVENTS_MAX_CONNECTIONS_PER_USER,
      heartbeatSeconds: e.EVENTS_HEARTBEAT_SECONDS,
      maxBufferedBytes: e.EVENTS_MAX_BUFFERED_BYTES,
    },
    generatedSecrets,
    adminPassword: e.ADMIN_PASSWORD === '' ? undefined : e.ADMIN_PASSWORD,
    libraryImportRoots: (e.LIBRARY_IMPORT_ROOTS ?? '').split(':').filter((r) => r.startsWith('/')),
  };
  return Object.freeze(config);
}

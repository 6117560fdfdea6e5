/** Configuration of the `eval` process, read once at start-up. */
import os from 'node:os';
import { Type, type Static } from 'typebox';
import { ClientEdgeEnv, trustedProxiesSetting } from '../core/client-edge-env.js';
import { ConfigError, parseByteSize, parseEnv } from '../core/env.js';
import { METRICS_SCRAPERS_SETTING, parseScrapers } from '../core/metrics-access.js';
import { HttpLimitsEnv, httpLimitsFromEnv, type HttpLimits } from '../core/http-limits.js';

export const EvalEnv = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], {
    default: 'development',
  }),
  EVAL_PORT: Type.Integer({
    minimum: 0,
    maximum: 65535,
    default: 8080,
    description: 'HTTP port of the eval service',
  }),
  EVAL_HOST: Type.String({ default: '0.0.0.0', description: 'listen address' }),
  EVAL_PUBLIC_URL: Type.Optional(
    Type.String({
      pattern: '^https?://([A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+\\])(:[0-9]{1,5})?$',
      description:
        'origin the service is reached at, e.g. https://eval.example.org: the discovery files link to it, and /mcp answers only requests addressed to its host (and loopback names from loopback); default https://DOMAIN in production, else http://DOMAIN:EVAL_PORT',
    }),
  ),
  DOMAIN: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9.-]{1,253}$',
      description:
        "deprecated for eval (set EVAL_PUBLIC_URL): the host of eval's origin when EVAL_PUBLIC_URL is unset (default localhost); when both are set they must name the same host",
    }),
  ),
  EVAL_BODY_LIMIT: Type.String({ default: '16mb', description: 'largest tool request body, e.g. 16mb' }),
  EVAL_INLINE_MAX_BYTES: Type.String({
    default: '16kb',
    description:
      'largest tool request body run on the event loop (each tool lowers it by its own cost); 0 sends all to the pool',
  }),
  EVAL_BATCH_CONCURRENCY: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1024,
      description:
        'tasks (a line, or a chunk of small lines) of one batch in flight at once (default: twice the pool size)',
    }),
  ),
  EVAL_BATCH_CHUNKS: Type.Union([Type.Literal('event-loop'), Type.Literal('pool')], {
    default: 'event-loop',
    description:
      'where chunks of small batch lines run: on the event loop, or on the pool threads too (pays on cores no other process needs)',
  }),
  EVAL_BATCH_LINE_LIMIT: Type.String({
    default: '1mb',
    description: 'largest line of a batch; larger requests go to their tool endpoint',
  }),
  EVAL_POOL_SIZE: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 256, description: 'verifier worker threads' }),
  ),
  EVAL_RATE_LIMIT_PER_MINUTE: Type.Integer({
    minimum: 1,
    default: 1200,
    description: 'tool requests per minute per client',
  }),
  EVAL_RATE_LIMIT_BURST: Type.Integer({
    minimum: 0,
    default: 100,
    description: 'requests admitted at once above the rate',
  }),
  ...ClientEdgeEnv,
  METRICS_SCRAPERS: METRICS_SCRAPERS_SETTING,
  CACHE_URL: Type.Optional(
    Type.String({ pattern: '^rediss?://', description: 'Redis URL (redis://host:port)' }),
  ),
  CACHE_KEY_PREFIX: Type.String({
    default: 'eval:',
    description: 'prefix of every Redis key of this service',
  }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://', description: 'PostgreSQL URL' })),
  DATA_DIR: Type.String({ default: './data', description: 'local data directory' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 10000 }),
  EVAL_TASK_TIMEOUT_MS: Type.Integer({
    minimum: 1,
    default: 60000,
    description: 'deadline of one pooled verification, queueing included (503 beyond)',
  }),
  RECEIPT_SIGNING_KEY: Type.Optional(
    Type.String({ description: 'Ed25519 private JWK signing report-card results (required in production)' }),
  ),
  REPORT_CARD_SESSIONS_PER_CLIENT: Type.Integer({
    minimum: 1,
    default: 8,
    description: 'live report-card sessions one client address may hold',
  }),
  GRAPH_KERNEL: Type.Union([Type.Literal('auto'), Type.Literal('native'), Type.Literal('ts')], {
    default: 'auto',
    description: 'graph kernel: auto (native when built), native (required), ts',
  }),
  VERIFY_MODE: Type.Union([Type.Literal('local'), Type.Literal('queue')], {
    default: 'local',
    description:
      'local (own thread pool) or queue (BullMQ verify queue served by verify-workers; needs CACHE_URL)',
  }),
  VERIFY_QUEUE_PREFIX: Type.String({
    default: 'bull',
    pattern: '^[A-Za-z0-9_-]{1,64}$',
    description: 'BullMQ key prefix of the verify queue: letters, digits, _ and -',
  }),
  VERIFY_QUEUE_MAX_DEPTH: Type.Integer({
    minimum: 1,
    default: 1000,
    description: 'waiting verify jobs above which new queued requests get 503 + Retry-After',
  }),
  ...HttpLimitsEnv,
});

export interface EvalConfig {
  production: boolean;
  port: number;
  host: string;
  /** The one origin (EVAL_PUBLIC_URL): absolute links of the discovery files, no trailing slash. */
  publicUrl: string;
  /** publicUrl's host, lower case: the /mcp Host check's name. */
  domain: string;
  bodyLimit: number;
  inlineMaxBytes: number;
  poolSize: number;
  batchConcurrency: number;
  batchChunks: 'event-loop' | 'pool';
  batchLineLimit: number;
  rateLimits: { enabled: boolean; perMinute: number; burst: number };
  trustedProxies: string[];
  /** METRICS_SCRAPERS: who may read /metrics. */
  metricsScrapers: string[];
  httpLimits: HttpLimits;
  cacheUrl: string | undefined;
  cacheKeyPrefix: string;
  databaseUrl: string | undefined;
  dataDir: string;
  /** NODE_ENV: development, test or production (pretty logs only in development on a terminal). */
  nodeEnv: string;
  logLevel: string;
  shutdownTimeoutMs: number;
  graphKernel: 'auto' | 'native' | 'ts';
  taskTimeoutMs: number;
  receiptSigningKey: string | undefined;
  reportCardSessionsPerClient: number;
  verify: VerifyModeConfig;
}

/** Where pooled verifications run: this process's threads, or the shared BullMQ queue. */
export type VerifyModeConfig =
  { mode: 'local' } | { mode: 'queue'; redisUrl: string; prefix: string; maxDepth: number };

/**
 * The one origin eval is reached at: EVAL_PUBLIC_URL, or built from DOMAIN (its deprecated
 * alias) when unset; both set must agree, or the links and the /mcp Host check would part.
 */
function publicOrigin(e: Static<typeof EvalEnv>): { publicUrl: string; domain: string } {
  if (e.EVAL_PUBLIC_URL === undefined) {
    const host = e.DOMAIN ?? 'localhost';
    const publicUrl = e.NODE_ENV === 'production' ? `https://${host}` : `http://${host}:${e.EVAL_PORT}`;
    return { publicUrl, domain: host.toLowerCase() };
  }
  const domain = new URL(e.EVAL_PUBLIC_URL).hostname.toLowerCase();
  if (e.DOMAIN !== undefined && e.DOMAIN.toLowerCase() !== domain) {
    throw new ConfigError([
      `EVAL_PUBLIC_URL (${e.EVAL_PUBLIC_URL}) and DOMAIN (${e.DOMAIN}) name different hosts, and eval's links and its /mcp Host check share one origin: make EVAL_PUBLIC_URL's host ${e.DOMAIN}, or leave DOMAIN out of eval's environment`,
    ]);
  }
  return { publicUrl: e.EVAL_PUBLIC_URL, domain };
}

export function loadEvalConfig(env: NodeJS.ProcessEnv = process.env): Readonly<EvalConfig> {
  const e = parseEnv(EvalEnv, env);
  const bodyLimit = parseByteSize(e.EVAL_BODY_LIMIT);
  if (bodyLimit === undefined || bodyLimit < 1024) {
    throw new ConfigError([
      `EVAL_BODY_LIMIT (got ${JSON.stringify(e.EVAL_BODY_LIMIT)}): must be a size of at least 1kb, e.g. 16mb`,
    ]);
  }
  const inlineMaxBytes = e.EVAL_INLINE_MAX_BYTES.trim() === '0' ? 0 : parseByteSize(e.EVAL_INLINE_MAX_BYTES);
  if (inlineMaxBytes === undefined) {
    throw new ConfigError([
      `EVAL_INLINE_MAX_BYTES (got ${JSON.stringify(e.EVAL_INLINE_MAX_BYTES)}): must be a size such as 16kb, or 0`,
    ]);
  }
  if (e.VERIFY_MODE === 'queue' && !e.CACHE_URL) {
    throw new ConfigError(['VERIFY_MODE=queue needs CACHE_URL (the Redis holding the verify queue)']);
  }
  const batchLineLimit = parseByteSize(e.EVAL_BATCH_LINE_LIMIT);
  if (batchLineLimit === undefined || batchLineLimit < 1) {
    throw new ConfigError([
      `EVAL_BATCH_LINE_LIMIT (got ${JSON.stringify(e.EVAL_BATCH_LINE_LIMIT)}): must be a size such as 1mb`,
    ]);
  }
  const { entries: trustedProxies, problems: proxyProblems } = trustedProxiesSetting(e.TRUSTED_PROXIES);
  const scrapers = parseScrapers(e.METRICS_SCRAPERS);
  const listProblems = [...proxyProblems, ...scrapers.problems];
  if (listProblems.length > 0) throw new ConfigError(listProblems);
  const poolSize = e.EVAL_POOL_SIZE ?? Math.max(1, os.availableParallelism());
  return Object.freeze({
    production: e.NODE_ENV === 'production',
    port: e.EVAL_PORT,
    host: e.EVAL_HOST,
    ...publicOrigin(e),
    bodyLimit,
    inlineMaxBytes,
    poolSize,
    batchConcurrency: e.EVAL_BATCH_CONCURRENCY ?? poolSize * 2,
    batchChunks: e.EVAL_BATCH_CHUNKS,
    batchLineLimit: Math.min(batchLineLimit, bodyLimit),
    rateLimits: {
      enabled: e.RATE_LIMITS === 'on',
      perMinute: e.EVAL_RATE_LIMIT_PER_MINUTE,
      burst: e.EVAL_RATE_LIMIT_BURST,
    },
    trustedProxies,
    metricsScrapers: scrapers.entries,
    httpLimits: httpLimitsFromEnv(e),
    cacheUrl: e.CACHE_URL,
    cacheKeyPrefix: e.CACHE_KEY_PREFIX,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    graphKernel: e.GRAPH_KERNEL,
    taskTimeoutMs: e.EVAL_TASK_TIMEOUT_MS,
    receiptSigningKey: e.RECEIPT_SIGNING_KEY,
    reportCardSessionsPerClient: e.REPORT_CARD_SESSIONS_PER_CLIENT,
    verify: (e.VERIFY_MODE === 'queue' && e.CACHE_URL
      ? {
          mode: 'queue',
          redisUrl: e.CACHE_URL,
          prefix: e.VERIFY_QUEUE_PREFIX,
          maxDepth: e.VERIFY_QUEUE_MAX_DEPTH,
        }
      : { mode: 'local' }) satisfies VerifyModeConfig,
  });
}

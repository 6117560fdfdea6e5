/**
 * The evaluation service app: core plumbing plus the tool, info, OpenAPI and metrics routes.
 * Owns its pool, usage counters and Redis connection, and closes them with the app.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { buildBaseApp } from '../core/app.js';
import { clientAddress } from '../core/client-address.js';
import { withLocalFallback } from '../core/rate-limit/fallback-store.js';
import { loggerOptions } from '../core/logger.js';
import { createHttpMetrics, registerMetricsRoute } from '../core/metrics.js';
import { MetricsScrapers } from '../core/metrics-access.js';
import { MemoryRateLimitStore } from '../core/rate-limit/memory-store.js';
import { registerRateLimits } from '../core/rate-limit/plugin.js';
import { RedisRateLimitStore } from '../core/repositories/redis-rate-limit-store.js';
import { createRedis } from '../core/repositories/redis.js';
import { TrustedProxies } from '../core/trusted-proxies.js';
import type { EvalConfig } from './config.js';
import { resolveGraphKernel } from './speed/graph-kernel-native.js';
import { registerBrowserEdge } from './edge/browser-edge.js';
import { McpHostCheck } from './mcp/dns-rebinding.js';
import { McpEndpoint } from './mcp/mcp-endpoint.js';
import { verifierMcpTools } from './mcp/mcp-tools.js';
import { gateLogsMcpTool } from './mcp/gate-logs-tool.js';
import { openBenchMcpTools } from './mcp/open-bench-tools.js';
import { openBenchLogMcpTools } from './mcp/open-bench-log-tools.js';
import { LogService } from './open-bench/log/log-service.js';
import { treeHeadSigner } from './open-bench/log/tree-head.js';
import { registerOpenBenchLogRoutes } from './routes/open-bench-log.js';
import { reportCardMcpTools } from './mcp/report-card-tools.js';
import { OpenBenchService, type OpenBenchSession } from './open-bench/open-bench-service.js';
import { buildOpenApi } from './openapi.js';
import type { VerifierPool } from './speed/pool.js';
import { createPoolForMode, localVerifyHealth } from './speed/verify-mode.js';
import { registerPoolMetrics } from './speed/pool-metrics.js';
import { TOOLS } from './registry.js';
import { GATE_LOGS_PATH, registerGateLogsRoute } from './routes/gate-logs.js';
import { registerInfoRoutes } from './routes/info.js';
import { registerLlmsTxt } from './routes/llms-txt.js';
import { registerMcpRoutes } from './routes/mcp.js';
import { registerOpenBenchRoutes } from './routes/open-bench.js';
import { registerReportCardRoutes } from './routes/report-card.js';
import { ReportCardService } from './report-card/report-card-service.js';
import { guarded, PrismaOpenBenchLedger } from './repositories/open-bench-ledger.js';
import { loadSigningKeys } from './repositories/receipt-keys.js';
import { MemorySessionStore, RedisSessionStore } from './repositories/report-card-sessions.js';
import { registerToolRoutes } from './routes/tools.js';
import { registerBatchRoute } from './routes/batch.js';
import { inlinePlacement, toolRunner } from './speed/run-tool.js';
import type { BatchLimiter } from './batch/admission.js';
import { registerWorkbench } from './routes/workbench.js';
import { resolveWebDist } from '../core/repositories/web-static.js';
import { FileUsageCounters, RedisUsageCounters, type UsageCounters } from './repositories/usage-counters.js';
import { discoveryModel, type OpenApiDocument } from './discovery/model.js';
import { DISCOVERY_PATHS, registerDiscoveryRoutes } from './routes/discovery.js';
import { PublicationLimit } from './open-bench/publication-limit.js';

/** Answers that are the same for everyone until the next deploy (browser edge: public max-age). */
const PUBLIC_PATHS = [
  '/api/catalog',
  '/api/examples',
  '/openapi.json',
  '/llms.txt',
  '/.well-known/mcp.json',
  ...DISCOVERY_PATHS,
];

export interface EvalAppOverrides {
  /** Share one pool between apps (tests); the app then does not destroy it. */
  pool?: VerifierPool;
  /** The clock of sessions (tests inject one to expire sessions). */
  now?: () => number;
  /** The built workbench (default dist/web/workbench; browser tests pass their own build). */
  webRoot?: string;
}

const warmings = new WeakMap<FastifyInstance, Promise<void>>();

/** Settles when the app's report-card bank is built (or failed to build). */
export function reportCardWarmed(app: FastifyInstance): Promise<void> {
  return warmings.get(app) ?? Promise.resolve();
}

export async function buildEvalApp(
  config: Readonly<EvalConfig>,
  overrides: EvalAppOverrides = {},
): Promise<FastifyInstance> {
  const graphKernel = resolveGraphKernel(config.graphKernel);
  const metrics = createHttpMetrics();
  const proxies = new TrustedProxies(config.trustedProxies);
  const app = buildBaseApp({
    logger: loggerOptions(config.logLevel, 'eval', config.nodeEnv),
    bodyLimit: config.bodyLimit,
    metrics,
    httpLimits: config.httpLimits,
    trustedProxies: proxies,
    // The workbench answers unknown paths (routes/workbench.ts): a page for browsers, else a problem.
    notFound: false,
  });
  const redis = config.cacheUrl ? createRedis(config.cacheUrl) : undefined;
  const { pool, verifyHealth } = overrides.pool
    ? { pool: overrides.pool, verifyHealth: localVerifyHealth }
    : await createPoolForMode(config, graphKernel);
  const keys = await loadSigningKeys({
    dataDir: config.dataDir,
    envKey: config.receiptSigningKey,
    production: config.production,
  });
  const ledger = config.databaseUrl
    ? new PrismaOpenBenchLedger(config.databaseUrl, {
        signer: treeHeadSigner(keys.active),
        now: overrides.now ?? Date.now,
      })
    : undefined;
  const usage: UsageCounters = redis
    ? new RedisUsageCounters(redis, config.cacheKeyPrefix)
    : await FileUsageCounters.open(config.dataDir);

  app.addHook('onClose', async () => {
    await usage.close();
    // Requests whose clients already left are still in the pool, running or queued; let
    // them finish rather than fail them (fastify's close does not wait for them), within half
    // the shutdown deadline so the rest of the shutdown still fits.
    if (!overrides.pool) {
      const { pending, cutOff } = await pool.close(config.shutdownTimeoutMs / 2);
      if (pending > 0) app.log[cutOff > 0 ? 'warn' : 'info']({ pending, cutOff }, 'verifier pool closed');
    }
    await ledger?.close();
    if (redis) await redis.quit().catch(() => redis.disconnect());
  });

  registerBrowserEdge(app, { publicPaths: PUBLIC_PATHS, publicMaxAgeSeconds: 300 });
  let batchLimiter: BatchLimiter | undefined;
  let publications: PublicationLimit | undefined;
  if (config.rateLimits.enabled) {
    const toolPaths = new Set(TOOLS.map((t) => t.path));
    // Shared through Redis; limits locally when Redis is slow or down (the batch lines too).
    const store = withLocalFallback(
      redis ? new RedisRateLimitStore(redis, `${config.cacheKeyPrefix}rl:`) : new MemoryRateLimitStore(),
      (err, localDecisions) =>
        app.log.warn(
          { err: (err as Error).message, local_decisions: localDecisions },
          'rate limiter store unavailable; limiting in this process alone',
        ),
    );
    const tools = {
      name: 'tools',
      // The batch endpoint is charged per line by its route, an MCP batch per tools/call, in this scope's bucket.
      match: (path: string) =>
        toolPaths.has(path) ||
        path === GATE_LOGS_PATH ||
        path === '/mcp' ||
        path.startsWith('/api/report-card/') ||
        path.startsWith('/api/open-bench/'),
      ratePerSecond: config.rateLimits.perMinute / 60,
      burst: config.rateLimits.burst,
    };
    const address = (request: FastifyRequest): string => clientAddress(request, proxies);
    registerRateLimits(app, { store, scopes: [tools], clientAddress: address });
    batchLimiter = { store, scope: tools, clientAddress: address };
    publications = new PublicationLimit(store, overrides.now ?? Date.now);
  }

  const reportCard = new ReportCardService({
    pool,
    store: redis ? new RedisSessionStore(redis, config.cacheKeyPrefix) : new MemorySessionStore(),
    keys,
    maxSessionsPerClient: config.reportCardSessionsPerClient,
    now: overrides.now ?? Date.now,
  });
  warmings.set(app, reportCard.warm());
  registerReportCardRoutes(app, reportCard, (request) => clientAddress(request, proxies));

  const openBench = new OpenBenchService({
    store: redis
      ? new RedisSessionStore<OpenBenchSession>(redis, config.cacheKeyPrefix, 'ob')
      : new MemorySessionStore<OpenBenchSession>(),
    ledger,
    maxSessionsPerClient: config.reportCardSessionsPerClient,
    ...(publications ? { publications } : {}),
    now: overrides.now ?? Date.now,
  });
  registerOpenBenchRoutes(app, openBench, (request) => clientAddress(request, proxies));
  const openBenchLog = new LogService(ledger?.log, guarded);
  registerOpenBenchLogRoutes(app, openBenchLog);

  registerPoolMetrics(metrics.registry, pool);
  const runsInline = inlinePlacement(config.inlineMaxBytes);
  const runTool = toolRunner(pool, runsInline);
  registerToolRoutes(app, { runTool, usage, bodyLimit: config.bodyLimit });
  registerBatchRoute(app, {
    runTool,
    runsInline,
    pool,
    usage,
    bodyLimit: config.bodyLimit,
    lineLimit: config.batchLineLimit,
    concurrency: config.batchConcurrency,
    poolChunks: config.batchChunks === 'pool',
    ...(batchLimiter ? { limiter: batchLimiter } : {}),
  });
  registerGateLogsRoute(app, { usage, pool });
  registerInfoRoutes(app, {
    pool,
    usage,
    startedAt: Date.now(),
    cache: redis ? 'redis' : 'memory',
    graphKernel,
    inlineMaxBytes: config.inlineMaxBytes,
    verifyHealth,
    health: () => ({ report_card: reportCard.health(), open_bench: openBench.health() }),
  });
  const openapiDocument = buildOpenApi() as OpenApiDocument;
  const openapi = JSON.stringify(openapiDocument);
  app.get('/openapi.json', (_req, reply) => reply.type('application/json; charset=utf-8').send(openapi));
  registerLlmsTxt(app);
  const mcpTools = [
    ...verifierMcpTools({ runTool, usage }),
    ...reportCardMcpTools(reportCard),
    ...openBenchMcpTools(openBench),
    gateLogsMcpTool(usage, pool),
    ...openBenchLogMcpTools(openBenchLog),
  ];
  registerDiscoveryRoutes(
    app,
    discoveryModel({
      publicUrl: config.publicUrl,
      openapi: openapiDocument,
      mcpTools: mcpTools.map((t) => t.definition),
    }),
  );
  registerMcpRoutes(app, new McpEndpoint(mcpTools), {
    bodyLimit: config.bodyLimit,
    clientAddress: (request) => clientAddress(request, proxies),
    hostCheck: new McpHostCheck(config.domain),
    ...(batchLimiter ? { limiter: batchLimiter } : {}),
  });
  registerMetricsRoute(app, metrics.registry, new MetricsScrapers(config.metricsScrapers));
  registerWorkbench(app, overrides.webRoot ?? resolveWebDist('workbench'));
  await app.ready();
  return app;
}

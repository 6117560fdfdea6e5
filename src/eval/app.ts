/**
 * The evaluation service app: core plumbing plus the tool, info, OpenAPI and metrics routes.
 * Owns its pool, usage counters and Redis connection, and closes them with the app.
 */
import type { FastifyInstance } from 'fastify';
import { buildBaseApp } from '../core/app.js';
import { clientAddress } from '../core/client-address.js';
import { loggerOptions } from '../core/logger.js';
import { createHttpMetrics, registerMetricsRoute } from '../core/metrics.js';
import { MemoryRateLimitStore } from '../core/rate-limit/memory-store.js';
import { registerRateLimits } from '../core/rate-limit/plugin.js';
import { RedisRateLimitStore } from '../core/rate-limit/redis-store.js';
import { createRedis } from '../core/redis.js';
import type { EvalConfig } from './config.js';
import { resolveGraphKernel } from './graph/native.js';
import { buildOpenApi } from './openapi.js';
import { createVerifierPool, type VerifierPool } from './pool.js';
import { registerPoolMetrics } from './pool-metrics.js';
import { TOOLS } from './registry.js';
import { registerInfoRoutes } from './routes/info.js';
import { registerToolRoutes } from './routes/tools.js';
import { FileUsageCounters, RedisUsageCounters, type UsageCounters } from './repositories/usage-counters.js';

export interface EvalAppOverrides {
  /** Share one pool between apps (tests); the app then does not destroy it. */
  pool?: VerifierPool;
}

export async function buildEvalApp(
  config: Readonly<EvalConfig>,
  overrides: EvalAppOverrides = {},
): Promise<FastifyInstance> {
  const graphKernel = resolveGraphKernel(config.graphKernel);
  const metrics = createHttpMetrics();
  const app = buildBaseApp({
    logger: loggerOptions(config.logLevel, 'eval'),
    bodyLimit: config.bodyLimit,
    metrics,
  });
  const redis = config.cacheUrl ? createRedis(config.cacheUrl) : undefined;
  const pool =
    overrides.pool ??
    createVerifierPool({ size: config.poolSize, taskTimeoutMs: config.taskTimeoutMs, graphKernel });
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
    if (redis) await redis.quit().catch(() => redis.disconnect());
  });

  if (config.rateLimits.enabled) {
    const toolPaths = new Set(TOOLS.map((t) => t.path));
    registerRateLimits(app, {
      store: redis
        ? new RedisRateLimitStore(redis, `${config.cacheKeyPrefix}rl:`)
        : new MemoryRateLimitStore(),
      scopes: [
        {
          name: 'tools',
          match: (path) => toolPaths.has(path),
          ratePerSecond: config.rateLimits.perMinute / 60,
          burst: config.rateLimits.burst,
        },
      ],
      clientAddress: (request) => clientAddress(request, config.trustedProxies),
    });
  }

  registerPoolMetrics(metrics.registry, pool);
  registerToolRoutes(app, {
    pool,
    usage,
    bodyLimit: config.bodyLimit,
    inlineMaxBytes: config.inlineMaxBytes,
  });
  registerInfoRoutes(app, {
    pool,
    usage,
    startedAt: Date.now(),
    cache: redis ? 'redis' : 'memory',
    graphKernel,
    inlineMaxBytes: config.inlineMaxBytes,
  });
  const openapi = JSON.stringify(buildOpenApi());
  app.get('/openapi.json', (_req, reply) => reply.type('application/json; charset=utf-8').send(openapi));
  registerMetricsRoute(app, metrics.registry);
  await app.ready();
  return app;
}

/**
 * The music-api fastify app: security headers, rate limits, health, metrics, identity,
 * profiles, media delivery and the web front-end fallback. Takes its connections from the
 * caller (entry point or test) and owns none of them.
 */
import type { FastifyInstance } from 'fastify';
import { buildBaseApp } from '../core/app.js';
import { clientAddress } from '../core/client-address.js';
import { loggerOptions } from '../core/logger.js';
import { createHttpMetrics, registerMetricsRoute, type HttpMetrics } from '../core/metrics.js';
import { registerRateLimits, type RateLimitScope } from '../core/rate-limit/plugin.js';
import { RedisRateLimitStore } from '../core/rate-limit/redis-store.js';
import type { RateLimitStore } from '../core/rate-limit/store.js';
import { registerSecurityHeaders } from '../core/security-headers.js';
import type { ServerOptions as HttpsServerOptions } from 'node:https';
import type { MusicConfig } from './config.js';
import { cacheProbe, databaseProbe, objectStoreProbe } from './repositories/health-repository.js';
import { BullJobQueueRepository } from './repositories/job-queue-repository.js';
import { PrismaVersionProcessingRepository } from './repositories/version-processing-repository.js';
import { RedisTokenRevocationRepository } from './repositories/token-revocation-repository.js';
import { PrismaTrackRepository } from './repositories/track-repository.js';
import { PrismaUserRepository } from './repositories/user-repository.js';
import type { MusicResources } from './resources.js';
import { registerAdminJobRoutes } from './routes/admin-jobs.js';
import { registerAuthRoutes } from './routes/auth.js';
import { registerHealthRoutes } from './routes/health.js';
import { registerMediaRoutes } from './routes/media.js';
import { registerUserRoutes } from './routes/users.js';
import { registerMusicValidators } from './routes/validation.js';
import { registerWebFallback, resolveWebRoot } from './routes/web.js';
import { AuthService } from './services/auth-service.js';
import { HotObjectCache } from './services/hot-object-cache.js';
import { JobAdminService } from './services/job-admin-service.js';
import { MediaDelivery } from './services/media-delivery.js';
import { TokenService } from './services/tokens.js';
import { UserService } from './services/user-service.js';

/** The seed's limits: auth 5/min burst 3; comments 20/hour burst 5; the rest of /api/ 100/min burst 20. */
export const MUSIC_RATE_LIMIT_SCOPES: readonly RateLimitScope[] = [
  { name: 'auth', match: (p) => p.startsWith('/api/v1/auth/'), ratePerSecond: 5 / 60, burst: 3 },
  {
    name: 'comments',
    match: (p) => p === '/api/v1/comments' || p.startsWith('/api/v1/comments/'),
    ratePerSecond: 20 / 3600,
    burst: 5,
  },
  { name: 'api', match: (p) => p.startsWith('/api/'), ratePerSecond: 100 / 60, burst: 20 },
];

export interface MusicAppOptions {
  metrics?: HttpMetrics;
  /** Overrides the Redis limiter (tests of other parts may pass a memory store). */
  rateLimitStore?: RateLimitStore;
  https?: HttpsServerOptions;
  nowSeconds?: () => number;
}

export function buildMusicApp(
  config: MusicConfig,
  resources: MusicResources,
  options: MusicAppOptions = {},
): FastifyInstance {
  const metrics = options.metrics ?? createHttpMetrics();
  const nowSeconds = options.nowSeconds ?? (() => Date.now() / 1000);
  const app = buildBaseApp({
    logger: loggerOptions(config.logLevel, 'music-api'),
    bodyLimit: config.bodyLimit,
    metrics,
    notFound: false,
    ...(options.https ? { https: options.https } : {}),
  });
  registerMusicValidators(app);
  // First hook: the headers are on every answer, including 429s and other errors.
  registerSecurityHeaders(app, config.domain);
  if (config.rateLimits) {
    registerRateLimits(app, {
      store:
        options.rateLimitStore ?? new RedisRateLimitStore(resources.redis, `${config.cacheKeyPrefix}rl:`),
      scopes: MUSIC_RATE_LIMIT_SCOPES,
      clientAddress: (request) => clientAddress(request, config.trustedProxies),
    });
  }

  const users = new PrismaUserRepository(resources.prisma);
  const tokens = new TokenService(config.jwt.secret, config.jwt.expiresInSeconds, () =>
    Math.floor(nowSeconds()),
  );
  const auth = new AuthService(
    users,
    new RedisTokenRevocationRepository(resources.redis, config.cacheKeyPrefix),
    tokens,
    () => Math.floor(nowSeconds()),
  );
  const delivery = new MediaDelivery({
    transcodes: resources.stores.transcodes,
    images: resources.stores.images,
    waveforms: resources.stores.waveforms,
    cache: new HotObjectCache(config.mediaCache.maxBytes, config.mediaCache.maxObjectBytes),
    secureLinkSecret: config.secureLink.secret,
    nowSeconds,
  });

  registerHealthRoutes(app, [
    { service: 'database', probe: databaseProbe(resources.prisma) },
    { service: 'cache', probe: cacheProbe(resources.redis) },
    { service: 'object-store', probe: objectStoreProbe(resources.stores) },
  ]);
  registerMetricsRoute(app, metrics.registry);
  registerAuthRoutes(app, auth);
  registerUserRoutes(app, new UserService(users, new PrismaTrackRepository(resources.prisma)), auth);
  registerMediaRoutes(app, delivery);
  const jobQueues = new BullJobQueueRepository(resources.redis, { prefix: config.queuePrefix });
  app.addHook('onClose', () => jobQueues.close());
  registerAdminJobRoutes(
    app,
    new JobAdminService(jobQueues, new PrismaVersionProcessingRepository(resources.prisma)),
    auth,
  );
  registerWebFallback(app, resolveWebRoot());
  return app;
}

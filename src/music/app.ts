/**
 * The music-api fastify app: security headers, rate limits, health, metrics, identity,
 * profiles, media delivery and the web front-end fallback. Takes its connections from the
 * caller (entry point or test) and owns none of them.
 */
import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import { buildBaseApp } from '../core/app.js';
import { clientAddress } from '../core/client-address.js';
import { loggerOptions } from '../core/logger.js';
import { createHttpMetrics, registerMetricsRoute, type HttpMetrics } from '../core/metrics.js';
import { MetricsScrapers } from '../core/metrics-access.js';
import { registerRateLimits, type RateLimitScope } from '../core/rate-limit/plugin.js';
import { withLocalFallback } from '../core/rate-limit/fallback-store.js';
import { RedisRateLimitStore } from '../core/repositories/redis-rate-limit-store.js';
import type { RateLimitStore } from '../core/rate-limit/store.js';
import { registerSecurityHeaders, securityHeaders } from '../core/security-headers.js';
import { TrustedProxies } from '../core/trusted-proxies.js';
import type { ServerOptions as HttpsServerOptions } from 'node:https';
import { registerAccounts } from './accounts.js';
import { registerAuthHooks } from './auth-hook.js';
import { registerRequestScheme } from './session-cookie.js';
import type { VersionFlowStarter } from './jobs/flow.js';
import { BullVersionFlowStarter } from './repositories/version-flow.js';
import type { MusicConfig } from './config.js';
import type { MailRetryOptions } from './repositories/mail-outbox.js';
import { classifyDatabaseError } from './repositories/database-errors.js';
import { cacheProbe, databaseProbe, objectStoreProbe } from './repositories/health-repository.js';
import { PrismaAssetRepository } from './repositories/asset-repository.js';
import { PrismaCommentRepository } from './repositories/comment-repository.js';
import { PrismaPlayRepository } from './repositories/play-repository.js';
import { PrismaProfileRepository } from './repositories/profile-repository.js';
import { probeAudio } from './repositories/ffprobe.js';
import { RedisTokenRevocationRepository } from './repositories/token-revocation-repository.js';
import { PrismaTrackRepository } from './repositories/track-repository.js';
import { PrismaUserRepository } from './repositories/user-repository.js';
import type { MusicConnections } from './repositories/connections.js';
import { registerAnalyticsRoutes } from './routes/analytics.js';
import { BullJobQueueRepository } from './repositories/job-queue-repository.js';
import { PrismaVersionProcessingRepository } from './repositories/version-processing-repository.js';
import { registerAdminLibraryRoutes } from './routes/admin-library.js';
import { BullLibraryQueue } from './repositories/library-queue.js';
import { PrismaLibraryRepository } from './repositories/library-repository.js';
import { resolveFolder } from './repositories/library-files.js';
import { LibraryService } from './services/library/library-service.js';
import { registerAdminJobRoutes } from './routes/admin-jobs.js';
import { registerAuthRoutes } from './routes/auth.js';
import { registerCatalogRoutes } from './routes/catalog.js';
import { registerPlaylistRoutes } from './routes/playlists.js';
import { registerPlayQueueRoutes } from './routes/play-queue.js';
import { registerCommentRoutes } from './routes/comments.js';
import { registerTrackRoutes } from './routes/tracks.js';
import { registerUploadRoutes } from './routes/uploads.js';
import { registerHealthRoutes } from './routes/health.js';
import { registerMediaRoutes } from './routes/media-delivery.js';
import { registerUserRoutes } from './routes/users.js';
import { PictureEncoder } from './repositories/picture-encoder.js';
import { ProfilePictureService } from './services/profile-picture-service.js';
import { registerMusicValidators } from './validation.js';
import { registerPayments, type PaymentAppOptions } from './payment-app.js';
import { registerWebFallback, resolveWebRoot } from './routes/web.js';
import { registerEventRoutes } from './routes/events.js';
import { createLiveEvents } from './live-wiring.js';
import { registerClientKeyRoutes } from './routes/client-keys.js';
import { registerSubsonicRoutes } from './routes/subsonic.js';
import { FfmpegRunner } from './repositories/ffmpeg-runner.js';
import { SUBSONIC_USER_FAILURE_LIMIT, SUBSONIC_USER_LIMIT, SubsonicAuthenticator } from './subsonic/auth.js';
import { ClientKeyCrypto } from './subsonic/client-key-crypto.js';
import { ClientKeyRepository } from './repositories/client-key-repository.js';
import { ClientKeyService } from './subsonic/client-key-service.js';
import { SubsonicEndpoints } from './subsonic/endpoints.js';
import { SubsonicAnnotationRepository } from './repositories/subsonic/annotation-repository.js';
import { SubsonicLibraryRepository } from './repositories/subsonic/library-repository.js';
import { SongStreams } from './subsonic/song-streams.js';
import { OnDemandEncodes } from './subsonic/on-demand-encodes.js';
import { registerEncodeMetrics } from './encode-metrics.js';
import { SqlReader } from './repositories/subsonic/sql-reader.js';
import { SubsonicStateRepository } from './repositories/subsonic/state-repository.js';
import { ScratchFiles } from './repositories/scratch-files.js';
import { MUSIC_SERVER_VERSION } from './repositories/server-version.js';
import { AuthService } from './services/auth-service.js';
import { KnownDevices } from './services/known-device.js';
import { LoginBackoff } from './services/login-backoff.js';
import { RedisLoginFailureRepository } from './repositories/login-failure-repository.js';
import { HotObjectCache } from './services/hot-object-cache.js';
import { JobAdminService } from './services/job-admin-service.js';
import { IMAGES_MOUNT, MediaDelivery } from './services/media-delivery.js';
import { TokenService } from './services/tokens.js';
import { AnalyticsService } from './services/analytics-service.js';
import { CatalogService } from './services/catalog-service.js';
import { CommentService } from './services/comment-service.js';
import { PlaylistService } from './services/playlist-service.js';
import { PlayQueueService } from './services/play-queue-service.js';
import { TrackService } from './services/track-service.js';
import { UploadService } from './services/upload-service.js';
import { UserService } from './services/user-service.js';

const UPLOAD_PART_ROUTE = '/api/v1/upload/multipart/:upload_id/parts/:n';

const isHealthPath = (p: string): boolean => p === '/api/v1/health' || p.startsWith('/api/v1/health/');

/**
 * The seed's limits: auth 5/min burst 3; writing comments 20/hour burst 5; the rest of /api/ 100/min
 * burst 20, except upload parts (their own scope) and the health probes (an orchestrator polls them). Paths are policy paths
 * (core/request-path.ts): route templates or normalised paths.
 */
export const MUSIC_RATE_LIMIT_SCOPES: readonly RateLimitScope[] = [
  // Every page load of the player asks who is signed in: not the login attempts the auth scope counts.
  { name: 'session', match: (p) => p === '/api/v1/auth/session', ratePerSecond: 1, burst: 30 },
  { name: 'auth', match: (p) => p.startsWith('/api/v1/auth/'), ratePerSecond: 5 / 60, burst: 3 },
  // The payment provider delivers bursts of events from a few addresses; it retries a 429.
  { name: 'payments-webhook', match: (p) => p === '/api/v1/payments/webhook', ratePerSecond: 20, burst: 200 },
  {
    // Posting and editing: a reader of comments (GET) spends the api scope, not this allowance.
    name: 'comments',
    methods: ['POST', 'PATCH'],
    match: (p) => p === '/api/v1/comments' || p.startsWith('/api/v1/comments/'),
    ratePerSecond: 20 / 3600,
    burst: 5,
  },
  {
    // One upload of the largest size at the smallest part size is 100 parts: a burst of them must
    // not spend the whole api scope, yet part PUTs stay bounded per client.
    name: 'upload-parts',
    match: (p) => p === UPLOAD_PART_ROUTE,
    ratePerSecond: 1,
    burst: 100,
  },
  {
    name: 'api',
    match: (p) => p.startsWith('/api/') && !isHealthPath(p),
    ratePerSecond: 100 / 60,
    burst: 20,
  },
];

export interface MusicAppOptions extends PaymentAppOptions {
  metrics?: HttpMetrics;
  /** Overrides the Redis limiter (tests of other parts may pass a memory store). */
  rateLimitStore?: RateLimitStore;
  https?: HttpsServerOptions;
  nowSeconds?: () => number;
  /** Tests of other parts may pass their own; by default versions are enqueued on BullMQ. */
  flowStarter?: VersionFlowStarter;
  /** The built player (default dist/web/player; browser tests pass their own build). */
  webRoot?: string;
  /** Tests shorten the backoff of mail retries (default: 6 tries over about 30 minutes). */
  mailRetry?: MailRetryOptions;
  /** Where log lines go (default stdout); tests read them here. */
  logStream?: { write(line: string): void };
}

export function buildMusicApp(
  config: MusicConfig,
  connections: MusicConnections,
  options: MusicAppOptions = {},
): FastifyInstance {
  const metrics = options.metrics ?? createHttpMetrics();
  const nowSeconds = options.nowSeconds ?? (() => Date.now() / 1000);
  // Host names (a compose service such as "nginx"): resolved before the app listens, then on a timer.
  const proxies = new TrustedProxies(config.trustedProxies);
  const logger = loggerOptions(config.logLevel, 'music-api', config.nodeEnv);
  const app = buildBaseApp({
    logger:
      typeof logger === 'object' && options.logStream ? { ...logger, stream: options.logStream } : logger,
    httpLimits: config.httpLimits,
    trustedProxies: proxies,
    // The default of every route; upload part routes set config.bodyLimit on themselves.
    bodyLimit: config.jsonBodyLimit,
    metrics,
    classifyError: classifyDatabaseError,
    edgeHeaders: securityHeaders(config.domain),
    notFound: false,
    ...(options.https ? { https: options.https } : {}),
  });
  registerMusicValidators(app);
  registerRequestScheme(app, proxies);
  // First hook: the headers are on every answer, including 429s and other errors.
  registerSecurityHeaders(app, config.domain);
  // One limiter store, shared by every instance through Redis and limiting locally when Redis is
  // slow or down: the scopes below, the Subsonic API's failed-login and per-user counts, mail limits.
  const limiter = withLocalFallback(
    options.rateLimitStore ?? new RedisRateLimitStore(connections.redis, `${config.cacheKeyPrefix}rl:`),
    (err, localDecisions) =>
      app.log.warn(
        { err: (err as Error).message, local_decisions: localDecisions },
        'rate limiter store unavailable; limiting in this process alone',
      ),
  );
  // RATE_LIMITS=off lifts the request scopes only: mail and login-failure limits protect third parties and owners.
  const rateLimitStore = config.rateLimits ? limiter : undefined;
  if (rateLimitStore) {
    registerRateLimits(app, {
      store: rateLimitStore,
      scopes: MUSIC_RATE_LIMIT_SCOPES,
      clientAddress: (request) => clientAddress(request, proxies),
    });
  }

  const users = new PrismaUserRepository(connections.prisma);
  const tokens = new TokenService(config.jwt.secret, config.jwt.expiresInSeconds, () =>
    Math.floor(nowSeconds()),
  );
  const clientKeys = new ClientKeyService(
    new ClientKeyRepository(connections.prisma),
    users,
    new ClientKeyCrypto(config.clientKeySecret),
  );
  const revocations = new RedisTokenRevocationRepository(connections.redis, config.cacheKeyPrefix);
  const loginBackoff = new LoginBackoff(
    new RedisLoginFailureRepository(connections.redis, config.cacheKeyPrefix),
  );
  const auth = new AuthService(
    users,
    revocations,
    tokens,
    () => Math.floor(nowSeconds()),
    (userId) => clientKeys.revokeAll(userId),
    { backoff: loginBackoff, devices: new KnownDevices(config.jwt.secret) },
  );
  const tracks = new PrismaTrackRepository(connections.prisma);
  const mediaCache = new HotObjectCache(config.mediaCache.maxBytes, config.mediaCache.maxObjectBytes);
  const delivery = new MediaDelivery({
    trackOfVersion: (versionId) => tracks.trackOfVersion(versionId),
    transcodes: connections.stores.transcodes,
    images: connections.stores.images,
    waveforms: connections.stores.waveforms,
    cache: mediaCache,
    secureLinkSecret: config.secureLink.secret,
    nowSeconds,
  });

  registerHealthRoutes(app, [
    { service: 'database', probe: databaseProbe(connections.prisma) },
    { service: 'cache', probe: cacheProbe(connections.redis) },
    { service: 'object-store', probe: objectStoreProbe(connections.stores) },
  ]);
  registerMetricsRoute(app, metrics.registry, new MetricsScrapers(config.metricsScrapers));
  // Parses Cookie (the web player's session) before the routes' identity hooks run.
  void app.register(fastifyCookie);
  const hooks = registerAuthHooks(app, auth);
  const accounts = registerAccounts(app, {
    config,
    connections,
    users,
    revocations,
    tokens,
    hooks,
    revokeClientKeys: (userId) => clientKeys.revokeAll(userId),
    clientAddress: (request) => clientAddress(request, proxies),
    limiter,
    clearLoginFailures: (userId) => loginBackoff.cleared(userId),
    nowMs: () => nowSeconds() * 1000,
    ...(options.mailRetry ? { mailRetry: options.mailRetry } : {}),
  });
  registerAuthRoutes(app, auth, hooks, accounts);
  const live = createLiveEvents(config, connections, auth, app.log);
  app.decorate('liveHub', live.hub);
  registerEventRoutes(app, live.hub);
  // Every ffmpeg/ffprobe this process starts runs below the requests that start it.
  const ffmpeg = new FfmpegRunner({ niceness: config.ffmpegNiceness });
  const encodes = new OnDemandEncodes();
  registerEncodeMetrics(metrics.registry, encodes);
  const pictures = new ProfilePictureService(
    users,
    connections.stores.images,
    new PictureEncoder(ffmpeg, join(config.dataDir, 'tmp')),
    (key) => mediaCache.delete(IMAGES_MOUNT + key),
  );
  registerUserRoutes(
    app,
    { users: new UserService(new PrismaProfileRepository(connections.prisma)), auth, pictures },
    hooks,
  );
  const assets = new PrismaAssetRepository(connections.prisma);
  const uploads = new UploadService(assets, connections.stores.originals, (source) =>
    probeAudio(source, join(config.dataDir, 'tmp'), ffmpeg),
  );
  registerUploadRoutes(app, uploads, hooks);
  const flows =
    options.flowStarter ?? new BullVersionFlowStarter(connections.redis, { prefix: config.queuePrefix });
  if (!options.flowStarter) app.addHook('onClose', () => flows.close());
  const plays = new PrismaPlayRepository(connections.prisma, connections.redis, config.cacheKeyPrefix);
  const trackService = new TrackService(
    tracks,
    assets,
    connections.stores,
    flows,
    { secret: config.secureLink.secret, ttlSeconds: config.secureLink.ttlSeconds, nowSeconds },
    plays,
    live.events,
  );
  registerTrackRoutes(app, trackService, hooks);
  registerCommentRoutes(
    app,
    new CommentService(new PrismaCommentRepository(connections.prisma), trackService, undefined, live.events),
    hooks,
  );
  const library = new SubsonicLibraryRepository(new SqlReader(connections.pool));
  registerCatalogRoutes(app, new CatalogService(library), hooks);
  const subsonicState = new SubsonicStateRepository(
    connections.prisma,
    connections.redis,
    config.cacheKeyPrefix,
  );
  const playlists = new PlaylistService(subsonicState, library);
  registerPlaylistRoutes(app, playlists, hooks);
  registerPlayQueueRoutes(app, new PlayQueueService(subsonicState, library), hooks);
  const analytics = new AnalyticsService(
    plays,
    tracks,
    trackService,
    config.ipHashSalt,
    () => nowSeconds() * 1000,
  );
  registerAnalyticsRoutes(app, analytics, hooks, (request) => clientAddress(request, proxies));
  registerMediaRoutes(app, delivery, hooks);
  const jobQueues = new BullJobQueueRepository(connections.redis, { prefix: config.queuePrefix });
  app.addHook('onClose', () => jobQueues.close());
  registerAdminJobRoutes(
    app,
    new JobAdminService(jobQueues, new PrismaVersionProcessingRepository(connections.prisma)),
    hooks,
  );
  const libraryQueue = new BullLibraryQueue(connections.redis, { prefix: config.queuePrefix });
  app.addHook('onClose', () => libraryQueue.close());
  registerAdminLibraryRoutes(
    app,
    new LibraryService({
      library: new PrismaLibraryRepository(connections.prisma),
      users,
      resolveFolder,
      queue: libraryQueue,
      roots: config.libraryImportRoots,
    }),
    hooks,
  );
  registerClientKeyRoutes(app, clientKeys, hooks);
  registerPayments(app, { config, connections, hooks, users, nowSeconds, options, accounts });
  const authScope = MUSIC_RATE_LIMIT_SCOPES.find((s) => s.name === 'auth');
  registerSubsonicRoutes(app, {
    endpoints: new SubsonicEndpoints({
      library,
      annotations: new SubsonicAnnotationRepository(connections.prisma),
      state: subsonicState,
      playlists,
      media: new SongStreams({
        originals: connections.stores.originals,
        transcodes: connections.stores.transcodes,
        images: connections.stores.images,
        ffmpeg,
        scratch: new ScratchFiles(join(config.dataDir, 'tmp')),
        signer: { secret: config.secureLink.secret, ttlSeconds: config.secureLink.ttlSeconds, nowSeconds },
        encodes,
      }),
      analytics,
      nowMs: () => nowSeconds() * 1000,
    }),
    authenticator: new SubsonicAuthenticator(
      clientKeys,
      rateLimitStore && authScope
        ? {
            store: rateLimitStore,
            authFailures: authScope,
            userFailures: SUBSONIC_USER_FAILURE_LIMIT,
            perUser: SUBSONIC_USER_LIMIT,
          }
        : undefined,
    ),
    serverVersion: MUSIC_SERVER_VERSION,
    clientAddress: (request) => clientAddress(request, proxies),
    classifyError: classifyDatabaseError,
  });
  registerWebFallback(app, options.webRoot ?? resolveWebRoot());
  return app;
}

/**
 * The fastify app factory shared by the HTTP processes: request ids, JSON logs, the
 * problem+json error handler, HTTP metrics. Services add their routes; entry files listen.
 */
import { randomUUID } from 'node:crypto';
import type { ServerOptions as HttpsServerOptions } from 'node:https';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { registerRequestDecoding } from './body-decoding.js';
import { registerCloseConnections } from './close-connections.js';
import { registerErrorHandler, registerProblemNotFound, type ErrorClassifier } from './error-handler.js';
import { clientErrorHandler, frameworkErrorHandler, type EdgeHeaders } from './framework-errors.js';
import { parseAnyTypeAsJson, registerBodySchemaHints } from './json-bodies.js';
import {
  DEFAULT_HTTP_LIMITS,
  registerBodyDeadlines,
  registerConnectionCap,
  serverTimeoutOptions,
  type HttpLimits,
} from './http-limits.js';
import { registerHttpMetricsHooks, type HttpMetrics } from './metrics.js';
import { registerResponseCompression } from './response-compression.js';
import { registerRouteMethods } from './route-methods.js';
import { resolveWithApp, TrustedProxies } from './trusted-proxies.js';

export interface BaseAppOptions {
  logger: FastifyServerOptions['logger'];
  bodyLimit: number;
  trustProxy?: boolean | string | string[];
  metrics: HttpMetrics;
  /** false: the caller sets its own not-found handler (e.g. a web front-end). */
  notFound?: boolean;
  /** TLS: when given, the app serves HTTPS (key, cert, minVersion ...). */
  https?: HttpsServerOptions;
  /** Maps a service's own dependency errors (e.g. database outage -> 503) before the 500 fallback. */
  classifyError?: ErrorClassifier;
  /**
   * Headers (security headers) also put on the answers made before any hook runs: bad
   * percent-encoding, oversized headers, malformed HTTP. The service's own hook sets them on
   * every routed answer.
   */
  edgeHeaders?: EdgeHeaders;
  /** Timeouts, keep-alive and connections per address (default: the settings' defaults). */
  httpLimits?: HttpLimits;
  /**
   * The app's one set of trusted proxies (clientAddress takes it): its names are resolved before
   * the app listens and on a timer; its addresses are exempt from the connections-per-address cap.
   */
  trustedProxies?: TrustedProxies;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function buildBaseApp(options: BaseAppOptions): FastifyInstance {
  const limits = options.httpLimits ?? DEFAULT_HTTP_LIMITS;
  const timeouts = serverTimeoutOptions(limits);
  const proxies = options.trustedProxies ?? new TrustedProxies([]);
  // Fastify's types tie the server type to the https option; every caller only needs the
  // common FastifyInstance surface, so the instance is typed as the plain HTTP one.
  const app = Fastify({
    // The TLS handshake has the headers' deadline too (Node's is 120 s, and it alone runs while the server closes).
    ...(options.https
      ? { https: { ...options.https, ...timeouts, handshakeTimeout: limits.headersTimeoutMs } }
      : { http: timeouts }),
    requestTimeout: 0,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    maxRequestsPerSocket: limits.maxRequestsPerConnection,
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimit,
    trustProxy: options.trustProxy ?? false,
    // A caller's X-Request-Id is kept when it is a sane token, so ids follow a request across services.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    // One line per request, written on the response (below), instead of fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    frameworkErrors: frameworkErrorHandler(options.edgeHeaders ?? {}),
    clientErrorHandler: clientErrorHandler(options.edgeHeaders ?? {}),
    forceCloseConnections: 'idle',
    // Fastify's default ajv silently drops unknown body properties (removeAdditional); a
    // request with a misspelt field must be a 400, not quietly half-applied.
    ajv: {
      customOptions: {
        strict: true,
        allErrors: true,
        useDefaults: true,
        coerceTypes: false,
        removeAdditional: false,
      },
    },
  } as FastifyServerOptions) as unknown as FastifyInstance;
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    request.log.debug({ req: request }, 'request received');
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info({ req: request, res: reply, ms: Math.round(reply.elapsedTime * 10) / 10 }, 'request');
    done();
  });
  resolveWithApp(app, proxies);
  registerConnectionCap(app, limits, {
    tls: options.https !== undefined,
    exempt: (address) => proxies.has(address),
    edgeHeaders: options.edgeHeaders ?? {},
  });
  registerBodyDeadlines(app, limits);
  registerCloseConnections(app, { tls: options.https !== undefined });
  registerErrorHandler(app, options.classifyError);
  // Before any route: the not-found handlers answer 405 + Allow for a path other methods have.
  registerRouteMethods(app);
  // Bodies: decoded (gzip, deflate, br) within the route's limit, then read as JSON whatever
  // their declared type; answers compressed when the client accepts it.
  registerRequestDecoding(app);
  parseAnyTypeAsJson(app);
  registerBodySchemaHints(app);
  registerResponseCompression(app);
  if (options.notFound ?? true) registerProblemNotFound(app);
  registerHttpMetricsHooks(app, options.metrics);
  return app;
}

/**
 * Applies rate-limit scopes to an app: the first scope whose `methods` (all, when absent) hold the
 * request's method and whose `match` accepts its policy path (the routed URL template, or the
 * normalised path: never the raw URL) decides;
 * paths no scope matches are not limited. A rejection is a 429 problem with Retry-After. If the
 * shared store fails (Redis slow or down), this process limits on its own (fallback-store.ts):
 * never unlimited, and the failure logged once per interval, not per request.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { policyPath } from '../request-path.js';
import { retryAfterSeconds } from './gcra.js';
import type { RateLimitStore } from './store.js';
import { withLocalFallback } from './fallback-store.js';
import { limitSubject } from '../client-address.js';
import { rateLimited } from '../errors/http.js';

export interface RateLimitScope {
  name: string;
  /** The methods the scope counts (upper case); absent, every method. */
  methods?: readonly string[];
  match: (path: string) => boolean;
  ratePerSecond: number;
  burst: number;
}

export interface RateLimitOptions {
  store: RateLimitStore;
  scopes: readonly RateLimitScope[];
  clientAddress: (request: FastifyRequest) => string;
  /** At most one "limiter store unavailable" log line per this many ms (default 60 s). */
  failureLogIntervalMs?: number;
}

/** A client's bucket in a scope (an IPv6 client's is its /64); a route charging its own cost uses the same. */
export function limitKey(scope: Pick<RateLimitScope, 'name'>, clientAddress: string): string {
  return `${scope.name}:${limitSubject(clientAddress)}`;
}

export function registerRateLimits(app: FastifyInstance, options: RateLimitOptions): void {
  const store = withLocalFallback(
    options.store,
    (err, localDecisions) =>
      app.log.warn(
        { err: (err as Error).message, local_decisions: localDecisions },
        'rate limiter store unavailable; limiting in this process alone',
      ),
    options.failureLogIntervalMs,
  );
  app.addHook('onRequest', async (request) => {
    const path = policyPath(request);
    const scope = options.scopes.find(
      (s) => (s.methods === undefined || s.methods.includes(request.method)) && s.match(path),
    );
    if (!scope) return;
    const result = await store.take(limitKey(scope, options.clientAddress(request)), scope);
    if (!result.allowed) throw rateLimited(scope.name, retryAfterSeconds(result.retryAfterMs));
  });
}

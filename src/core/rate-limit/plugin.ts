/**
 * Applies rate-limit scopes to an app: the first scope whose `match` accepts the request's
 * policy path (the routed URL template, or the normalised path: never the raw URL) decides;
 * paths no scope matches are not limited. A rejection is a 429 problem with Retry-After. If the
 * store fails (Redis down), the request is admitted and the failure logged once per interval:
 * an outage of the limiter must not become an outage of the service, nor a log flood.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { policyPath } from '../request-path.js';
import { retryAfterSeconds } from './gcra.js';
import type { RateLimitStore } from './store.js';
import { rateLimited } from '../errors/http.js';

export interface RateLimitScope {
  name: string;
  match: (path: string) => boolean;
  ratePerSecond: number;
  burst: number;
}

export interface RateLimitOptions {
  store: RateLimitStore;
  scopes: readonly RateLimitScope[];
  clientAddress: (request: FastifyRequest) => string;
  /** At most one "limiter unavailable" log line per this many ms (default 60 s). */
  failureLogIntervalMs?: number;
}

/** A client's bucket in a scope; a route that charges its own cost uses the same one. */
export function limitKey(scope: Pick<RateLimitScope, 'name'>, clientAddress: string): string {
  return `${scope.name}:${clientAddress}`;
}

export function registerRateLimits(app: FastifyInstance, options: RateLimitOptions): void {
  const logInterval = options.failureLogIntervalMs ?? 60_000;
  let lastLoggedAt = -Infinity;
  let admittedSinceLog = 0;
  app.addHook('onRequest', async (request) => {
    const path = policyPath(request);
    const scope = options.scopes.find((s) => s.match(path));
    if (!scope) return;
    const key = limitKey(scope, options.clientAddress(request));
    let result;
    try {
      result = await options.store.take(key, scope);
    } catch (err) {
      admittedSinceLog++;
      const now = Date.now();
      if (now - lastLoggedAt >= logInterval) {
        request.log.error(
          { err, scope: scope.name, admitted_unlimited: admittedSinceLog },
          'rate limiter unavailable; requests admitted without a limit',
        );
        lastLoggedAt = now;
        admittedSinceLog = 0;
      }
      return;
    }
    if (!result.allowed) {
      const seconds = retryAfterSeconds(result.retryAfterMs);
      throw rateLimited(scope.name, seconds);
    }
  });
}

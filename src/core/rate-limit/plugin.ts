/**
 * Applies rate-limit scopes to an app: the first scope whose `match` accepts the request path
 * decides; paths no scope matches are not limited. A rejection is a 429 problem with
 * Retry-After. If the store fails (Redis down), the request is admitted and the failure
 * logged: an outage of the limiter must not become an outage of the service.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { retryAfterSeconds } from './gcra.js';
import type { RateLimitStore } from './store.js';

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
}

export function registerRateLimits(app: FastifyInstance, options: RateLimitOptions): void {
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?', 1)[0] ?? '/';
    const scope = options.scopes.find((s) => s.match(path));
    if (!scope) return;
    const key = `${scope.name}:${options.clientAddress(request)}`;
    let result;
    try {
      result = await options.store.take(key, scope);
    } catch (err) {
      request.log.error({ err, scope: scope.name }, 'rate limiter unavailable; request admitted');
      return;
    }
    if (!result.allowed) {
      const seconds = retryAfterSeconds(result.retryAfterMs);
      throw new AppError(
        'rate_limited',
        `Rate limit of the "${scope.name}" scope exceeded; retry in ${seconds} s.`,
        {
          headers: { 'retry-after': String(seconds) },
          extra: { retry_after_seconds: seconds },
        },
      );
    }
  });
}

/**
 * 405 instead of 404 when a path exists under other methods (RFC 9110 section 15.5.6): every
 * route is also recorded in a router of our own (find-my-way, the router fastify uses, with the
 * same path options), which the not-found handlers ask which methods the path has. Fastify's
 * own router only looks routes up by method, so it cannot answer that.
 */
import FindMyWay from 'find-my-way';
import type { FastifyInstance, FastifyRequest, HTTPMethods, RouteOptions } from 'fastify';
import type { AppError } from './errors.js';
import { pathOfUrl } from './request-path.js';
import { methodNotAllowed as methodNotAllowedError } from './errors/http.js';

declare module 'fastify' {
  interface FastifyInstance {
    routeMethods: RouteMethods;
  }
}

const noop = (): void => undefined;

export class RouteMethods {
  private readonly router;
  private readonly methods = new Set<string>();

  constructor(options: { ignoreTrailingSlash?: boolean; ignoreDuplicateSlashes?: boolean } = {}) {
    this.router = FindMyWay({
      ignoreTrailingSlash: options.ignoreTrailingSlash ?? false,
      ignoreDuplicateSlashes: options.ignoreDuplicateSlashes ?? false,
    });
  }

  add(method: HTTPMethods | HTTPMethods[], url: string): void {
    for (const m of Array.isArray(method) ? method : [method]) {
      const upper = m.toUpperCase() as FindMyWay.HTTPMethod;
      // A route registered twice under prefixes or constraints is one entry here.
      if (this.router.hasRoute(upper, url)) continue;
      this.router.on(upper, url, noop);
      this.methods.add(upper);
    }
  }

  /** The methods with a route for `path` (sorted), empty when no route has the path. */
  allowed(path: string): string[] {
    const found: string[] = [];
    for (const m of this.methods) {
      if (this.router.find(m as FindMyWay.HTTPMethod, path)) found.push(m);
    }
    return found.sort();
  }
}

export function registerRouteMethods(app: FastifyInstance): RouteMethods {
  const routerOptions = (app.initialConfig as { routerOptions?: Record<string, unknown> }).routerOptions;
  const methods = new RouteMethods({
    ignoreTrailingSlash: routerOptions?.ignoreTrailingSlash === true,
    ignoreDuplicateSlashes: routerOptions?.ignoreDuplicateSlashes === true,
  });
  app.decorate('routeMethods', methods);
  app.addHook('onRoute', (route: RouteOptions) => methods.add(route.method, route.url));
  return methods;
}

/**
 * The 405 for a request no route of its method claims; undefined when its path has no route, or
 * when a route of its own method answered not-found itself (a static wildcard's missing file).
 */
export function methodNotAllowed(request: FastifyRequest): AppError | undefined {
  const path = pathOfUrl(request.url);
  const allowed = request.server.routeMethods.allowed(path);
  if (allowed.length === 0 || allowed.includes(request.method)) return undefined;
  const allow = allowed.join(', ');
  return methodNotAllowedError(request.method, path, allow);
}

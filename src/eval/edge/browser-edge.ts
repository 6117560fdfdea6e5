/**
 * The eval service's browser edge: CORS on /api/* and /mcp (any origin, no credentials),
 * security headers and a strict CSP on every response, Cache-Control per path. Registered
 * before the rate limiter so a preflight never spends a client's tokens.
 */
import type { FastifyInstance } from 'fastify';

const CORS_PATH = /^\/(api\/|mcp$)/;

export const CORS_ALLOW_METHODS = 'GET, HEAD, POST, OPTIONS';
export const CORS_ALLOW_HEADERS = [
  'Content-Type',
  'Accept',
  'Mcp-Protocol-Version',
  'Mcp-Session-Id',
  'Last-Event-ID',
  'X-Request-Id',
].join(', ');
const CORS_EXPOSE_HEADERS = [
  'X-Request-Id',
  'X-Receipt-Status',
  'Retry-After',
  'Server-Timing',
  'Mcp-Session-Id',
  'Mcp-Protocol-Version',
].join(', ');

/** JSON answers: never framed, nothing loaded. */
export const EVAL_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The workbench's pages (routes/workbench.ts): their own scripts, styles and icon, and fetches
 * to this origin; nothing inline, nothing from elsewhere. Downloads use blob: links, which are
 * navigations, not fetches, so no directive needs blob:.
 */
export const WORKBENCH_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = Object.freeze({
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': EVAL_CSP,
  'cache-control': 'no-store',
});

export interface BrowserEdgeOptions {
  /** Exact paths whose answers are the same for everyone until the next deploy. */
  publicPaths: readonly string[];
  publicMaxAgeSeconds: number;
}

export function registerBrowserEdge(app: FastifyInstance, options: BrowserEdgeOptions): void {
  const publicPaths = new Set(options.publicPaths);
  const publicCache = `public, max-age=${options.publicMaxAgeSeconds}`;
  app.addHook('onRequest', async (request, reply) => {
    const path = request.routeOptions.url ?? request.url.split('?', 1)[0] ?? '/';
    void reply.headers(SECURITY_HEADERS);
    if (publicPaths.has(path)) void reply.header('cache-control', publicCache);
    if (!CORS_PATH.test(path)) return;
    void reply.header('access-control-allow-origin', '*');
    void reply.header('access-control-expose-headers', CORS_EXPOSE_HEADERS);
    if (request.method === 'OPTIONS') {
      void reply.header('vary', 'Access-Control-Request-Headers');
      return reply
        .code(204)
        .headers({
          'access-control-allow-methods': CORS_ALLOW_METHODS,
          'access-control-allow-headers': CORS_ALLOW_HEADERS,
          'access-control-max-age': '86400',
        })
        .send();
    }
  });
}

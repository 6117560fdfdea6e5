/**
 * The web player's session: the access token in an `HttpOnly; Secure; SameSite=Strict` cookie
 * that page scripts cannot read (API clients and the CLI keep `Authorization: Bearer`). A write
 * authenticated by this cookie must also come from the platform's own origin (`Origin` check),
 * so a cross-site form or a sandboxed (opaque-origin) document cannot act with it.
 *
 * `__Host-` binds the cookie to this host, path `/`, `Secure`. Browsers accept `Secure` cookies
 * from http://localhost and http://127.0.0.1 (secure contexts), so development and tests work
 * without TLS; any other plain-http host needs TLS for the player to keep a session.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestScheme } from '../core/client-address.js';
import type { TrustedProxies } from '../core/trusted-proxies.js';
import { crossSiteCookieRequest } from './errors/auth.js';

export const SESSION_COOKIE = '__Host-music_session';

const COOKIE_OPTIONS = { path: '/', httpOnly: true, secure: true, sameSite: 'strict' } as const;

declare module 'fastify' {
  interface FastifyRequest {
    /** The scheme the client used (TLS socket, or a trusted proxy's X-Forwarded-Proto). */
    scheme: 'http' | 'https';
  }
}

/** Sets request.scheme once per request, before any route hook reads it. */
export function registerRequestScheme(app: FastifyInstance, proxies: TrustedProxies): void {
  app.decorateRequest('scheme', 'http');
  app.addHook('onRequest', (request, _reply, done) => {
    request.scheme = requestScheme(request, proxies);
    done();
  });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function setSessionCookie(reply: FastifyReply, token: string, maxAgeSeconds: number): void {
  void reply.setCookie(SESSION_COOKIE, token, { ...COOKIE_OPTIONS, maxAge: Math.max(0, maxAgeSeconds) });
}

/** Marks a device that logged in (services/known-device.ts); only the login route reads it. */
export const DEVICE_COOKIE = '__Host-music_device';
const DEVICE_MAX_AGE = 365 * 24 * 3600;

export function setDeviceCookie(reply: FastifyReply, value: string): void {
  void reply.setCookie(DEVICE_COOKIE, value, { ...COOKIE_OPTIONS, maxAge: DEVICE_MAX_AGE });
}

export function deviceCookie(request: FastifyRequest): string | undefined {
  return request.cookies[DEVICE_COOKIE];
}

export function clearSessionCookie(reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, COOKIE_OPTIONS);
}

export function sessionCookie(request: FastifyRequest): string | undefined {
  const value = request.cookies[SESSION_COOKIE];
  return value === undefined || value === '' ? undefined : value;
}

/**
 * A cookie-authenticated write must name this host as its `Origin` (browsers send it on every
 * non-GET request, same-origin included); `null`, another host or none is refused.
 */
export function assertSameOrigin(request: FastifyRequest): void {
  if (SAFE_METHODS.has(request.method)) return;
  if (!sameOrigin(request.headers.origin, request.headers.host, request.scheme)) {
    throw crossSiteCookieRequest();
  }
}

/**
 * Origin's scheme against the request's (registerRequestScheme), its host and port against
 * Host's; a Host without a port means the scheme's default port (so a proxy must pass the public
 * port: the nginx template sends `Host $http_host`).
 */
export function sameOrigin(
  origin: string | undefined,
  host: string | undefined,
  scheme: 'http' | 'https',
): boolean {
  if (origin === undefined || origin === 'null' || host === undefined) return false;
  let url: URL;
  let expected: URL;
  try {
    url = new URL(origin);
    expected = new URL(`${scheme}://${host}`);
  } catch {
    return false;
  }
  // The URL parser writes a scheme's default port as '' on both sides.
  return (
    url.protocol === expected.protocol && url.hostname === expected.hostname && url.port === expected.port
  );
}

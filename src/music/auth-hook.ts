/**
 * Identity resolved once per request: `requireAuth` (401 without a valid, unrevoked token) and
 * `optionalAuth` (anonymous when no token is sent; a bad token is still a 401, so a client never
 * silently reads as anonymous) set `request.auth`. The token is the bearer header's or, when
 * there is none, the web player's session cookie, whose writes must come from this origin
 * (session-cookie.ts). Both run as route-level onRequest hooks: an upload part is refused
 * before its body is read. A dead cookie, or none on a request of this site's own page, is
 * answered in a person's words (errors/auth.ts sessionEnded), never with the API's instructions.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext } from './auth-context.js';
import { AppError } from '../core/errors.js';
import { sessionEnded } from './errors/auth.js';
import type { AuthService } from './services/auth-service.js';
import { assertSameOrigin, clearSessionCookie, sessionCookie } from './session-cookie.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | undefined;
  }
}

export type AuthHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

export interface AuthHooks {
  requireAuth: AuthHook;
  optionalAuth: AuthHook;
}

export function registerAuthHooks(app: FastifyInstance, auth: AuthService): AuthHooks {
  app.decorateRequest('auth', undefined);
  const identify = async (request: FastifyRequest, reply: FastifyReply, required: boolean): Promise<void> => {
    const authorization = request.headers.authorization;
    const cookie = authorization === undefined ? sessionCookie(request) : undefined;
    if (cookie === undefined) {
      // The player's own page without its cookie (dropped by another tab's 401): a person reads this.
      if (required && authorization === undefined && request.headers['sec-fetch-site'] === 'same-origin')
        throw sessionEnded();
      if (required || authorization !== undefined) request.auth = await auth.authenticate(authorization);
      return;
    }
    try {
      request.auth = await auth.authenticateToken(cookie);
    } catch (err) {
      // A dead session (expired, revoked, forged) is dropped from the browser with the 401.
      clearSessionCookie(reply);
      throw err instanceof AppError && err.status === 401 ? sessionEnded() : err;
    }
    assertSameOrigin(request);
  };
  return {
    requireAuth: (request, reply) => identify(request, reply, true),
    optionalAuth: (request, reply) => identify(request, reply, false),
  };
}

/** The caller of a route guarded by requireAuth (a bug, not a 401, if the hook is missing). */
export function caller(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new Error(`route ${request.routeOptions.url ?? ''} has no requireAuth hook`);
  return request.auth;
}

/**
 * Identity resolved once per request: `requireAuth` (401 without a valid, unrevoked token) and
 * `optionalAuth` (anonymous when no token is sent; a bad token is still a 401, so a client never
 * silently reads as anonymous) set `request.auth`. The token is the bearer header's or, when
 * there is none, the web player's session cookie, whose writes must come from this origin
 * (session-cookie.ts). Both run as route-level onRequest hooks: an upload part is refused
 * before its body is read.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext } from './auth-context.js';
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
      if (required || authorization !== undefined) request.auth = await auth.authenticate(authorization);
      return;
    }
    try {
      request.auth = await auth.authenticateToken(cookie);
    } catch (err) {
      // A dead session (expired, revoked, forged) is dropped from the browser with the 401.
      clearSessionCookie(reply);
      throw err;
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

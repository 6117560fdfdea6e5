/**
 * Identity resolved once per request: `requireAuth` (401 without a valid, unrevoked bearer
 * token) and `optionalAuth` (anonymous when no Authorization header is sent; a bad token is
 * still a 401, so a client never silently reads as anonymous) set `request.auth`. Both run
 * as route-level onRequest hooks: an upload part is refused before its body is read.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext } from './domain.js';
import type { AuthService } from './services/auth-service.js';

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
  return {
    requireAuth: async (request) => {
      request.auth = await auth.authenticate(request.headers.authorization);
    },
    optionalAuth: async (request) => {
      if (request.headers.authorization !== undefined)
        request.auth = await auth.authenticate(request.headers.authorization);
    },
  };
}

/** The caller of a route guarded by requireAuth (a bug, not a 401, if the hook is missing). */
export function caller(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new Error(`route ${request.routeOptions.url ?? ''} has no requireAuth hook`);
  return request.auth;
}

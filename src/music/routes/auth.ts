/**
 * POST /api/v1/auth/signup, /login, /logout. Sign-up and login answer the token (API clients,
 * the CLI) and set the web player's session cookie; logout revokes the token and drops the cookie.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { caller, type AuthHooks } from '../auth-hook.js';
import { LoginBody, SignupBody } from '../schemas/auth.js';
import type { AuthService } from '../services/auth-service.js';
import {
  assertSameOrigin,
  clearSessionCookie,
  deviceCookie,
  setDeviceCookie,
  setSessionCookie,
} from '../session-cookie.js';
import { assertNoBodyFields } from '../validation.js';

/** A browser (it sends Origin) may only sign in from this site: no login CSRF. */
export function refuseForeignOrigin(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  if (request.headers.origin !== undefined) assertSameOrigin(request);
  done();
}

export function sendSession(
  reply: FastifyReply,
  auth: AuthService,
  answer: { token?: string | undefined },
): FastifyReply {
  if (answer.token !== undefined) setSessionCookie(reply, answer.token, auth.sessionLifetime);
  return reply.header('cache-control', 'no-store');
}

/** Told of every sign-up and login (sessions list, verification mail) and logout (docs/accounts.md). */
export interface SignInObserver {
  signedIn(
    request: FastifyRequest,
    answer: { token: string; user: { id: string } },
    signup: boolean,
  ): Promise<void>;
  loggedOut(request: FastifyRequest): Promise<void>;
}

export function registerAuthRoutes(
  app: FastifyInstance,
  auth: AuthService,
  hooks: AuthHooks,
  observer?: SignInObserver,
): void {
  app.post<{ Body: Static<typeof SignupBody> }>(
    '/api/v1/auth/signup',
    { schema: { body: SignupBody }, onRequest: refuseForeignOrigin },
    async (request, reply) => {
      const answer = await auth.signup(request.body);
      await observer?.signedIn(request, answer, true);
      return sendSession(reply, auth, answer).code(201).send(answer);
    },
  );

  app.post<{ Body: Static<typeof LoginBody> }>(
    '/api/v1/auth/login',
    { schema: { body: LoginBody }, onRequest: refuseForeignOrigin },
    async (request, reply) => {
      const { device, ...answer } = await auth.login(request.body, deviceCookie(request));
      await observer?.signedIn(request, answer, false);
      if (device !== undefined) setDeviceCookie(reply, device);
      return sendSession(reply, auth, answer).send(answer);
    },
  );

  // The player's truth about who is signed in (its localStorage is only a hint): 200 either way.
  app.get('/api/v1/auth/session', { onRequest: hooks.optionalAuth }, async (request, reply) => {
    const who = request.auth;
    return reply
      .header('cache-control', 'no-store')
      .send(
        who
          ? { user: { handle: who.handle }, expires_at: new Date(who.exp * 1000).toISOString() }
          : { user: null, expires_at: null },
      );
  });

  app.post('/api/v1/auth/logout', { onRequest: hooks.requireAuth }, async (request, reply) => {
    assertNoBodyFields(request.body);
    await auth.logout(caller(request));
    await observer?.loggedOut(request);
    clearSessionCookie(reply);
    return reply.code(204).send();
  });
}

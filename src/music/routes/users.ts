/** GET/PATCH /api/v1/me (own account; also GET /api/v1/users/me) and GET /api/v1/users/:handle. */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { caller, type AuthHooks } from '../auth-hook.js';
import { HandleParams, PageQuery, UpdateMeBody } from '../schemas/users.js';
import type { AuthService } from '../services/auth-service.js';
import type { UserService } from '../services/user-service.js';
import { sendSession } from './auth.js';

export function registerUserRoutes(
  app: FastifyInstance,
  users: UserService,
  auth: AuthService,
  hooks: AuthHooks,
): void {
  const me = { onRequest: hooks.requireAuth };
  // "me" cannot be a handle (handles have at least 3 characters), so the routes never collide.
  for (const url of ['/api/v1/me', '/api/v1/users/me']) {
    app.get(url, me, async (request, reply) =>
      reply.header('cache-control', 'no-store').send(await auth.me(caller(request))),
    );
  }

  for (const url of ['/api/v1/me', '/api/v1/users/me']) {
    app.patch<{ Body: Static<typeof UpdateMeBody> }>(
      url,
      { ...me, schema: { body: UpdateMeBody } },
      async (request, reply) => {
        // A password change revokes every older session, the cookie's too: the fresh token replaces it.
        const answer = await auth.updateMe(caller(request), request.body);
        return sendSession(reply, auth, answer).send(answer);
      },
    );
  }

  app.get<{ Params: Static<typeof HandleParams>; Querystring: Static<typeof PageQuery> }>(
    '/api/v1/users/:handle',
    { schema: { params: HandleParams, querystring: PageQuery } },
    async (request) => users.publicProfile(request.params.handle, request.query),
  );
}

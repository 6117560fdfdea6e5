/** GET /api/v1/users/me (own account) and /api/v1/users/:handle (public profile). */
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { HandleParams, ProfileQuery } from '../schemas/users.js';
import type { AuthService } from '../services/auth-service.js';
import type { UserService } from '../services/user-service.js';

export function registerUserRoutes(app: FastifyInstance, users: UserService, auth: AuthService): void {
  // "me" cannot be a handle (handles have at least 3 characters), so the two routes never collide.
  app.get('/api/v1/users/me', async (request, reply) =>
    reply.header('cache-control', 'no-store').send(await auth.me(request.headers.authorization)),
  );

  app.get<{ Params: Static<typeof HandleParams>; Querystring: Static<typeof ProfileQuery> }>(
    '/api/v1/users/:handle',
    { schema: { params: HandleParams, querystring: ProfileQuery } },
    async (request) => users.publicProfile(request.params.handle, request.query),
  );
}

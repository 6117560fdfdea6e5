/**
 * GET/PATCH /api/v1/me (own account; also GET /api/v1/users/me), PUT/DELETE /api/v1/users/me/picture
 * and GET /api/v1/users/:handle.
 */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { caller, type AuthHooks } from '../auth-hook.js';
import { HandleParams, PageQuery, UpdateMeBody } from '../schemas/users.js';
import type { AuthService } from '../services/auth-service.js';
import { PICTURE_BODY_LIMIT, type ProfilePictureService } from '../services/profile-picture-service.js';
import type { UserService } from '../services/user-service.js';
import { sendSession } from './auth.js';

export function registerUserRoutes(
  app: FastifyInstance,
  services: { users: UserService; auth: AuthService; pictures: ProfilePictureService },
  hooks: AuthHooks,
): void {
  const { users, auth, pictures } = services;
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

  app.delete('/api/v1/users/me/picture', me, async (request) => pictures.remove(caller(request)));
  void app.register((scope, _options, done) => {
    // Any declared type is read as bytes: ffprobe, not the header, decides what the body is.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, next) => next(null, body));
    scope.put('/api/v1/users/me/picture', { ...me, bodyLimit: PICTURE_BODY_LIMIT }, async (request) =>
      pictures.set(caller(request), Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)),
    );
    done();
  });
}

/** /api/v1/comments: create (auth), list per track (cursor), delete (author, track owner, admin). */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { caller, type AuthHooks } from '../auth-hook.js';
import { CommentParams, CommentsQuery, NewCommentBody } from '../schemas/comments.js';
import type { CommentService } from '../services/comment-service.js';

export function registerCommentRoutes(
  app: FastifyInstance,
  comments: CommentService,
  hooks: AuthHooks,
): void {
  app.post<{ Body: Static<typeof NewCommentBody> }>(
    '/api/v1/comments',
    { onRequest: hooks.requireAuth, schema: { body: NewCommentBody } },
    async (request, reply) => reply.code(201).send(await comments.create(caller(request), request.body)),
  );

  app.get<{ Querystring: Static<typeof CommentsQuery> }>(
    '/api/v1/comments',
    { onRequest: hooks.optionalAuth, schema: { querystring: CommentsQuery } },
    async (request, reply) =>
      reply
        .header('cache-control', 'private, no-store')
        .send(await comments.list(request.auth, request.query)),
  );

  app.delete<{ Params: Static<typeof CommentParams> }>(
    '/api/v1/comments/:id',
    { onRequest: hooks.requireAuth, schema: { params: CommentParams } },
    async (request, reply) => {
      await comments.delete(caller(request), request.params.id);
      return reply.code(204).send();
    },
  );
}

/**
 * Comments. Reads belong to the track (GET /api/v1/tracks/:id/comments, the general limit: a
 * track page reads them on every view); writes stay under /api/v1/comments (its own limit):
 * create, edit (author), delete (author, track owner, admin). GET /api/v1/comments?track_id=
 * is kept for existing clients.
 */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { caller, type AuthHooks } from '../auth-hook.js';
import {
  CommentParams,
  CommentsQuery,
  EditCommentBody,
  NewCommentBody,
  TrackCommentsQuery,
} from '../schemas/comments.js';
import { TrackParams } from '../schemas/tracks.js';
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

  app.get<{ Params: Static<typeof TrackParams>; Querystring: Static<typeof TrackCommentsQuery> }>(
    '/api/v1/tracks/:id/comments',
    { onRequest: hooks.optionalAuth, schema: { params: TrackParams, querystring: TrackCommentsQuery } },
    async (request, reply) =>
      reply
        .header('cache-control', 'private, no-store')
        .send(await comments.list(request.auth, request.params.id, request.query)),
  );

  app.get<{ Querystring: Static<typeof CommentsQuery> }>(
    '/api/v1/comments',
    { onRequest: hooks.optionalAuth, schema: { querystring: CommentsQuery } },
    async (request, reply) => {
      const { track_id, ...page } = request.query;
      return reply
        .header('cache-control', 'private, no-store')
        .send(await comments.list(request.auth, track_id, page));
    },
  );

  app.patch<{ Params: Static<typeof CommentParams>; Body: Static<typeof EditCommentBody> }>(
    '/api/v1/comments/:id',
    { onRequest: hooks.requireAuth, schema: { params: CommentParams, body: EditCommentBody } },
    async (request) => comments.edit(caller(request), request.params.id, request.body.body),
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

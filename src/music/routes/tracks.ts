/** /api/v1/tracks: create, read, change, delete; versions: add (flow enqueued) and list; /api/v1/me/tracks. */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { caller, type AuthHooks } from '../auth-hook.js';
import { AddVersionBody, CreateTrackBody, TrackParams, UpdateTrackBody } from '../schemas/tracks.js';
import { PageQuery } from '../schemas/users.js';
import type { TrackService } from '../services/track-service.js';

type Params = { Params: Static<typeof TrackParams> };

export function registerTrackRoutes(app: FastifyInstance, tracks: TrackService, hooks: AuthHooks): void {
  const auth = { onRequest: hooks.requireAuth };
  const maybe = { onRequest: hooks.optionalAuth };

  app.get<{ Querystring: Static<typeof PageQuery> }>(
    '/api/v1/me/tracks',
    { ...auth, schema: { querystring: PageQuery } },
    async (request, reply) =>
      reply
        .header('cache-control', 'private, no-store')
        .send(await tracks.mine(caller(request), request.query)),
  );

  app.post<{ Body: Static<typeof CreateTrackBody> }>(
    '/api/v1/tracks',
    { ...auth, schema: { body: CreateTrackBody } },
    async (request, reply) => reply.code(201).send(await tracks.create(caller(request), request.body)),
  );

  // Private tracks and signed URLs differ per caller: never stored by a shared cache.
  app.get<Params>(
    '/api/v1/tracks/:id',
    { ...maybe, schema: { params: TrackParams } },
    async (request, reply) =>
      reply
        .header('cache-control', 'private, no-store')
        .send(await tracks.get(request.auth, request.params.id)),
  );

  app.patch<Params & { Body: Static<typeof UpdateTrackBody> }>(
    '/api/v1/tracks/:id',
    { ...auth, schema: { params: TrackParams, body: UpdateTrackBody } },
    async (request) => tracks.update(caller(request), request.params.id, request.body),
  );

  app.delete<Params>(
    '/api/v1/tracks/:id',
    { ...auth, schema: { params: TrackParams } },
    async (request, reply) => {
      await tracks.delete(caller(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.post<Params & { Body: Static<typeof AddVersionBody> }>(
    '/api/v1/tracks/:id/versions',
    { ...auth, schema: { params: TrackParams, body: AddVersionBody } },
    async (request, reply) =>
      reply
        .code(202)
        .send(await tracks.addVersion(caller(request), request.params.id, request.body.asset_id)),
  );

  app.get<Params>(
    '/api/v1/tracks/:id/versions',
    { ...maybe, schema: { params: TrackParams } },
    async (request, reply) =>
      reply
        .header('cache-control', 'private, no-store')
        .send(await tracks.listVersions(request.auth, request.params.id)),
  );
}
